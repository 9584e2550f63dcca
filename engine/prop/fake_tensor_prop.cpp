#include "prop/fake_tensor_prop.h"

#include <fmt/format.h>

namespace symshape {

namespace {

// Python's type(x) of an FX argument, for AssertionError texts.
std::string_view python_type(ArgKind k) {
  switch (k) {
    case ArgKind::None: return "<class 'NoneType'>";
    case ArgKind::Node: return "<class 'torch.fx.node.Node'>";
    case ArgKind::Int: return "<class 'int'>";
    case ArgKind::Float: return "<class 'float'>";
    case ArgKind::Bool: return "<class 'bool'>";
    case ArgKind::String: return "<class 'str'>";
    case ArgKind::DType: return "<class 'torch.dtype'>";
    case ArgKind::Device: return "<class 'torch.device'>";
    case ArgKind::Layout: return "<class 'torch.layout'>";
    case ArgKind::MemoryFormat: return "<class 'torch.memory_format'>";
    case ArgKind::List: return "<class 'torch.fx.immutable_collections.immutable_list'>";
  }
  return "<class 'object'>";
}

}  // namespace

FakeTensorProp::FakeTensorProp(const Graph& graph, const RuleTable& rules, FakeMode& mode, bool record_meta)
    : graph_(graph), rules_(rules), mode_(mode), prop_(graph, rules), record_meta_(record_meta) {
  prop_.set_hooks(this);
}

FakeTensorProp::FakeTensorProp(const Graph& graph, const RuleTable& rules, FakeMode& mode)
    : FakeTensorProp(graph, rules, mode, true) {
  ++mode_.epoch;  // D.2: memoised data-dependent results of earlier runs are not reused
}

FakeTensorProp::~FakeTensorProp() = default;

PropStatus FakeTensorProp::propagate(std::span<const std::span<const int64_t>> example_sizes) {
  begin_run();
  prop_.set_input_policy(mode_.is_static() ? InputPolicy::Static : InputPolicy::Duck);
  return prop_.run(mode_.env(), example_sizes);
}

PropStatus FakeTensorProp::propagate_dont_convert_inputs(const ValueTable& src, std::span<const ValId> args) {
  begin_run();
  return prop_.run_given(mode_.env(), src, args);
}

void FakeTensorProp::begin_run() {
  const OpTable& ops = graph_.ops();
  for (uint32_t i = static_cast<uint32_t>(op_tags_.size()); i < ops.num_ops(); ++i)
    op_tags_.push_back(data_dependent_op(ops.op_name(OpId(i))));
  invoke_subgraph_op_ = ops.find_op(kInvokeSubgraphTarget);
  const uint32_t n = graph_.num_nodes();
  recorded_.clear();
  val_.assign(n, ValId());
  bindings_.clear();
  binding_span_.assign(n, Span32{});
  no_val_.assign(n, 0);
}

DataDependentOp FakeTensorProp::tag_of(NodeId n) const {
  const OpId op = graph_.node_op(n);
  return op.valid() && op.index() < op_tags_.size() ? op_tags_[op.index()] : DataDependentOp{};
}

std::span<const UnbackedBinding> FakeTensorProp::unbacked_bindings(NodeId n) const {
  if (n.index() >= binding_span_.size() || !binding_span_[n.index()].present()) return {};
  const Span32 s = binding_span_[n.index()];
  return {bindings_.data() + s.first, s.count};
}

std::string FakeTensorProp::unbacked_bindings_repr(NodeId n) const {
  return symshape::unbacked_bindings_repr(arena(), unbacked_bindings(n));
}

const FakeTensorProp* FakeTensorProp::subgraph_prop(std::string_view identifier) const {
  auto it = seen_subgraphs_.find(std::string(identifier));
  return it == seen_subgraphs_.end() ? nullptr : it->second.get();
}

// D.4: what the mode refuses before the op runs.
void FakeTensorProp::check_data_dependent(DataDependentOp op) const {
  switch (op.tag) {
    case DataDependentTag::None: return;
    case DataDependentTag::DynamicOutputShape:
      if (!mode_.dynamic_output_shapes_allowed()) throw_error(ErrorKind::DynamicOutputShape, std::string(op.raised_op));
      return;
    case DataDependentTag::ScalarOutput:
      if (!mode_.scalar_outputs_allowed()) throw_error(ErrorKind::DataDependentOutput, std::string(op.raised_op));
      return;
    case DataDependentTag::DataDependentOutput: throw_error(ErrorKind::DataDependentOutput, std::string(op.raised_op));
  }
}

ValId FakeTensorProp::before_call(NodeId n) {
  if (graph_.node_op(n) == invoke_subgraph_op_) return invoke_subgraph(n);
  check_data_dependent(tag_of(n));
  return ValId();
}

void FakeTensorProp::after_node(NodeId n) {
  ShapeEnv& env = mode_.env();
  const bool fresh = !env.pending_fresh_unbacked_symbols().empty();
  // An unbacked size the mode cannot have: the argument-dependent cases the tag table
  // leaves out (repeat_interleave without output_size, boolean-mask indexing). The
  // result is discarded, so are its symbols.
  if (fresh && !mode_.dynamic_output_shapes_allowed() && graph_.node_kind(n) == NodeKind::CallFunction &&
      tag_of(n).tag != DataDependentTag::ScalarOutput) {
    env.clear_pending_unbacked();
    throw_error(ErrorKind::DynamicOutputShape, std::string(graph_.node_target(n)));
  }
  if (!record_meta_ || no_val_[n.index()]) return;
  const ValId live = live_value(n);
  val_[n.index()] = record(live);
  if (mode_.shape_env() && fresh) {
    const uint32_t first = static_cast<uint32_t>(bindings_.size());
    compute_unbacked_bindings(env, prop_.values(), live, bindings_);
    binding_span_[n.index()] = Span32{first, static_cast<uint32_t>(bindings_.size()) - first};
  }
}

// D.3 step 4: tensors -> snapshots sharing the live storage, symbolic scalars kept, plain
// numbers and None -> None (invalid at the top level: no val).
ValId FakeTensorProp::record(ValId live) {
  const ValueTable& lv = prop_.values();
  const ExprArena& ar = arena();
  switch (lv.kind(live)) {
    case ValKind::None: return ValId();
    case ValKind::SymInt:
    case ValKind::SymBool:
    case ValKind::SymFloat: {
      const ExprId e = lv.as_expr(live);
      if (ar.is_number(e) || ar.is_bool_const(e)) return ValId();
      return recorded_.import(lv, live, nullptr);
    }
    case ValKind::Tensor: return recorded_.import(lv, live, nullptr);
    case ValKind::List: {
      recorded_.begin_list();
      for (ValId item : lv.items(live)) {
        const ValId r = record(item);
        recorded_.list_push(r.valid() ? r : recorded_.none());
      }
      return recorded_.end_list();
    }
  }
  return ValId();
}

ValId FakeTensorProp::run_subgraph(const Graph& body, FakeTensorProp& runner, const ValueTable& src,
                                   std::span<const ValId> args) {
  const PropStatus st = runner.propagate_dont_convert_inputs(src, args);
  if (!st.ok) throw_error(st.kind, st.message);
  std::vector<StorageId> storage_map;  // outputs get storages of this run
  return prop_.values().import(runner.values(), runner.live_value(body.output_node()), &storage_map);
}

// D.3 step 1.
ValId FakeTensorProp::invoke_subgraph(NodeId n) {
  const auto args = graph_.node_args(n);
  if (args.size() < 2)
    throw_error(ErrorKind::Assertion, "invoke_subgraph expects (subgraph, identifier, *operands)");
  if (graph_.arg_kind(args[1]) != ArgKind::String)
    throw_error(ErrorKind::Assertion, fmt::format("Expected str, got {}", python_type(graph_.arg_kind(args[1]))));
  const std::string identifier(graph_.arg_string(args[1]));
  const bool is_get_attr =
      graph_.arg_kind(args[0]) == ArgKind::Node && graph_.node_kind(graph_.arg_node(args[0])) == NodeKind::GetAttr;
  if (!is_get_attr) throw_error(ErrorKind::Assertion, "Expected n.args[0] to be a get_attr Node with str target");
  const NodeId attr = graph_.arg_node(args[0]);
  const Graph* body = graph_.subgraph_of(attr);
  if (!body)
    throw_error(ErrorKind::BadInput, fmt::format("get_attr {} ({}) is not a subgraph", graph_.node_name(attr),
                                                 graph_.node_target(attr)));
  if (&body->ops() != &graph_.ops())
    throw_error(ErrorKind::BadInput, "the subgraph does not share the graph's op table");
  const auto operands = args.subspan(2);
  std::vector<ValId> inputs;
  inputs.reserve(operands.size());

  if (record_meta_ && !seen_subgraphs_.count(identifier)) {
    // First call: propagate the subgraph with the operands' recorded vals; the subgraph's
    // nodes get the meta, this node gets none.
    for (ArgId a : operands) {
      if (graph_.arg_kind(a) != ArgKind::Node || !has_val(graph_.arg_node(a)))
        throw_error(ErrorKind::Assertion, "Expected Node with 'val' in meta");
      inputs.push_back(val(graph_.arg_node(a)));
    }
    auto& nested = seen_subgraphs_[identifier];  // seen from here on, even if it fails
    nested = std::make_unique<FakeTensorProp>(*body, rules_, mode_);
    no_val_[n.index()] = 1;
    return run_subgraph(*body, *nested, recorded_, inputs);
  }
  // Later calls: the subgraph runs as the op's implementation, on the live operands.
  for (ArgId a : operands) {
    if (graph_.arg_kind(a) != ArgKind::Node)
      throw_error(ErrorKind::Unsupported, "invoke_subgraph operands must be nodes");
    inputs.push_back(live_value(graph_.arg_node(a)));
  }
  FakeTensorProp runner(*body, rules_, mode_, false);
  return run_subgraph(*body, runner, prop_.values(), inputs);
}

}  // namespace symshape
