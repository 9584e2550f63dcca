#include "graph/graph_builder.h"

#include <bit>

#include "graph/validate.h"

namespace symshape {

GraphBuilder::GraphBuilder(OpTable& ops, std::string_view name) : ops_(ops) {
  s_.ops = &ops;
  s_.name = s_.strings.intern(name);
}

ArgId GraphBuilder::add_arg(ArgKind kind, uint64_t payload) {
  s_.arg_kind.push_back(kind);
  s_.arg_payload.push_back(payload);
  return ArgId(static_cast<uint32_t>(s_.arg_kind.size() - 1));
}

ArgId GraphBuilder::node(NodeId n) { return add_arg(ArgKind::Node, n.value); }
ArgId GraphBuilder::integer(int64_t v) { return add_arg(ArgKind::Int, static_cast<uint64_t>(v)); }
ArgId GraphBuilder::floating(double v) { return add_arg(ArgKind::Float, std::bit_cast<uint64_t>(v)); }
ArgId GraphBuilder::boolean(bool v) { return add_arg(ArgKind::Bool, v ? 1 : 0); }
ArgId GraphBuilder::none() { return add_arg(ArgKind::None, 0); }
ArgId GraphBuilder::string(std::string_view s) { return add_arg(ArgKind::String, s_.strings.intern(s).value); }
ArgId GraphBuilder::dtype(DType d) { return add_arg(ArgKind::DType, static_cast<uint64_t>(d)); }

ArgId GraphBuilder::list(std::span<const ArgId> items) {
  const Span32 span{static_cast<uint32_t>(s_.arg_refs.size()), static_cast<uint32_t>(items.size())};
  s_.arg_refs.insert(s_.arg_refs.end(), items.begin(), items.end());
  return add_arg(ArgKind::List, pack_span(span));
}

NodeId GraphBuilder::add_node(NodeKind kind, std::string_view name, std::string_view target) {
  const NodeId n(s_.num_nodes());
  const StrId name_id = s_.strings.intern(name);
  s_.node_kind.push_back(kind);
  s_.node_name.push_back(name_id);
  s_.node_target.push_back(s_.strings.intern(target));
  s_.node_op.push_back(kind == NodeKind::CallFunction ? ops_.intern_op(target) : OpId());
  s_.node_args.push_back(Span32{});
  s_.node_kwargs.push_back(Span32{});
  s_.node_meta.push_back(Span32::kAbsent);
  if (s_.node_by_name.size() <= name_id.index()) s_.node_by_name.resize(name_id.index() + 1);
  if (!s_.node_by_name[name_id.index()].valid()) s_.node_by_name[name_id.index()] = n;
  return n;
}

NodeId GraphBuilder::placeholder(std::string_view name, DType dtype, uint32_t rank) {
  const NodeId n = add_node(NodeKind::Placeholder, name, name);
  s_.node_meta[n.index()] = static_cast<uint32_t>(s_.ph_node.size());
  s_.ph_node.push_back(n);
  s_.ph_dtype.push_back(dtype);
  s_.ph_rank.push_back(rank);
  s_.ph_has_range.push_back(0);
  s_.ph_range_lo.push_back(0);
  s_.ph_range_hi.push_back(0);
  s_.spec_of_ph.push_back(Span32{});  // not in a dynamic_shapes spec
  return n;
}

NodeId GraphBuilder::get_attr(std::string_view name, std::string_view target, DType dtype,
                              std::span<const int64_t> shape, std::span<const int64_t> stride) {
  const NodeId n = add_node(NodeKind::GetAttr, name, target);
  s_.node_meta[n.index()] = static_cast<uint32_t>(s_.attr_node.size());
  s_.attr_node.push_back(n);
  s_.attr_dtype.push_back(dtype);
  s_.attr_dims_first.push_back(static_cast<uint32_t>(s_.attr_ints.size()));
  s_.attr_rank.push_back(static_cast<uint32_t>(shape.size()));
  s_.attr_data.push_back(Span32{});
  s_.attr_ints.insert(s_.attr_ints.end(), shape.begin(), shape.end());
  if (!stride.empty()) {
    s_.attr_ints.insert(s_.attr_ints.end(), stride.begin(), stride.end());
  } else {
    const size_t first = s_.attr_ints.size();
    s_.attr_ints.resize(first + shape.size());
    int64_t running = 1;
    for (size_t i = shape.size(); i-- > 0;) {
      s_.attr_ints[first + i] = running;
      running *= shape[i] > 1 ? shape[i] : 1;
    }
  }
  return n;
}

NodeId GraphBuilder::get_attr_subgraph(std::string_view name, std::string_view target,
                                       std::shared_ptr<const Graph> body) {
  const NodeId n = add_node(NodeKind::GetAttr, name, target);
  s_.node_meta[n.index()] = GraphStore::kSubgraphMeta | static_cast<uint32_t>(s_.subgraph.size());
  s_.subgraph_node.push_back(n);
  s_.subgraph.push_back(std::move(body));
  return n;
}

NodeId GraphBuilder::call(std::string_view name, std::string_view target, std::span<const ArgId> args,
                          std::span<const KwargArg> kwargs) {
  const NodeId n = add_node(NodeKind::CallFunction, name, target);
  s_.node_args[n.index()] = Span32{static_cast<uint32_t>(s_.arg_refs.size()), static_cast<uint32_t>(args.size())};
  s_.arg_refs.insert(s_.arg_refs.end(), args.begin(), args.end());
  if (!kwargs.empty()) {
    s_.node_kwargs[n.index()] = Span32{static_cast<uint32_t>(s_.kwargs.size()), static_cast<uint32_t>(kwargs.size())};
    for (const auto& [key, value] : kwargs) s_.kwargs.push_back(Kwarg{ops_.intern_key(key), value});
  }
  return n;
}

NodeId GraphBuilder::output(ArgId result) {
  const NodeId n = add_node(NodeKind::Output, "output", "output");
  s_.node_args[n.index()] = Span32{static_cast<uint32_t>(s_.arg_refs.size()), 1};
  s_.arg_refs.push_back(result);
  if (!s_.output.valid()) s_.output = n;
  return n;
}

bool GraphBuilder::finish(Graph& out, Diagnostics& diags) {
  s_.derive();
  Graph g(ops_);
  g.mutable_store() = std::move(s_);
  s_ = GraphStore();
  s_.ops = &ops_;
  if (!validate_graph(g, "<GraphBuilder>", diags)) return false;
  out = std::move(g);
  return true;
}

}  // namespace symshape
