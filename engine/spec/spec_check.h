#pragma once
// Checking a graph's spec (after apply_spec, or its own) the way export does
// (semantics.md F.7-F.9): one accepted example is propagated, then produce_guards' constraint
// phases run over the ShapeEnv:
//   phase 0  a named dim that became a constant / an expression of unconstrained symbols,
//   phase 1  a named dim equal to, or a linear function of, another constrained dim,
//   phase 2  an undecided guard on one named dim's symbol (its text in the message),
//   phase 3  a spec range not inside the range the guards leave ("3 <= L['x'].size()[0] and
//            L['x'].size()[0] <= 16");
// every equality, guard and range bound also feeds DimConstraints (F.8), whose solution gives
// "Specializations unexpectedly required" and the "Suggested fixes:" block. Dim.DYNAMIC /
// Dim.AUTO hints are checked against the traced result as non-strict export does (F.9).
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "prop/rules.h"
#include "spec/dim.h"
#include "spec/dynamic_shapes.h"

namespace symshape::spec {

enum class ViolationKind : uint8_t { Specialized, Related, Guard, Narrowed };

struct Violation {
  ViolationKind kind;
  std::string dim;      // the Dim name (the header's debug name)
  std::string message;  // one message as export words it (without the "  - ")
  std::string cause;    // the guard or input equality that caused it, as Python text
  uint32_t placeholder = 0, axis = 0;  // the input size it reports (placeholder, dimension)
  std::string other;                   // Related: the Dim it must equal or derive from
};

// One F.9 conflict of a Dim.AUTO / Dim.DYNAMIC hint with the traced result.
struct HintConflict {
  uint32_t placeholder = 0, dim = 0;
  std::string message;  // "- Received user-specified ..."
};

// The range torch.export's program records for a named or derived Dim leaf (make_constraints),
// as a range of that size: `is_static` when the trace made it a constant.
struct ExportedRange {
  uint32_t placeholder = 0, axis = 0;
  bool is_static = false;
  int64_t lo = 0;             // the constant when is_static
  std::optional<int64_t> hi;  // nullopt: int_oo
};

struct SpecCheckResult {
  bool checked = false;   // false: no example propagated (error says why)
  std::string error;
  uint32_t example = 0;   // the example the check propagated
  std::vector<Violation> violations;
  std::vector<std::pair<std::string, int64_t>> forced;  // "dx = L['x'].size()[0]" -> 8
  std::string solver_error;  // DimConstraints' "The following inconsistencies were found:..."
  std::string fixes;         // prettify_results' text (forced specialisations + suggested fixes)
  // Beyond PyTorch: the same text from a solver that also keeps the facts export's drops (a
  // CleanDiv), plus a min for each single-symbol guard export's solver drops; empty when it
  // adds nothing. The corrected spec is built from it
  std::string fixes_beyond;
  std::vector<HintConflict> hint_conflicts;
  std::vector<ExportedRange> ranges;  // when ok(): every Dim leaf's exported range
  bool ok() const { return violations.empty() && forced.empty() && hint_conflicts.empty() && solver_error.empty(); }
};

// `spec` is the spec applied to `graph` (for hint kinds and Dim names); nullptr: the graph's
// own spec columns only (unnamed symbols count as Dim.AUTO).
SpecCheckResult check_spec(const Graph& graph, const RuleTable& rules, const DynamicShapes* spec = nullptr);
// The same check at given input sizes (one span per placeholder) instead of an example.
SpecCheckResult check_spec_at(const Graph& graph, const RuleTable& rules, const DynamicShapes* spec,
                              std::span<const std::span<const int64_t>> sizes);

// Export's report: "Constraints violated (...)! ...\n  - ..." followed by the fixes text, or
// the fixes text alone when only forced specialisations exist; "" when nothing is wrong.
std::string format_violations(const SpecCheckResult& r);
// symshape's own fixes where they go beyond export's ("symshape's fixes, beyond PyTorch's
// ...:" and the fix lines), printed after export's report; "" when they add nothing.
std::string format_beyond_pytorch_fixes(const SpecCheckResult& r);
// F.9's ValueError text ("Found the following conflicts ...:\n- Received ..."), or "".
std::string format_hint_conflicts(const SpecCheckResult& r);
// "x[2]": the input name and dimension an exported range is keyed by (`--json`, Python).
std::string exported_range_key(const Graph& graph, const ExportedRange& e);

// F.9 for one hinted dimension. `specialized_01`: the example size was 0/1 and the symbol was
// specialised at creation; `static_value`: tracing made it that constant; [lo, hi]: the traced
// range (hi nullopt = int_oo). Returns the message, or "" when the hint holds.
std::string hint_conflict(const DimHint& hint, const std::string& where, std::optional<int64_t> specialized_01,
                          std::optional<int64_t> static_value, int64_t lo, std::optional<int64_t> hi);

// The spec with the fixes applied: the "Suggested fixes:" block through
// refine_from_suggested_fixes, and each conflicting Dim.DYNAMIC hint replaced by Dim.AUTO
// (what the F.7 message advises). Returns `spec` unchanged when there is nothing to fix.
DynamicShapes corrected_spec(const Graph& graph, const DynamicShapes& spec, const SpecCheckResult& r);

}  // namespace symshape::spec
