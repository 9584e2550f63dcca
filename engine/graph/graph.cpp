#include "graph/graph.h"

namespace symshape {

void GraphStore::clear() {
  const OpTable* keep = ops;
  *this = GraphStore();
  ops = keep;
}

void GraphStore::derive() {
  // The first example holding a value for a node decides; nodes never computed stay unknown.
  node_out_kind.assign(num_nodes(), kUnknownKind);
  const uint32_t n = num_nodes();
  for (uint32_t e = 0; e < num_examples(); ++e) {
    const ValueId* row = ex_golden.data() + size_t(e) * n;
    for (uint32_t i = 0; i < n; ++i)
      if (node_out_kind[i] == kUnknownKind && row[i].valid()) node_out_kind[i] = uint8_t(value_kind[row[i].index()]);
  }
}

NodeId Graph::find_node(std::string_view name) const {
  StrId id = s_.strings.find(name);
  return id.valid() && id.index() < s_.node_by_name.size() ? s_.node_by_name[id.index()] : NodeId();
}

std::span<const Kwarg> Graph::node_kwargs(NodeId n) const {
  Span32 s = s_.node_kwargs[n.index()];
  return s.present() ? std::span<const Kwarg>(s_.kwargs.data() + s.first, s.count) : std::span<const Kwarg>();
}

ArgId Graph::kwarg(NodeId n, KeyId key) const {
  if (!key.valid()) return ArgId();
  for (const Kwarg& kw : node_kwargs(n))  // a node has at most a handful of kwargs
    if (kw.key == key) return kw.value;
  return ArgId();
}

ArgId Graph::output_arg() const {
  std::span<const ArgId> args = node_args(s_.output);
  return args.empty() ? ArgId() : args[0];
}

PlaceholderId Graph::placeholder_of(NodeId n) const {
  return s_.node_kind[n.index()] == NodeKind::Placeholder ? PlaceholderId(s_.node_meta[n.index()]) : PlaceholderId();
}

std::optional<Graph::IntRange> Graph::placeholder_range(PlaceholderId p) const {
  if (!s_.ph_has_range[p.index()]) return std::nullopt;
  return IntRange{s_.ph_range_lo[p.index()], s_.ph_range_hi[p.index()]};
}

AttrId Graph::attr_of(NodeId n) const {
  if (s_.node_kind[n.index()] != NodeKind::GetAttr) return AttrId();
  const uint32_t m = s_.node_meta[n.index()];
  return GraphStore::is_subgraph_meta(m) ? AttrId() : AttrId(m);
}

const Graph* Graph::subgraph_of(NodeId n) const {
  if (s_.node_kind[n.index()] != NodeKind::GetAttr) return nullptr;
  const uint32_t m = s_.node_meta[n.index()];
  return GraphStore::is_subgraph_meta(m) ? s_.subgraph[m & ~GraphStore::kSubgraphMeta].get() : nullptr;
}

std::span<const int64_t> Graph::attr_shape(AttrId a) const {
  return {s_.attr_ints.data() + s_.attr_dims_first[a.index()], s_.attr_rank[a.index()]};
}

std::span<const int64_t> Graph::attr_stride(AttrId a) const {
  return {s_.attr_ints.data() + s_.attr_dims_first[a.index()] + s_.attr_rank[a.index()], s_.attr_rank[a.index()]};
}

std::span<const int64_t> Graph::attr_data(AttrId a) const {
  Span32 d = s_.attr_data[a.index()];
  return d.present() ? std::span<const int64_t>(s_.attr_ints.data() + d.first, d.count) : std::span<const int64_t>();
}

std::span<const SpecDim> Graph::spec_dims(PlaceholderId p) const {
  Span32 d = s_.spec_of_ph[p.index()];
  return d.present() ? std::span<const SpecDim>(s_.spec_dims.data() + d.first, d.count) : std::span<const SpecDim>();
}

SpecDimFn Graph::spec_dim_fn(PlaceholderId p, uint32_t d) const {
  Span32 sp = s_.spec_of_ph[p.index()];
  if (s_.spec_dim_fn.empty() || !sp.present() || d >= sp.count) return {};
  return s_.spec_dim_fn[sp.first + d];
}

SymId Graph::find_sym(std::string_view name) const {
  StrId id = s_.strings.find(name);
  if (!id.valid()) return SymId();
  for (uint32_t i = 0; i < s_.sym_name.size(); ++i)  // a spec has a handful of symbols
    if (s_.sym_name[i] == id) return SymId(i);
  return SymId();
}

std::optional<int64_t> Graph::sym_max(SymId s) const {
  if (!s_.sym_has_max[s.index()]) return std::nullopt;
  return s_.sym_max[s.index()];
}

std::span<const ValueId> Graph::value_items(ValueId v) const {
  if (s_.value_kind[v.index()] != ValueKind::List) return {};
  Span32 s = unpack_span(s_.value_payload[v.index()]);
  return {s_.value_refs.data() + s.first, s.count};
}

std::span<const int64_t> Graph::value_shape(ValueId v) const {
  if (s_.value_kind[v.index()] != ValueKind::Tensor) return {};
  uint64_t p = s_.value_payload[v.index()];
  return {s_.value_ints.data() + tensor_first(p), tensor_rank(p)};
}

std::span<const int64_t> Graph::value_stride(ValueId v) const {
  if (s_.value_kind[v.index()] != ValueKind::Tensor) return {};
  uint64_t p = s_.value_payload[v.index()];
  return {s_.value_ints.data() + tensor_first(p) + tensor_rank(p), tensor_rank(p)};
}

TorchVersion Graph::producer_torch() const {
  // producer_json is minified JSON written by the loaders: `"torch":"<version>"`
  constexpr std::string_view key = "\"torch\":\"";
  const std::string_view p = producer_json();
  const size_t at = p.find(key);
  if (at == std::string_view::npos) return {};
  return parse_torch_version(p.substr(at + key.size()));
}

}  // namespace symshape
