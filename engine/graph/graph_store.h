#pragma once
// The raw columns of one graph: struct-of-arrays tables indexed by typed ids, plus flat
// pools that spans (Span32) point into. Readers use the typed accessors of Graph
// (graph.h); serializers and loaders fill these columns directly. Nothing here owns a
// per-node heap object: a 100k-node graph is a few dozen vectors.
//
// Payload encodings (8 bytes, decided by the kind column):
//   ArgKind  None 0 | Node NodeId | Int int64 | Float double bits | Bool 0/1
//            String/Device/Layout StrId | DType/MemoryFormat enum | List Span32 into arg_refs
//   ValueKind Null 0 | Int int64 | Bool 0/1 | Float double bits | List Span32 into value_refs
//            Tensor: bits 0-31 first index into value_ints (shape then stride),
//                    bits 32-47 rank, bits 48-55 DType
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graph/ids.h"
#include "graph/kinds.h"
#include "graph/string_pool.h"

namespace symshape {

class OpTable;
class Graph;

struct Kwarg {
  KeyId key;    // interned in the corpus OpTable
  ArgId value;
};
static_assert(sizeof(Kwarg) == 8);

// One entry of a placeholder's dynamic_shapes list: a static size or a symbol.
struct SpecDim {
  int64_t size = 0;  // valid when !sym.valid()
  SymId sym;         // the dims-table symbol, or none for a static size
  uint32_t any_size = 0;  // 1: static at whatever size the example has (a spec's per-dim None)
};
static_assert(sizeof(SpecDim) == 16);

// The function of a derived dim (torch.export's `dx + 1`, `2*dx`): the size is
// mul*sym + add over the SpecDim's symbol (its root). Made by the fx-graph-json loader (a
// root's `derived` list, DynamicShapesSpec's text form), graph.fb / corpus.fb (version 2) and
// apply_spec; the column is empty when no dim is derived.
struct SpecDimFn {
  int64_t mul = 1;  // >= 1
  int64_t add = 0;
  bool identity() const { return mul == 1 && add == 0; }
};

struct GraphStore {
  const OpTable* ops = nullptr;  // shared, outlives the graph
  StringPool strings;
  StrId name;
  uint32_t format_version = 1;
  std::string producer_json;  // the informational `producer` object, minified JSON

  // Nodes (NodeId), in file order = topological order.
  std::vector<NodeKind> node_kind;
  std::vector<StrId> node_name;
  std::vector<StrId> node_target;   // the `target` text for every node kind
  std::vector<OpId> node_op;        // call_function: interned target; others: none
  std::vector<Span32> node_args;    // into arg_refs
  std::vector<Span32> node_kwargs;  // into kwargs; absent for nodes without a kwargs field
  std::vector<uint32_t> node_meta;  // PlaceholderId / AttrId index for those kinds, else none
  std::vector<NodeId> node_by_name; // indexed by StrId; first node with that name
  std::vector<uint8_t> node_out_kind;  // derived: ValueKind of the node's goldens, kUnknownKind if none
  NodeId output;

  // Arguments (ArgId).
  std::vector<ArgKind> arg_kind;
  std::vector<uint64_t> arg_payload;
  std::vector<ArgId> arg_refs;      // node argument lists and list items, contiguous per span
  std::vector<Kwarg> kwargs;

  // Placeholder meta (PlaceholderId), in graph order.
  std::vector<NodeId> ph_node;
  std::vector<DType> ph_dtype;
  std::vector<uint32_t> ph_rank;
  std::vector<uint8_t> ph_has_range;
  std::vector<int64_t> ph_range_lo;  // half-open [lo, hi)
  std::vector<int64_t> ph_range_hi;

  // get_attr meta (AttrId): shape then stride share one span of 2*rank ints.
  std::vector<NodeId> attr_node;
  std::vector<DType> attr_dtype;
  std::vector<uint32_t> attr_dims_first;  // into attr_ints
  std::vector<uint32_t> attr_rank;
  std::vector<Span32> attr_data;          // into attr_ints; absent when no `data`
  std::vector<int64_t> attr_ints;

  // Subgraphs: the bodies of higher-order ops (invoke_subgraph's GraphModule). A get_attr
  // node naming one carries node_meta = kSubgraphMeta | index here instead of an AttrId.
  // Only GraphBuilder makes them: fx-graph-json and the FlatBuffers files carry none.
  // Subgraphs share the parent's OpTable (so one RuleTable serves both).
  std::vector<NodeId> subgraph_node;
  std::vector<std::shared_ptr<const Graph>> subgraph;
  static constexpr uint32_t kSubgraphMeta = 0x80000000u;
  static bool is_subgraph_meta(uint32_t m) { return m != Span32::kAbsent && (m & kSubgraphMeta) != 0; }

  // dynamic_shapes SPEC.
  std::vector<Span32> spec_of_ph;  // PlaceholderId -> spec_dims; absent if not in the spec
  std::vector<SpecDim> spec_dims;
  std::vector<SpecDimFn> spec_dim_fn;  // parallel to spec_dims, or empty: no derived dim
  std::vector<StrId> sym_name;     // SymId columns, in `dims` order
  std::vector<int64_t> sym_min;
  std::vector<int64_t> sym_max;
  std::vector<uint8_t> sym_has_max;

  // Examples (ExampleId).
  std::vector<int64_t> ex_seed;
  std::vector<uint8_t> ex_in_spec;
  std::vector<uint8_t> ex_ok;
  std::vector<StrId> ex_error;                  // none when absent
  std::vector<ExampleErrorKind> ex_error_kind;  // None when absent
  std::vector<NodeId> ex_error_node;            // none when absent
  std::vector<uint8_t> ex_has_values;           // the `values` object was present
  std::vector<Span32> ex_inputs;   // [example * num_placeholders + ph] -> ex_sizes
  std::vector<int64_t> ex_sizes;
  std::vector<ValueId> ex_golden;  // [example * num_nodes + node]; output node = `output`

  // Golden values (ValueId).
  std::vector<ValueKind> value_kind;
  std::vector<uint64_t> value_payload;
  std::vector<int64_t> value_ints;
  std::vector<ValueId> value_refs;

  static constexpr uint8_t kUnknownKind = 0xff;

  uint32_t num_nodes() const { return static_cast<uint32_t>(node_kind.size()); }
  uint32_t num_placeholders() const { return static_cast<uint32_t>(ph_node.size()); }
  uint32_t num_examples() const { return static_cast<uint32_t>(ex_seed.size()); }
  void clear();
  // Fills the derived columns (node_out_kind); loaders call it once the graph validated.
  void derive();
};

// Payload packing shared by loaders and accessors.
inline uint64_t pack_span(Span32 s) { return uint64_t(s.first) | (uint64_t(s.count) << 32); }
inline Span32 unpack_span(uint64_t p) { return {uint32_t(p), uint32_t(p >> 32)}; }
inline uint64_t pack_tensor(uint32_t first, uint32_t rank, DType dt) {
  return uint64_t(first) | (uint64_t(rank & 0xffff) << 32) | (uint64_t(dt) << 48);
}
inline uint32_t tensor_first(uint64_t p) { return uint32_t(p); }
inline uint32_t tensor_rank(uint64_t p) { return uint32_t((p >> 32) & 0xffff); }
inline DType tensor_dtype(uint64_t p) { return DType((p >> 48) & 0xff); }

}  // namespace symshape
