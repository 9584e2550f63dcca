#pragma once
// The propagation driver (semantics.md D): runs a graph node by node on fake tensors
// over one ShapeEnv. Placeholders get symbolic sizes from one example's sizes (the
// hints) under an InputPolicy (by default the graph's dynamic_shapes spec: spec'd dims are
// DYNAMIC with the spec's min/max and names, every other dim is static, as in
// torch.export); get_attr weights are static; each call_function node dispatches through
// the RuleTable. FakeTensorProp (fake_tensor_prop.h) layers meta recording on top through
// NodeHooks.
#include <span>
#include <string>
#include <vector>

#include "core/error.h"
#include "graph/graph.h"
#include "prop/context.h"
#include "prop/rules.h"
#include "prop/values.h"
#include "shape_env/shape_env.h"

namespace symshape {

struct PropStatus {
  bool ok = true;
  ErrorKind kind = ErrorKind::Internal;
  NodeId node;          // the node that failed
  std::string message;  // "<node> (<target>): <error>"
};

// One input size the guards read: placeholder p's size/stride/offset at `dim`. A Constant
// source is a phantom root of derived dims (export's _PhantomRoot: a root Dim no input dim
// uses directly): no input holds it, its value is solved from the derived size at `dim` of
// `placeholder` as (size - add) // mul, and the guard `size == mul*root + add` checks it.
struct InputSource {
  SourceId source;
  uint32_t placeholder;
  SourceKind kind;  // Size, Stride, StorageOffset or Constant (a phantom root)
  uint32_t dim;
  int64_t mul = 1;  // Constant only
  int64_t add = 0;
};

// How placeholders are made fake from an example's sizes (inputs are contiguous, offset 0).
enum class InputPolicy : uint8_t {
  Spec,    // torch.export (the default): dims named in the graph's dynamic_shapes spec are
           // DYNAMIC with the spec's range and name, every other dim is static
  Duck,    // FakeTensorMode.from_tensor with a ShapeEnv: every dim DUCK (equal sizes share
           // a symbol; 0 and 1 specialised), strides INFER_STRIDE; the spec is ignored
  Static,  // a fake mode without ShapeEnv: every size, stride and offset is a constant
  Automatic,  // torch.compile's automatic dynamic shapes: the dims set in the dynamic mask
              // (set_dynamic_mask) are DYNAMIC (0 and 1 still specialised), the others static
};

// Per-node extension points for drivers layered on the Propagator (FakeTensorProp). The
// default run has none and pays one predictable branch per node for them.
class NodeHooks {
 public:
  // Before a call_function node dispatches: a valid ValId (in the Propagator's table)
  // replaces the op rule, e.g. for a higher-order op; invalid dispatches normally.
  virtual ValId before_call(NodeId n) = 0;
  // After node n got its value (every node kind). Both may throw an Error, which fails
  // the run at that node.
  virtual void after_node(NodeId n) = 0;

 protected:
  ~NodeHooks() = default;
};

class Propagator {
 public:
  Propagator(const Graph& graph, const RuleTable& rules)
      : graph_(graph), rules_(rules), eager_torch_(graph.producer_torch().named() ? graph.producer_torch() : kNewestTorch) {}

  void set_input_policy(InputPolicy policy) { policy_ = policy; }
  // For InputPolicy::Automatic: mask[p][d] != 0 makes dim d of placeholder p dynamic.
  void set_dynamic_mask(std::vector<std::vector<uint8_t>> mask) { dynamic_mask_ = std::move(mask); }
  void set_hooks(NodeHooks* hooks) { hooks_ = hooks; }
  // Eager's view of an input (InputPolicy::Static only): an example may give an input another
  // rank than the graph was traced with, and the ops then fail (or not) as eager's would.
  void set_any_input_rank(bool any) { any_input_rank_ = any; }
  // The reference process the rules reproduce (reference_host.h): kFakeTensorModeHost by
  // default; export-tracing drivers (spec check, `eval --policy export`) use kExportTracingHost.
  void set_reference_host(const ReferenceHost& host) { host_ = host; }
  const ReferenceHost& reference_host() const { return host_; }
  // Inference mode (engine/infer): failing size requirements are appended here and the run
  // continues; nullptr (the default) fails at the first one.
  void set_failed_checks(std::vector<FailedCheck>* log) { failed_checks_ = log; }
  const Graph& graph() const { return graph_; }

