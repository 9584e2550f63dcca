#pragma once
// Read API of one loaded graph. Everything is an O(1) column read; no call allocates.
//
//   const Graph& g = ...;
//   for (uint32_t i = 0; i < g.num_nodes(); ++i) {
//     NodeId n(i);
//     if (g.node_kind(n) != NodeKind::CallFunction) continue;
//     OpId op = g.node_op(n);                        // dense, shared by the corpus
//     for (ArgId a : g.node_args(n))                 // positional ARGs in schema order
//       if (g.arg_kind(a) == ArgKind::List)
//         for (ArgId item : g.list_items(a)) ...     // e.g. [{"node": "sym_size"}, -1]
//     ArgId alpha = g.kwarg(n, alpha_key);           // KeyId from OpTable::find_key("alpha")
//   }
//   ExampleView ex = g.example(ExampleId(0));
//   ValueId v = ex.golden(n);                        // tensor {shape, stride, dtype}, int, ...
//
// Invariants after a successful load (checked by validate_graph): nodes are in
// topological order (every Node ARG refers to an earlier node), names are unique, the
// last node is the only Output node, every id and span is in range.
#include <bit>
#include <optional>
#include <span>
#include <string_view>

#include "graph/example_view.h"
#include "graph/graph_store.h"
#include "graph/op_table.h"
#include "graph/torch_version.h"

namespace symshape {

class Graph {
 public:
  Graph() = default;
  explicit Graph(const OpTable& ops) { s_.ops = &ops; }

  // --- graph ---
  std::string_view name() const { return str(s_.name); }
  std::string_view producer_json() const { return s_.producer_json; }
  // The release in the producer's `torch` string ("1.13.0a0" -> 1.13, "2.14.1+cu130" -> 2.14);
  // {0, 0} when the producer names none.
  TorchVersion producer_torch() const;
  const OpTable& ops() const { return *s_.ops; }
  uint32_t num_nodes() const { return s_.num_nodes(); }
  NodeId output_node() const { return s_.output; }
  NodeId find_node(std::string_view name) const;  // none if absent
  std::string_view str(StrId id) const { return s_.strings.get(id); }

  // --- nodes ---
  NodeKind node_kind(NodeId n) const { return s_.node_kind[n.index()]; }
  std::string_view node_name(NodeId n) const { return str(s_.node_name[n.index()]); }
  // placeholder: the parameter name; get_attr: dotted module path; call_function: the
  // ATen/operator target text; output: "output".
  std::string_view node_target(NodeId n) const { return str(s_.node_target[n.index()]); }
  OpId node_op(NodeId n) const { return s_.node_op[n.index()]; }  // call_function only
  // What the node produces according to the goldens: Tensor, Int (sym_size), List (split,
  // topk), ...; nullopt when no successful example recorded a value for it.
  std::optional<ValueKind> node_output_kind(NodeId n) const {
    const uint8_t k = s_.node_out_kind[n.index()];
    return k == GraphStore::kUnknownKind ? std::nullopt : std::optional<ValueKind>(ValueKind(k));
  }
  std::span<const ArgId> node_args(NodeId n) const { return refs(s_.node_args[n.index()]); }
  std::span<const Kwarg> node_kwargs(NodeId n) const;
  ArgId kwarg(NodeId n, KeyId key) const;  // none if the node has no such kwarg
  ArgId kwarg(NodeId n, std::string_view key) const { return kwarg(n, s_.ops->find_key(key)); }
  // The output node's single ARG (a node reference or a nested list of them / null).
  ArgId output_arg() const;

  // --- arguments ---
  ArgKind arg_kind(ArgId a) const { return s_.arg_kind[a.index()]; }
  NodeId arg_node(ArgId a) const { return NodeId(uint32_t(payload(a))); }
  int64_t arg_int(ArgId a) const { return static_cast<int64_t>(payload(a)); }
  double arg_float(ArgId a) const { return std::bit_cast<double>(payload(a)); }
  bool arg_bool(ArgId a) const { return payload(a) != 0; }
  std::string_view arg_string(ArgId a) const { return str(StrId(uint32_t(payload(a)))); }  // also Device, Layout
  DType arg_dtype(ArgId a) const { return DType(payload(a)); }
  MemoryFormat arg_memory_format(ArgId a) const { return MemoryFormat(payload(a)); }
  std::span<const ArgId> list_items(ArgId a) const { return refs(unpack_span(payload(a))); }

