#pragma once
// Shape inference with constraints as data (semantics.md E.6; `symshape infer`): from input
// sizes that need not be valid, find the nearest valid sizes and the most general spec.
//
// Each round traces the graph in inference mode (every input dimension its own DYNAMIC
// symbol, no 0/1 specialisation, no duck sizing; PropContext records every failing size
// requirement with its node and continues), turns each recorded check into a typed predicate
// over the unknowns (Eq, Divides, Le, SumEq), and re-solves all predicates learned so far
// from the original sizes (solver.h). It stops when a trace fails no check (valid), when the
// predicates conflict (the minimal conflicting checks are named), when a trace fails in a way
// that is not a size requirement, or when the trace budget is spent (E.2's 2n by default).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "infer/solver.h"
#include "infer/unknowns.h"
#include "prop/rules.h"
#include "spec/dynamic_shapes.h"

namespace symshape::infer {

struct Constraint {
  PredicateKind kind = PredicateKind::Other;
  std::string node;  // the node whose check imposed it
  std::string text;  // the requirement over input sizes, e.g. "L['x'].size()[1] == 1773"
  uint32_t trace = 0;  // the round that found it (0-based)
  // Set aside after a conflict and not failing again: learned under another trace's
  // branches, not a requirement of the valid sizes.
  bool set_aside = false;
};

enum class InferStatus : uint8_t {
  Valid,            // `sizes` propagate; `spec` is the most general spec found
  Unsatisfiable,    // `conflict` names the checks that cannot hold together
  NotASizeCheck,    // a trace failed otherwise (`error`): nothing to learn from it
  BudgetExhausted,  // E.2's "return None": still failing after `budget` traces
};
const char* infer_status_name(InferStatus s);

struct InferOptions {
  bool shared_batch = false;  // dim 0 of every input is one unknown (E.2's assumption)
  uint32_t max_traces = 0;    // 0: the layout's default budget (2n), at least 2
  bool derive_spec = true;
};

struct InferResult {
  InferStatus status = InferStatus::BudgetExhausted;
  uint32_t unknowns = 0, budget = 0, traces = 0;
  std::vector<std::vector<int64_t>> sizes;  // per input: valid sizes (the last tried otherwise)
  std::vector<Constraint> constraints;      // every check learned, in discovery order
  std::vector<uint32_t> conflict;           // Unsatisfiable: indices into constraints
  std::string error;                        // NotASizeCheck: the failure
  // Valid (and derive_spec): the most general spec export accepts (spec check clean at the
  // sizes), and the wider region where the graph propagates at concrete sizes (eager).
  std::optional<spec::DynamicShapes> spec;
  std::string spec_note;  // how the spec was checked and narrowed, or why it is missing
  std::optional<spec::DynamicShapes> validity;
  std::string validity_note;  // what validity is, and whether it equals the spec
};

// `sizes`: one span per placeholder. Throws Error(BadInput) for a rank mismatch or a negative
// size, naming the input.
InferResult infer_shapes(const Graph& graph, const RuleTable& rules, std::span<const std::span<const int64_t>> sizes,
                         const InferOptions& options = {});

struct DerivedSpecs {
  std::optional<spec::DynamicShapes> spec, validity;
  std::string spec_note, validity_note;
};
// The specs around valid `sizes` (spec_derive.cpp): every dimension a named Dim (min 2),
// except those that must stay 0/1, spec check's corrected spec, then each Dim widened to
// where the graph propagates at concrete sizes (validity); that narrowed by spec check's
// fixes to a fixed point (narrow_to_export) is the spec.
DerivedSpecs derive_spec(const Graph& graph, const RuleTable& rules, std::span<const std::span<const int64_t>> sizes);

struct ExportSpec {
  std::optional<spec::DynamicShapes> spec;  // nullopt: none found (note says why)
  std::string note;
};
// `validity` narrowed until `spec check` at `sizes` reports nothing (export_spec.cpp): its
// corrected spec applied to a fixed point, each step still admitting `sizes`; a Dim whose
// violation no fix decides (or whose fix would exclude `sizes`) becomes static there.
ExportSpec narrow_to_export(const Graph& graph, const RuleTable& rules, const spec::DynamicShapes& validity,
                            std::span<const std::span<const int64_t>> sizes);
// Each size of `exported` that is a Dim in `validity` (spec check's fixes pinned it) gets
// that Dim back, ranged as widely around `sizes` as spec check at `sizes` still accepts
// (export_widen.cpp). The result checks clean when `exported` did.
spec::DynamicShapes widen_pinned_sizes(const Graph& graph, const RuleTable& rules, const spec::DynamicShapes& exported,
                                       const spec::DynamicShapes& validity, std::span<const std::span<const int64_t>> sizes);

// The example to start from when none is given (start_example.cpp): the first PyTorch
// accepted whose dynamic sizes are all >= 2 (the one export would trace and `spec check`
// picks first), otherwise the first accepted; nullopt when none was accepted.
std::optional<uint32_t> default_start_example(const Graph& graph);

// Whether input sizes fit a spec: ranks, static sizes, one value per Dim name, Dim ranges and
// derived dims. `exempt_01`: dims of size 0 or 1 are not checked (0/1 specialisation aside).
// `why` (optional) receives the first reason it does not.
bool spec_admits(const Graph& graph, const spec::DynamicShapes& spec, std::span<const std::span<const int64_t>> sizes,
                 bool exempt_01, std::string* why = nullptr);

}  // namespace symshape::infer
