#pragma once
// FakeTensorProp (semantics.md D): runs a graph on fake tensors under a FakeMode and
// records, per node, what PyTorch stores in node.meta:
//   - meta['val'] (D.3 step 4): the node's result with tensors snapshotted (same storage
//     as the live value, so aliasing is visible by StorageId), symbolic
//     SymInt/SymBool/SymFloat kept and plain numbers / None mapped to None; a node whose
//     mapped result is None has no val.
//   - meta['unbacked_bindings'] (D.3 step 5): where each fresh unbacked symbol of the
//     node can be read back from its result.
// invoke_subgraph (D.3 step 1): the first call of an identifier propagates the subgraph
// (a nested FakeTensorProp whose nodes get the meta) and its outer node gets no val;
// later calls run the subgraph as a plain op and record a val.
//
// The propagation itself is the Propagator's; this driver adds an input policy (DUCK
// symbols or static sizes instead of the export spec) and NodeHooks, so the default
// export path is untouched.
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "graph/graph.h"
#include "prop/data_dependent_tags.h"
#include "prop/fake_mode.h"
#include "prop/propagate.h"
#include "prop/unbacked_bindings.h"

namespace symshape {

// torch.ops.higher_order.invoke_subgraph(subgraph, identifier, *operands)
inline constexpr std::string_view kInvokeSubgraphTarget = "torch.ops.higher_order.invoke_subgraph";

class FakeTensorProp final : private NodeHooks {
 public:
  // Increments mode.epoch (D.2). `rules` must be resolved against the graph's OpTable,
  // which its subgraphs share.
  FakeTensorProp(const Graph& graph, const RuleTable& rules, FakeMode& mode);
  FakeTensorProp(const FakeTensorProp&) = delete;
  FakeTensorProp& operator=(const FakeTensorProp&) = delete;
  ~FakeTensorProp();

  // propagate(*args): placeholder p is a contiguous tensor of sizes example_sizes[p],
  // converted like mode.from_tensor (DUCK sizes, INFER_STRIDE strides, 0/1 specialised
  // with a ShapeEnv; concrete sizes without).
  PropStatus propagate(std::span<const std::span<const int64_t>> example_sizes);
  // propagate_dont_convert_inputs(*args): placeholder p is value args[p] of `src`, already
  // fake under this mode.
  PropStatus propagate_dont_convert_inputs(const ValueTable& src, std::span<const ValId> args);

  // ---- recorded meta -------------------------------------------------------------------
  // meta['val'], a value of recorded_values(); invalid when the node has no val.
  ValId val(NodeId n) const { return n.index() < val_.size() ? val_[n.index()] : ValId(); }
  bool has_val(NodeId n) const { return val(n).valid(); }
  const ValueTable& recorded_values() const { return recorded_; }
  // meta['unbacked_bindings'], empty when the node has none.
  std::span<const UnbackedBinding> unbacked_bindings(NodeId n) const;
  std::string unbacked_bindings_repr(NodeId n) const;  // "{u0: (CallMethodKey(name='size'), ...)}"

  // ---- what downstream nodes saw ---------------------------------------------------------
  const ValueTable& values() const { return prop_.values(); }
  ValId live_value(NodeId n) const { return prop_.node_values()[n.index()]; }
  const Graph& graph() const { return graph_; }
  FakeMode& mode() const { return mode_; }
  ExprArena& arena() const { return mode_.env().arena(); }
  // The nested propagation the first invoke_subgraph of `identifier` ran (its nodes carry
  // the subgraph's meta), or null.
  const FakeTensorProp* subgraph_prop(std::string_view identifier) const;

 private:
  // record_meta = false: a plain run of a subgraph for a later invoke_subgraph call (no
  // meta, no epoch bump, fresh unbacked symbols left for the calling node to bind).
  FakeTensorProp(const Graph& graph, const RuleTable& rules, FakeMode& mode, bool record_meta);

  ValId before_call(NodeId n) override;
  void after_node(NodeId n) override;
  void begin_run();
  void check_data_dependent(DataDependentOp op) const;
  ValId invoke_subgraph(NodeId n);
  ValId run_subgraph(const Graph& body, FakeTensorProp& runner, const ValueTable& src, std::span<const ValId> args);
  DataDependentOp tag_of(NodeId n) const;
  ValId record(ValId live);

  const Graph& graph_;
  const RuleTable& rules_;
  FakeMode& mode_;
  Propagator prop_;
  const bool record_meta_;

  std::vector<DataDependentOp> op_tags_;  // by OpId, resolved lazily
  OpId invoke_subgraph_op_;
  ValueTable recorded_;                   // meta['val'] snapshots
  std::vector<ValId> val_;                // by NodeId
  std::vector<UnbackedBinding> bindings_;
  std::vector<Span32> binding_span_;      // by NodeId, into bindings_
  std::vector<uint8_t> no_val_;           // by NodeId: first invoke_subgraph call sites
  std::unordered_map<std::string, std::unique_ptr<FakeTensorProp>> seen_subgraphs_;
};

}  // namespace symshape
