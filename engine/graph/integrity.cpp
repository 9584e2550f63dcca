// check_graph_integrity: range checks for columns read from an untrusted binary file,
// so that every accessor of Graph stays in bounds afterwards.
#include <fmt/format.h>

#include <vector>

#include "graph/validate.h"

namespace symshape {
namespace {

struct Corrupt {
  std::string what;
};

[[noreturn]] void corrupt(std::string what) { throw Corrupt{std::move(what)}; }

void require(bool ok, const char* what) {
  if (!ok) corrupt(what);
}

bool span_in(Span32 s, size_t size) { return uint64_t(s.first) + s.count <= size; }

template <class T>
void same_size(const std::vector<T>& v, size_t n, const char* what) {
  if (v.size() != n) corrupt(fmt::format("column {} has {} entries, expected {}", what, v.size(), n));
}

void check(const GraphStore& s, const GraphLimits& lim) {
  const size_t strs = s.strings.size();
  auto str_ok = [&](StrId id) { return id.valid() && id.index() < strs; };
  require(s.ops != nullptr, "graph has no op table");
  require(str_ok(s.name), "graph name");

  const size_t N = s.num_nodes();
  require(N <= lim.max_nodes, "too many nodes");
  same_size(s.node_name, N, "node_name");
  same_size(s.node_target, N, "node_target");
  same_size(s.node_op, N, "node_op");
  same_size(s.node_args, N, "node_args");
  same_size(s.node_kwargs, N, "node_kwargs");
  same_size(s.node_meta, N, "node_meta");
  const size_t A = s.arg_kind.size();
  same_size(s.arg_payload, A, "arg_payload");
  for (ArgId a : s.arg_refs) require(a.index() < A, "arg_refs entry out of range");

  const size_t P = s.ph_node.size();
  same_size(s.ph_dtype, P, "ph_dtype");
  same_size(s.ph_rank, P, "ph_rank");
  same_size(s.ph_has_range, P, "ph_has_range");
  same_size(s.ph_range_lo, P, "ph_range_lo");
  same_size(s.ph_range_hi, P, "ph_range_hi");
  const size_t T = s.attr_node.size();
  same_size(s.attr_dtype, T, "attr_dtype");
  same_size(s.attr_dims_first, T, "attr_dims_first");
  same_size(s.attr_rank, T, "attr_rank");
  same_size(s.attr_data, T, "attr_data");
  const size_t G = s.subgraph_node.size();
  same_size(s.subgraph, G, "subgraph");

  size_t outputs = 0;
  for (size_t i = 0; i < N; ++i) {
    const NodeKind k = s.node_kind[i];
    require(uint8_t(k) < kNumNodeKinds, "node kind");
    require(str_ok(s.node_name[i]) && str_ok(s.node_target[i]), "node name/target string id");
    require(k == NodeKind::CallFunction ? s.node_op[i].valid() && s.node_op[i].index() < s.ops->num_ops() : !s.node_op[i].valid(),
            "node op id");
    const bool takes_args = k == NodeKind::CallFunction || k == NodeKind::Output;
    require(takes_args ? s.node_args[i].present() && span_in(s.node_args[i], s.arg_refs.size()) : !s.node_args[i].present(),
            "node args span");
    require(!s.node_kwargs[i].present() || (takes_args && span_in(s.node_kwargs[i], s.kwargs.size())), "node kwargs span");
    const uint32_t m = s.node_meta[i];
    if (k == NodeKind::Placeholder) require(m < P && s.ph_node[m].index() == i, "placeholder meta index");
    else if (k == NodeKind::GetAttr && GraphStore::is_subgraph_meta(m)) {
      const uint32_t g = m & ~GraphStore::kSubgraphMeta;
      require(g < G && s.subgraph_node[g].index() == i && s.subgraph[g] != nullptr, "get_attr subgraph index");
    } else if (k == NodeKind::GetAttr) require(m < T && s.attr_node[m].index() == i, "get_attr meta index");
    else require(m == Span32::kAbsent, "meta index on a node without meta");
    outputs += k == NodeKind::Output;
  }
  require(outputs == 0 ? !s.output.valid() : s.output.valid() && s.output.index() < N &&
                                                 s.node_kind[s.output.index()] == NodeKind::Output,
          "output node id");
  for (NodeId n : s.ph_node) require(n.index() < N && s.node_kind[n.index()] == NodeKind::Placeholder, "placeholder node");
  for (NodeId n : s.attr_node) require(n.index() < N && s.node_kind[n.index()] == NodeKind::GetAttr, "get_attr node");
  for (const Kwarg& kw : s.kwargs)
    require(kw.key.valid() && kw.key.index() < s.ops->num_keys() && kw.value.index() < A, "kwarg key/value");

  // List items precede their list (loaders append children first), which rules out
  // cycles; depth is computed in the same forward pass.
  std::vector<uint8_t> depth(A, 0);
  for (size_t i = 0; i < A; ++i) {
    const uint64_t p = s.arg_payload[i];
    switch (s.arg_kind[i]) {
      case ArgKind::None: require(p == 0, "none payload"); break;
      case ArgKind::Node: require(p < N, "node reference out of range"); break;
      case ArgKind::Int:
      case ArgKind::Float: break;
      case ArgKind::Bool: require(p <= 1, "bool payload"); break;
      case ArgKind::String:
      case ArgKind::Device:
      case ArgKind::Layout: require(p < strs, "string id out of range"); break;
      case ArgKind::DType: require(p < kNumDTypes, "dtype"); break;
      case ArgKind::MemoryFormat: require(p < kNumMemoryFormats, "memory format"); break;
      case ArgKind::List: {
        Span32 sp = unpack_span(p);
        require(span_in(sp, s.arg_refs.size()), "list span out of range");
        require(sp.count <= lim.max_list_items, "list too long");
        uint8_t d = 0;
        for (uint32_t j = 0; j < sp.count; ++j) {
          ArgId item = s.arg_refs[sp.first + j];
          require(item.index() < i, "list item does not precede its list (cycle)");
          d = std::max(d, depth[item.index()]);
        }
        require(d < lim.max_list_depth, "lists nested too deep");
        depth[i] = uint8_t(d + 1);
        break;
      }
      default: corrupt("arg kind");
    }
  }

  for (size_t p = 0; p < P; ++p) {
    require(uint8_t(s.ph_dtype[p]) < kNumDTypes, "placeholder dtype");
    require(s.ph_rank[p] <= lim.max_rank && s.ph_has_range[p] <= 1, "placeholder rank/range");
  }
  for (size_t t = 0; t < T; ++t) {
    require(uint8_t(s.attr_dtype[t]) < kNumDTypes, "get_attr dtype");
    require(s.attr_rank[t] <= lim.max_rank, "get_attr rank");
    require(uint64_t(s.attr_dims_first[t]) + 2ull * s.attr_rank[t] <= s.attr_ints.size(), "get_attr dims span");
    require(!s.attr_data[t].present() || (span_in(s.attr_data[t], s.attr_ints.size()) &&
                                          s.attr_data[t].count <= lim.max_attr_data && dtype_is_integral(s.attr_dtype[t])),
            "get_attr data span");
  }

  const size_t S = s.sym_name.size();
  same_size(s.sym_min, S, "sym_min");
  same_size(s.sym_max, S, "sym_max");
  same_size(s.sym_has_max, S, "sym_has_max");
  for (size_t i = 0; i < S; ++i) require(str_ok(s.sym_name[i]) && s.sym_has_max[i] <= 1, "symbol");
  same_size(s.spec_of_ph, P, "spec_of_ph");
  for (Span32 sp : s.spec_of_ph)
    require(!sp.present() || (span_in(sp, s.spec_dims.size()) && sp.count <= lim.max_rank), "spec span");
  for (const SpecDim& d : s.spec_dims) require(!d.sym.valid() || d.sym.index() < S, "spec symbol id");
  require(s.spec_dim_fn.empty() || s.spec_dim_fn.size() == s.spec_dims.size(), "spec_dim_fn");
  for (size_t i = 0; i < s.spec_dim_fn.size(); ++i)
    require(s.spec_dim_fn[i].mul >= 1 && (s.spec_dim_fn[i].identity() || s.spec_dims[i].sym.valid()), "spec_dim_fn");

  const size_t V = s.value_kind.size();
  same_size(s.value_payload, V, "value_payload");
  std::fill(depth.begin(), depth.end(), 0);
  depth.resize(V, 0);
  for (size_t i = 0; i < V; ++i) {
    const uint64_t p = s.value_payload[i];
    switch (s.value_kind[i]) {
      case ValueKind::Null: require(p == 0, "null payload"); break;
      case ValueKind::Int:
      case ValueKind::Float: break;
      case ValueKind::Bool: require(p <= 1, "bool payload"); break;
      case ValueKind::Tensor:
        require(tensor_rank(p) <= lim.max_rank && uint8_t(tensor_dtype(p)) < kNumDTypes && (p >> 56) == 0,
                "tensor rank/dtype");
        require(uint64_t(tensor_first(p)) + 2ull * tensor_rank(p) <= s.value_ints.size(), "tensor dims span");
        break;
      case ValueKind::List: {
        Span32 sp = unpack_span(p);
        require(span_in(sp, s.value_refs.size()) && sp.count <= lim.max_list_items, "value list span");
        uint8_t d = 0;
        for (uint32_t j = 0; j < sp.count; ++j) {
          ValueId item = s.value_refs[sp.first + j];
          require(item.index() < i, "list item does not precede its list (cycle)");
          d = std::max(d, depth[item.index()]);
        }
        require(d < lim.max_list_depth, "value lists nested too deep");
        depth[i] = uint8_t(d + 1);
        break;
      }
      default: corrupt("value kind");
    }
  }

  const size_t E = s.ex_seed.size();
  require(E <= lim.max_examples && uint64_t(E) * N <= lim.max_golden_cells, "too many examples");
  same_size(s.ex_in_spec, E, "ex_in_spec");
  same_size(s.ex_ok, E, "ex_ok");
  same_size(s.ex_error, E, "ex_error");
  same_size(s.ex_error_kind, E, "ex_error_kind");
  same_size(s.ex_error_node, E, "ex_error_node");
  same_size(s.ex_has_values, E, "ex_has_values");
  same_size(s.ex_inputs, E * P, "ex_inputs");
  same_size(s.ex_golden, E * N, "ex_golden");
  for (size_t e = 0; e < E; ++e) {
    require(s.ex_in_spec[e] <= 1 && s.ex_ok[e] <= 1 && s.ex_has_values[e] <= 1, "example flags");
    require(!s.ex_error[e].valid() || str_ok(s.ex_error[e]), "example error string");
    require(uint8_t(s.ex_error_kind[e]) < kNumExampleErrorKinds, "example error kind");
    require(!s.ex_error_node[e].valid() || s.ex_error_node[e].index() < N, "example error node");
  }
  for (Span32 sp : s.ex_inputs)
    require(!sp.present() || (span_in(sp, s.ex_sizes.size()) && sp.count <= lim.max_rank), "example input span");
  for (ValueId v : s.ex_golden) require(!v.valid() || v.index() < V, "golden value id");
  require(s.node_by_name.size() <= strs, "name index size");
  for (NodeId n : s.node_by_name) require(!n.valid() || n.index() < N, "name index");
}

}  // namespace

bool check_graph_integrity(const Graph& g, std::string_view file, const GraphLimits& limits, Diagnostics& diags) {
  try {
    check(g.store(), limits);
    return true;
  } catch (const Corrupt& c) {
    Diagnostic d;
    d.code = GraphErrc::Corrupt;
    d.file = std::string(file);
    d.message = "corrupt graph data: " + c.what;
    diags.add(std::move(d));
    return false;
  }
}

}  // namespace symshape
