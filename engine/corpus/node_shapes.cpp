#include "corpus/node_shapes.h"

#include "expr/printer.h"

namespace symshape {
namespace {

std::string value_text(const ValueTable& vals, const ExprArena& ar, ValId v) {
  if (!v.valid()) return "";
  switch (vals.kind(v)) {
    case ValKind::None: return "None";
    case ValKind::Tensor: {
      const TensorId t = vals.as_tensor(v);
      std::string s = std::string(dtype_name(vals.dtype(t))) + "[";
      auto sizes = vals.sizes(t);
      for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + to_str(ar, sizes[i]);
      return s + "]";
    }
    case ValKind::SymInt:
    case ValKind::SymBool:
    case ValKind::SymFloat: return to_str(ar, vals.as_expr(v));
    case ValKind::List: {
      std::string s = "(";
      auto items = vals.items(v);
      for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + value_text(vals, ar, items[i]);
      return s + ")";
    }
  }
  return "";
}

ResultValueKind result_kind(ValKind k) {
  switch (k) {
    case ValKind::Tensor: return ResultValueKind::Tensor;
    case ValKind::SymInt: return ResultValueKind::Int;
    case ValKind::SymBool: return ResultValueKind::Bool;
    case ValKind::SymFloat: return ResultValueKind::Float;
    case ValKind::None: return ResultValueKind::None;
    case ValKind::List: return ResultValueKind::List;
  }
  return ResultValueKind::Other;
}

void collect_refs(const Graph& g, ArgId a, std::vector<NodeId>& out) {
  if (!a.valid()) return;
  if (g.arg_kind(a) == ArgKind::Node) out.push_back(g.arg_node(a));
  else if (g.arg_kind(a) == ArgKind::List)
    for (ArgId item : g.list_items(a)) collect_refs(g, item, out);
}

}  // namespace

NodeShapeResult node_shape_result(const Graph& g, const Propagator& prop, const ExprArena& ar, NodeId n) {
  NodeShapeResult r;
  r.node = n.index();
  r.name = std::string(g.node_name(n));
  const ValId v = n.index() < prop.node_values().size() ? prop.node_values()[n.index()] : ValId();
  if (!v.valid()) {
    r.kind = ResultValueKind::Other;
    return r;
  }
  const ValueTable& vals = prop.values();
  r.kind = result_kind(vals.kind(v));
  if (r.kind != ResultValueKind::Tensor) {
    r.text = value_text(vals, ar, v);
    return r;
  }
  const TensorId t = vals.as_tensor(v);
  r.dtype = vals.dtype(t);
  for (ExprId e : vals.sizes(t)) r.shape.push_back(to_str(ar, e));
  for (ExprId e : vals.strides(t)) r.stride.push_back(to_str(ar, e));
  return r;
}

std::vector<NodeShapeResult> output_shapes(const Graph& g, const Propagator& prop, const ExprArena& ar) {
  std::vector<NodeId> refs;
  if (g.output_node().valid()) collect_refs(g, g.output_arg(), refs);
  std::vector<NodeShapeResult> out;
  out.reserve(refs.size());
  for (NodeId n : refs) out.push_back(node_shape_result(g, prop, ar, n));
  return out;
}

}  // namespace symshape
