// range_monotone_relations: a relation between a monotone function of one size and a
// constant becomes a range check on the size itself.
//
// Most traced guards are of the form `(1 + ((-1 + W) // 4)) != 1`: a chain of Add/Sub of a
// constant, multiplication by a constant, negation, floor division by a positive constant
// and Min/Max with a constant over one loaded size, compared with a constant. Every such
// step is monotone, so over the sizes where no step overflows (an interval: the preimage of
// an interval under a monotone map) the set of sizes that satisfy the relation is an
// interval too (or, for !=, the complement of one). Both intervals are found at compile
// time by binary search with exact scalar evaluation of the chain, and the kernels check
// the size against them: two compares instead of the chain's additions, divisions and
// overflow checks. A size outside the no-overflow interval is poisoned, exactly as the
// chain would have poisoned it.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "batch/guard_program_passes.h"

namespace symshape {
namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

struct Interval {
  int64_t lo = 1, hi = 0;  // empty when lo > hi
  bool empty() const { return lo > hi; }
};

// lo + (hi - lo) / 2 without overflow (lo <= hi)
int64_t midpoint(int64_t lo, int64_t hi) { return int64_t(uint64_t(lo) + (uint64_t(hi) - uint64_t(lo)) / 2); }

// The x in `d` where `pred` holds, for a predicate monotone over `d` (false then true, or
// true then false).
template <class Pred>
Interval monotone_true_set(Interval d, Pred pred) {
  if (d.empty()) return d;
  const bool at_lo = pred(d.lo), at_hi = pred(d.hi);
  if (at_lo && at_hi) return d;
  if (!at_lo && !at_hi) return Interval{};
  int64_t f = d.lo, t = d.hi;  // pred(f) != pred(t): find the boundary
  while (uint64_t(t) - uint64_t(f) > 1) {
    const int64_t m = midpoint(f, t);
    (pred(m) == at_lo ? f : t) = m;
  }
  return at_lo ? Interval{d.lo, f} : Interval{t, d.hi};
}

// One step of a chain: its input values that do not overflow, and its exact value there.
struct Step {
  GuardOp op;
  int64_t imm;
  Interval safe_input() const {
    switch (op) {
      case GuardOp::Add: return imm < 0 ? Interval{kMin - imm, kMax} : Interval{kMin, kMax - imm};
      case GuardOp::Sub: return imm > 0 ? Interval{kMin + imm, kMax} : Interval{kMin, kMax + imm};
      case GuardOp::Neg: return {kMin + 1, kMax};
      case GuardOp::MulConst:  // the same bounds as the kernels' overflow check
        if (imm > 0) return {kMin / imm, kMax / imm};
        if (imm < -1) return {kMax / imm, kMin / imm};
        if (imm == -1) return {-kMax, kMax};
        return {kMin, kMax};
      default: return {kMin, kMax};  // FloorDivConst, Min, Max never overflow
    }
  }
  int64_t apply(int64_t y) const {  // y inside safe_input()
    switch (op) {
      case GuardOp::Add: return y + imm;
      case GuardOp::Sub: return y - imm;
      case GuardOp::Neg: return -y;
      case GuardOp::MulConst: return y * imm;
      case GuardOp::FloorDivConst: return y >= 0 ? y / imm : ~(~y / imm);
      case GuardOp::Min: return y < imm ? y : imm;
      default: return y < imm ? imm : y;  // Max
    }
  }
};

// The chain of monotone one-operand steps that computes register r from a loaded size:
// steps in evaluation order, and the LoadSize register. nullopt: r is not such a chain.
std::optional<uint32_t> monotone_chain(const GuardProgram& p, uint32_t r, std::vector<Step>& steps) {
  steps.clear();
  for (;;) {
    const GuardOp op = p.op[r];
    const bool imm_b = p.flags[r] & guard_flag::kImmB;
    if (op == GuardOp::LoadSize) break;
    const bool unary_imm = (op == GuardOp::Add || op == GuardOp::Sub || op == GuardOp::Min || op == GuardOp::Max) && imm_b;
    const bool positive_div = op == GuardOp::FloorDivConst && p.imm[r] > 0;
    if (!unary_imm && !positive_div && op != GuardOp::Neg && op != GuardOp::MulConst) return std::nullopt;
    steps.push_back(Step{op, p.imm[r]});
    r = p.a[r];
  }
  std::reverse(steps.begin(), steps.end());
  return r;
}

}  // namespace

void range_monotone_relations(GuardProgram& p) {
  std::vector<Step> steps;
  for (size_t i = 0; i < p.op.size(); ++i) {
    if (!is_comparison(p.op[i]) || !(p.flags[i] & guard_flag::kImmB)) continue;
    const std::optional<uint32_t> size_reg = monotone_chain(p, p.a[i], steps);
    // a relation of the size itself is already one compare
    if (!size_reg || steps.empty()) continue;
    // the sizes where no step overflows, and the chain's value there
    Interval safe{kMin, kMax};
    auto value_after = [&](size_t nsteps, int64_t x) {
      for (size_t k = 0; k < nsteps; ++k) x = steps[k].apply(x);
      return x;
    };
    for (size_t k = 0; k < steps.size() && !safe.empty(); ++k) {
      const Interval in = steps[k].safe_input();
      const Interval above = monotone_true_set(safe, [&](int64_t x) { return value_after(k, x) >= in.lo; });
      safe = monotone_true_set(above, [&](int64_t x) { return value_after(k, x) <= in.hi; });
    }
    const int64_t c = p.imm[i];
    auto chain = [&](int64_t x) { return value_after(steps.size(), x); };
    GuardRange range{};
    range.safe_lo = safe.lo;
    range.safe_hi = safe.hi;
    Interval pass;
    switch (p.op[i]) {
      case GuardOp::Lt: pass = monotone_true_set(safe, [&](int64_t x) { return chain(x) < c; }); break;
      case GuardOp::Le: pass = monotone_true_set(safe, [&](int64_t x) { return chain(x) <= c; }); break;
      case GuardOp::Gt: pass = monotone_true_set(safe, [&](int64_t x) { return chain(x) > c; }); break;
      case GuardOp::Ge: pass = monotone_true_set(safe, [&](int64_t x) { return chain(x) >= c; }); break;
      default:  // Eq, Ne: {chain >= c} ∩ {chain <= c}, negated for Ne
        pass = monotone_true_set(monotone_true_set(safe, [&](int64_t x) { return chain(x) >= c; }),
                                 [&](int64_t x) { return chain(x) <= c; });
        range.negate = p.op[i] == GuardOp::Ne;
        break;
    }
    if (pass.empty()) pass = Interval{1, 0};
    range.pass_lo = pass.lo;
    range.pass_hi = pass.hi;
    p.ranges.push_back(range);
    p.op[i] = GuardOp::InRange;
    p.a[i] = *size_reg;
    p.b[i] = 0;
    p.imm[i] = int64_t(p.ranges.size() - 1);
    p.flags[i] = uint8_t(p.flags[i] & ~guard_flag::kImmB);
  }
}

}  // namespace symshape
