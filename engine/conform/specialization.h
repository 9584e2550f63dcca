#pragma once
// Specialisations, like torch.compile's recompiles: a propagation with one example's
// sizes as hints, kept with its ShapeEnv, node values and produced guards. A later
// example whose sizes satisfy the guards reuses it; otherwise the graph is propagated
// again with that example's sizes and a new specialisation is added.
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "expr/evaluate.h"
#include "graph/graph.h"
#include "prop/propagate.h"
#include "shape_env/shape_env.h"

namespace symshape {

struct Specialization {
  std::unique_ptr<ShapeEnv> env;
  std::unique_ptr<Propagator> prop;
  ShapeEnv::ProducedGuards guards;
  uint32_t first_example = 0;  // the example whose sizes were the hints
};

// Concrete value of one input source for an example (size/stride/offset), or nullopt if
// the example does not have that dim.
std::optional<int64_t> input_source_value(const InputSource& src, std::span<const std::span<const int64_t>> sizes);

// PyTorch 2.x's exported-program input check (torch/_export/utils.py,
// _check_input_constraints_for_graph) of `sizes` against the graph's spec: the first
// failure as its RuntimeError text ("Expected input at *args[0].shape[2] to be >= 32, but
// got 16"), nullopt when the inputs pass. `every_bound` also checks what that check lets
// through (lower bounds up to 2, "we allow dimensions to be 0/1 at runtime", and the ranges
// of derived dims), in the same wording. `input`, when given, is set to the failing input.
std::optional<std::string> exported_input_check(const Graph& graph, std::span<const std::span<const int64_t>> sizes,
                                                bool every_bound = false, uint32_t* input = nullptr);

// A rejection's message at the example's own numbers (docs/torchref.md, "Rejection
// messages"): when a symbolic run under `policy` failed with a shape error or a spec
// violation, the graph is run again with every size static; the op that fails there, in
// PyTorch's words, becomes the status (node and message), followed under the spec policy by
// the exported program's input check when that fails too, and by the symbolic message as
// context. An example that runs at its own sizes but is outside the spec gets the exported
// program's input-check text first.
void concrete_rejection(const Graph& graph, const RuleTable& rules, const ShapeEnvSettings& settings,
                        const ReferenceHost& host, InputPolicy policy, std::span<const std::span<const int64_t>> sizes,
                        PropStatus& status);

class SpecializationCache {
 public:
  SpecializationCache(const Graph& graph, const RuleTable& rules, ShapeEnvSettings settings = {});

  // How later add()s make the inputs fake (default: the graph's spec, as torch.export).
  void set_input_policy(InputPolicy policy, std::vector<std::vector<uint8_t>> dynamic_mask = {}) {
    policy_ = policy;
    dynamic_mask_ = std::move(dynamic_mask);
  }

  // The reference process later add()s propagate for (prop/reference_host.h). Default:
  // torch.export's (kExportTracingHost), as the default input policy; the compile policy's
  // stream uses kFakeTensorModeHost (dynamo traces with the backend flags as they are).
  void set_reference_host(const ReferenceHost& host) { host_ = host; }

  // Index of an existing specialisation whose guards accept `sizes`, if any.
  std::optional<uint32_t> find(std::span<const std::span<const int64_t>> sizes);
  // Propagates with `sizes` as hints; on success appends a specialisation and returns its
  // index, otherwise returns the failure (the env is discarded).
  std::optional<uint32_t> add(std::span<const std::span<const int64_t>> sizes, uint32_t example, PropStatus& status);

  // Bindings of the specialisation's bound symbols for `sizes` (the guards' inputs).
  bool bind(const Specialization& s, std::span<const std::span<const int64_t>> sizes, Bindings& out) const;

  Specialization& at(uint32_t i) { return specs_[i]; }
  size_t size() const { return specs_.size(); }

 private:
  bool accepts(const Specialization& s, std::span<const std::span<const int64_t>> sizes) const;

  const Graph& graph_;
  const RuleTable& rules_;
  ShapeEnvSettings settings_;
  InputPolicy policy_ = InputPolicy::Spec;
  ReferenceHost host_ = kExportTracingHost;
  std::vector<std::vector<uint8_t>> dynamic_mask_;
  std::vector<Specialization> specs_;
};

}  // namespace symshape