  // Propagates the whole graph with `input_sizes[p]` as the hints of placeholder p.
  // On failure, returns the failing node and message; the env holds what was learned.
  PropStatus run(ShapeEnv& env, std::span<const std::span<const int64_t>> input_sizes);
  // Propagates with placeholder p bound to value inputs[p] of `src`, taken as it is
  // (already fake, over the same ShapeEnv: propagate_dont_convert_inputs). Aliasing among
  // the inputs is kept; they get storages of this run's table. No input is tracked.
  PropStatus run_given(ShapeEnv& env, const ValueTable& src, std::span<const ValId> inputs);

  const ValueTable& values() const { return values_; }
  ValueTable& values() { return values_; }
  std::span<const ValId> node_values() const { return node_values_; }
  // Every tensor input property in traversal order (sizes, strides, offset per input).
  std::span<const TrackedInput> tracked_inputs() const { return tracked_; }
  std::span<const InputSource> input_sources() const { return input_sources_; }
  // The expression a spec Dim's symbol got in the last run (invalid if none): the root of
  // derived dims included (a phantom root too).
  ExprId spec_symbol(SymId s) const { return s.index() < spec_symbols_.size() ? spec_symbols_[s.index()] : ExprId(); }

 private:
  template <class PlaceFn>
  PropStatus run_nodes(ShapeEnv& env, PlaceFn&& place);
  void place_input(ShapeEnv& env, PlaceholderId p, std::span<const int64_t> sizes);
  void place_converted(ShapeEnv& env, PlaceholderId p, std::span<const int64_t> sizes);
  ExprId place_derived(ShapeEnv& env, PlaceholderId p, uint32_t d, int64_t size, SourceId size_source);
  ExprId derived_root(ShapeEnv& env, PlaceholderId p, uint32_t d, int64_t size);
  void check_input_sizes(PlaceholderId p, std::span<const int64_t> sizes) const;
  void add_input_tensor(ShapeEnv& env, PlaceholderId p, SourceId tensor_source,
                        const ShapeEnv::SymbolicTensorMeta& meta);
  void place_attr(ShapeEnv& env, NodeId n);
  ValId build_output(ExprArena& ar, ArgId a);

  const Graph& graph_;
  const RuleTable& rules_;
  InputPolicy policy_ = InputPolicy::Spec;
  std::vector<std::vector<uint8_t>> dynamic_mask_;
  NodeHooks* hooks_ = nullptr;
  bool any_input_rank_ = false;
  ReferenceHost host_ = kFakeTensorModeHost;
  TorchVersion eager_torch_;  // ReferenceHost::eager_torch: the graph's producer
  std::vector<FailedCheck>* failed_checks_ = nullptr;
  ValueTable values_;
  std::vector<ValId> node_values_;
  LayoutCache layout_cache_;  // PropContext's layout answers; capacity kept across runs
  // Per node: an aten op, dispatched through FakeTensorMode's cache (fake_dispatch_cache.h),
  // and whether it is a view op; filled on the first run (the graph is immutable)
  static constexpr uint8_t kFakeDispatched = 1, kFakeView = 2;
  std::vector<uint8_t> fake_dispatch_;
  std::vector<TrackedInput> tracked_;
  std::vector<InputSource> input_sources_;
  std::vector<ExprId> spec_symbols_;  // by SymId: the symbol made for a spec dim name
  std::span<const std::span<const int64_t>> run_sizes_;  // run(): every input's sizes
  uint32_t phantoms_ = 0;  // phantom roots tracked so far (first in tracked_, as PyTorch)
};

// Concrete contiguous strides of concrete sizes (inputs are created contiguous).
void contiguous_int_strides(std::span<const int64_t> sizes, std::vector<int64_t>& out);

}  // namespace symshape