  // --- placeholders (graph inputs), PlaceholderId = position among placeholders ---
  uint32_t num_placeholders() const { return s_.num_placeholders(); }
  std::span<const NodeId> placeholder_nodes() const { return s_.ph_node; }
  PlaceholderId placeholder_of(NodeId n) const;  // none unless n is a placeholder
  NodeId placeholder_node(PlaceholderId p) const { return s_.ph_node[p.index()]; }
  DType placeholder_dtype(PlaceholderId p) const { return s_.ph_dtype[p.index()]; }
  uint32_t placeholder_rank(PlaceholderId p) const { return s_.ph_rank[p.index()]; }
  struct IntRange { int64_t lo, hi; };  // values drawn from [lo, hi)
  std::optional<IntRange> placeholder_range(PlaceholderId p) const;

  // --- get_attr (weights: metadata only, plus exact data of integer/bool tensors) ---
  uint32_t num_attrs() const { return static_cast<uint32_t>(s_.attr_node.size()); }
  AttrId attr_of(NodeId n) const;  // none unless n is a get_attr
  NodeId attr_node(AttrId a) const { return s_.attr_node[a.index()]; }
  DType attr_dtype(AttrId a) const { return s_.attr_dtype[a.index()]; }
  std::span<const int64_t> attr_shape(AttrId a) const;
  std::span<const int64_t> attr_stride(AttrId a) const;
  bool attr_has_data(AttrId a) const { return s_.attr_data[a.index()].present(); }
  std::span<const int64_t> attr_data(AttrId a) const;  // row-major; bools as 0/1

  // --- subgraphs (get_attr of a GraphModule, e.g. invoke_subgraph's body) ---
  uint32_t num_subgraphs() const { return static_cast<uint32_t>(s_.subgraph.size()); }
  const Graph* subgraph_of(NodeId n) const;  // null unless n is a get_attr naming a subgraph

  // --- dynamic_shapes SPEC ---
  bool spec_has(PlaceholderId p) const { return s_.spec_of_ph[p.index()].present(); }
  std::span<const SpecDim> spec_dims(PlaceholderId p) const;  // one per dim
  // The derived-dim function of dim d of p's spec (identity unless apply_spec set one).
  SpecDimFn spec_dim_fn(PlaceholderId p, uint32_t d) const;
  bool spec_has_derived() const { return !s_.spec_dim_fn.empty(); }
  uint32_t num_syms() const { return static_cast<uint32_t>(s_.sym_name.size()); }
  std::string_view sym_name(SymId s) const { return str(s_.sym_name[s.index()]); }
  SymId find_sym(std::string_view name) const;
  int64_t sym_min(SymId s) const { return s_.sym_min[s.index()]; }
  std::optional<int64_t> sym_max(SymId s) const;  // nullopt = unbounded

  // --- examples and golden values ---
  uint32_t num_examples() const { return s_.num_examples(); }
  ExampleView example(ExampleId e) const { return ExampleView(s_, e); }
  ExampleView example(uint32_t i) const { return ExampleView(s_, ExampleId(i)); }
  ValueKind value_kind(ValueId v) const { return s_.value_kind[v.index()]; }
  int64_t value_int(ValueId v) const { return static_cast<int64_t>(s_.value_payload[v.index()]); }
  bool value_bool(ValueId v) const { return s_.value_payload[v.index()] != 0; }
  double value_float(ValueId v) const { return std::bit_cast<double>(s_.value_payload[v.index()]); }
  std::span<const ValueId> value_items(ValueId v) const;
  std::span<const int64_t> value_shape(ValueId v) const;
  std::span<const int64_t> value_stride(ValueId v) const;
  DType value_dtype(ValueId v) const { return tensor_dtype(s_.value_payload[v.index()]); }

  // --- raw columns, for serializers and loaders ---
  const GraphStore& store() const { return s_; }
  GraphStore& mutable_store() { return s_; }

 private:
  uint64_t payload(ArgId a) const { return s_.arg_payload[a.index()]; }
  std::span<const ArgId> refs(Span32 s) const {
    return s.present() ? std::span<const ArgId>(s_.arg_refs.data() + s.first, s.count) : std::span<const ArgId>();
  }

  GraphStore s_;
};

}  // namespace symshape
