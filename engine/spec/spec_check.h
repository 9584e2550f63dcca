#pragma once
// Checking a graph's spec (after apply_spec, or its own) against what propagation learns
// from one accepted example (semantics.md F.7): a named dim the graph specialises to a
// constant, a named dim the graph relates to another (to be written as the same Dim or a
// derived dim), and a range the graph narrows; each with its suggested fix in PyTorch's
// "Suggested fixes:" form.
#include <optional>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "prop/rules.h"

namespace symshape::spec {

enum class ViolationKind : uint8_t { Specialized, Related, Narrowed };

struct Violation {
  ViolationKind kind;
  std::string dim;      // the spec dim name
  std::string message;  // one line, as export words it
  std::string fix;      // "dx = 8", "dy = dx", "dx = Dim('dx', min=3, max=16)"
  int64_t fixed_min = 0;              // Narrowed: the range the graph accepts
  std::optional<int64_t> fixed_max;
};

struct SpecCheckResult {
  bool checked = false;   // false: no example propagated (error says why)
  std::string error;
  uint32_t example = 0;   // the example the check propagated
  std::vector<Violation> violations;
};

SpecCheckResult check_spec(const Graph& graph, const RuleTable& rules);
// PyTorch's report text: "Constraints violated (...)! ...\n\nSuggested fixes:\n  dx = ...".
std::string format_violations(const SpecCheckResult& r);

}  // namespace symshape::spec
