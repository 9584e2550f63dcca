#pragma once
// The constraint solver of `symshape infer` (semantics.md E.6 step 3): unknowns are input
// dimensions; predicates are the failed size checks of inference traces, each a function of
// the unknowns' values. Equalities between two unknowns unify them (union-find); every other
// predicate is solved for its highest-ordered unknown with the lower ones already fixed, in
// ascending order: an equality linear in that unknown fixes it, divisibility facts linear in
// it combine by CRT into one congruence, and the value nearest the example that satisfies
// all of them (ranges from Le included) is searched on that congruence's lattice. An empty
// domain is unsatisfiable: the minimal conflicting predicates are found by deletion.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace symshape::infer {

enum class PredicateKind : uint8_t { Eq, Divides, Le, SumEq, Other };
const char* predicate_kind_name(PredicateKind k);

// A value of the unknowns in, a number out; nullopt when undefined (overflow, division by 0).
using UnknownFn = std::function<std::optional<int64_t>(std::span<const int64_t> values)>;

struct SolverPredicate {
  PredicateKind kind = PredicateKind::Other;
  std::vector<uint32_t> unknowns;  // the unknowns it reads
  UnknownFn holds;                 // 1 when the check passes, 0 when it fails
  UnknownFn difference;            // Eq / SumEq: lhs - rhs (exact solving), may be empty
  UnknownFn dividend, divisor;     // Divides: divisor | dividend, may be empty
  // An equality of two unknowns (`a == b`): unified rather than solved.
  std::optional<std::pair<uint32_t, uint32_t>> unify;
};

// x ≡ residue (mod modulus); modulus 1 = any integer.
struct Congruence {
  int64_t residue = 0, modulus = 1;
};
// Generalised CRT (moduli need not be coprime); nullopt when the two are incompatible.
std::optional<Congruence> combine(Congruence a, Congruence b);
// The x with a*x + b ≡ 0 (mod m), as one congruence; nullopt when none.
std::optional<Congruence> linear_congruence(int64_t a, int64_t b, int64_t m);

struct SolveResult {
  bool ok = false;
  std::vector<int64_t> values;      // by unknown
  std::vector<uint32_t> conflict;   // !ok: indices of the minimal conflicting predicates
};

struct SolverOptions {
  int64_t min_value = 1;                   // E.6: each unknown's domain starts at >= 1
  int64_t max_value = int64_t(1) << 40;
  uint32_t max_candidates = 1u << 20;      // values tried per unknown before giving up
};

// `example`: one value per unknown, the values to stay nearest to.
SolveResult solve(std::span<const int64_t> example, std::span<const SolverPredicate> preds,
                  const SolverOptions& options = {});

}  // namespace symshape::infer
