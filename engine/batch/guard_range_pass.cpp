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
//
// A relation between two such chains over the *same* size (ceil-mode pooling emits
// `2*((-1 + ((-1 + H)//2))//2) < 1 + ((-1 + H)//2)` for every pooling layer) is not monotone,
// but without Min/Max steps each chain is periodic-affine: with P a multiple of the product
// of its divisors, f(x + P) = f(x) + s*P for an integer s*P (floor((y + m*d)/d) =
// floor(y/d) + m). So along each residue class x = k*P + r the difference f - g is affine in
// k, and the relation holds on an interval of k found by the same binary search. When the
// union over the residues is one interval of x (checked residue by residue) the relation
// becomes the same range check; otherwise it is left as it is.
//
// Last, `2 <= L['idx'].size()[1] and L['idx'].size()[1] <= 64` (a dim's range from the
// spec): an And of two such checks of one size that can never be poisoned (a size compared
// with a constant, or a range check whose chain cannot overflow) is one range check on
// their intersection.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
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

// The first n steps applied to x (x inside the chain's safe interval).
int64_t value_after(const std::vector<Step>& steps, size_t n, int64_t x) {
  for (size_t k = 0; k < n; ++k) x = steps[k].apply(x);
  return x;
}

// The sizes where no step of the chain overflows: an interval, since each step's safe
// inputs are an interval and the steps before it are monotone.
Interval safe_interval(const std::vector<Step>& steps) {
  Interval safe{kMin, kMax};
  for (size_t k = 0; k < steps.size() && !safe.empty(); ++k) {
    const Interval in = steps[k].safe_input();
    const Interval above = monotone_true_set(safe, [&](int64_t x) { return value_after(steps, k, x) >= in.lo; });
    safe = monotone_true_set(above, [&](int64_t x) { return value_after(steps, k, x) <= in.hi; });
  }
  return safe;
}

__extension__ typedef __int128 i128;

// Residue classes tried for a two-chain relation: compile time grows with the period.
constexpr uint64_t kMaxPeriod = 256;

// The period after which a chain without Min/Max repeats up to a constant shift (the
// product of its divisors), or 0 when it has a Min/Max step or the product exceeds kMaxPeriod.
uint64_t affine_period(const std::vector<Step>& steps) {
  uint64_t period = 1;
  for (const Step& s : steps) {
    if (s.op == GuardOp::Min || s.op == GuardOp::Max) return 0;
    if (s.op != GuardOp::FloorDivConst) continue;
    if (uint64_t(s.imm) > kMaxPeriod) return 0;
    period *= uint64_t(s.imm);
    if (period > kMaxPeriod) return 0;
  }
  return period;
}

// floor(a / b) and ceil(a / b) for b > 0; with a an int64 value (or an int64 minus a
// residue) the quotient fits int64 again.
i128 floor_div_i128(i128 a, i128 b) {
  i128 q = a / b;
  if (a % b != 0 && a < 0) --q;
  return q;
}
i128 ceil_div_i128(i128 a, i128 b) { return -floor_div_i128(-a, b); }

// The x in `safe` where `f(x) rel g(x)` holds (rel one of Lt, Le, Gt, Ge, Eq), for chains
// f, g without Min/Max over one size and P a common multiple of their periods; nullopt
// when that set is not one interval.
std::optional<Interval> two_chain_true_set(GuardOp rel, const std::vector<Step>& f, const std::vector<Step>& g,
                                           Interval safe, uint64_t period) {
  const i128 P = i128(period);
  auto diff = [&](int64_t x) { return i128(value_after(f, f.size(), x)) - i128(value_after(g, g.size(), x)); };
  auto holds = [&](int64_t x, GuardOp op) {
    const i128 d = diff(x);
    switch (op) {
      case GuardOp::Lt: return d < 0;
      case GuardOp::Le: return d <= 0;
      case GuardOp::Gt: return d > 0;
      default: return d >= 0;  // Ge
    }
  };
  std::vector<Interval> k_true(period);
  for (uint64_t r = 0; r < period; ++r) {
    // the k with k*P + r inside safe
    const Interval ks{int64_t(ceil_div_i128(i128(safe.lo) - i128(r), P)),
                      int64_t(floor_div_i128(i128(safe.hi) - i128(r), P))};
    if (ks.empty()) continue;
    auto x_of = [&](int64_t k) { return int64_t(i128(k) * P + i128(r)); };
    // the affine claim, checked where it is cheap to: three points on one line
    const i128 span = i128(ks.hi) - i128(ks.lo);
    if (span >= 2) {
      const i128 d0 = diff(x_of(ks.lo)), d1 = diff(x_of(ks.lo + 1)), dn = diff(x_of(ks.hi));
      const i128 step = d1 - d0;
      if (step > (i128(1) << 62) || step < -(i128(1) << 62)) return std::nullopt;
      if (dn - d0 != step * span) return std::nullopt;
    }
    if (rel == GuardOp::Eq) {
      const Interval ge = monotone_true_set(ks, [&](int64_t k) { return holds(x_of(k), GuardOp::Ge); });
      k_true[r] = monotone_true_set(ge, [&](int64_t k) { return holds(x_of(k), GuardOp::Le); });
    } else {
      k_true[r] = monotone_true_set(ks, [&](int64_t k) { return holds(x_of(k), rel); });
    }
  }
  // the hull of the true x, then every residue's x inside the hull must be true
  bool any = false;
  i128 lo = 0, hi = 0;
  for (uint64_t r = 0; r < period; ++r) {
    if (k_true[r].empty()) continue;
    const i128 a = i128(k_true[r].lo) * P + i128(r), b = i128(k_true[r].hi) * P + i128(r);
    lo = any ? std::min(lo, a) : a;
    hi = any ? std::max(hi, b) : b;
    any = true;
  }
  if (!any) return Interval{};
  for (uint64_t r = 0; r < period; ++r) {
    const i128 k_lo = ceil_div_i128(lo - i128(r), P), k_hi = floor_div_i128(hi - i128(r), P);
    if (k_lo > k_hi) continue;  // no x of this residue inside the hull
    if (k_true[r].empty() || k_lo < k_true[r].lo || k_hi > k_true[r].hi) return std::nullopt;
  }
  return Interval{int64_t(lo), int64_t(hi)};
}

// Rewrites instruction i into InRange over size register `size_reg`.
void make_range(GuardProgram& p, size_t i, uint32_t size_reg, Interval safe, Interval pass, bool negate) {
  if (pass.empty()) pass = Interval{1, 0};
  p.ranges.push_back(GuardRange{pass.lo, pass.hi, safe.lo, safe.hi, negate});
  p.op[i] = GuardOp::InRange;
  p.a[i] = size_reg;
  p.b[i] = 0;
  p.imm[i] = int64_t(p.ranges.size() - 1);
  p.flags[i] = uint8_t(p.flags[i] & ~guard_flag::kImmB);
}

// The two-chain form of the pass (see the top of the file) for relation i.
void range_two_chain_relation(GuardProgram& p, size_t i, std::vector<Step>& f, std::vector<Step>& g) {
  const std::optional<uint32_t> fr = monotone_chain(p, p.a[i], f);
  const std::optional<uint32_t> gr = monotone_chain(p, p.b[i], g);
  if (!fr || !gr || (f.empty() && g.empty())) return;
  if (*fr != *gr && !(p.imm[*fr] == p.imm[*gr])) return;  // two different sizes
  const uint64_t pf = affine_period(f), pg = affine_period(g);
  if (pf == 0 || pg == 0) return;
  const uint64_t period = std::lcm(pf, pg);
  if (period > kMaxPeriod) return;
  const Interval sf = safe_interval(f), sg = safe_interval(g);
  const Interval safe{std::max(sf.lo, sg.lo), std::min(sf.hi, sg.hi)};
  if (safe.empty()) return;
  const GuardOp rel = p.op[i] == GuardOp::Ne ? GuardOp::Eq : p.op[i];
  const std::optional<Interval> pass = two_chain_true_set(rel, f, g, safe, period);
  if (!pass) return;
  make_range(p, i, *fr, safe, *pass, p.op[i] == GuardOp::Ne);
}

// The sizes where instruction r, a check of size register `size` that is never poisoned,
// holds; nullopt when r is no such check.
std::optional<Interval> unpoisoned_check(const GuardProgram& p, uint32_t r, uint32_t& size) {
  if (p.op[r] == GuardOp::InRange) {
    const GuardRange& g = p.ranges[size_t(p.imm[r])];
    if (g.negate || !g.always_safe()) return std::nullopt;
    size = p.a[r];
    return Interval{g.pass_lo, g.pass_hi};
  }
  if (!is_comparison(p.op[r]) || !(p.flags[r] & guard_flag::kImmB) || p.op[p.a[r]] != GuardOp::LoadSize)
    return std::nullopt;
  size = p.a[r];
  const int64_t c = p.imm[r];
  switch (p.op[r]) {
    case GuardOp::Eq: return Interval{c, c};
    case GuardOp::Lt: return c == kMin ? Interval{} : Interval{kMin, c - 1};
    case GuardOp::Le: return Interval{kMin, c};
    case GuardOp::Gt: return c == kMax ? Interval{} : Interval{c + 1, kMax};
    case GuardOp::Ge: return Interval{c, kMax};
    default: return std::nullopt;  // Ne: not an interval
  }
}

// An And of two unpoisoned checks of one size becomes one range check (see the top).
void merge_and_of_ranges(GuardProgram& p) {
  for (size_t i = 0; i < p.op.size(); ++i) {
    if (p.op[i] != GuardOp::And || (p.flags[i] & guard_flag::kImmB)) continue;
    uint32_t sa = 0, sb = 0;
    const std::optional<Interval> x = unpoisoned_check(p, p.a[i], sa), y = unpoisoned_check(p, p.b[i], sb);
    if (!x || !y || !(sa == sb || p.imm[sa] == p.imm[sb])) continue;
    make_range(p, i, sa, Interval{kMin, kMax}, Interval{std::max(x->lo, y->lo), std::min(x->hi, y->hi)}, false);
  }
}

}  // namespace

void range_monotone_relations(GuardProgram& p) {
  std::vector<Step> steps, other;
  for (size_t i = 0; i < p.op.size(); ++i) {
    if (!is_comparison(p.op[i])) continue;
    if (!(p.flags[i] & guard_flag::kImmB)) {
      range_two_chain_relation(p, i, steps, other);
      continue;
    }
    const std::optional<uint32_t> size_reg = monotone_chain(p, p.a[i], steps);
    // a relation of the size itself is already one compare
    if (!size_reg || steps.empty()) continue;
    // the sizes where no step overflows, and the chain's value there
    const Interval safe = safe_interval(steps);
    const int64_t c = p.imm[i];
    auto chain = [&](int64_t x) { return value_after(steps, steps.size(), x); };
    Interval pass;
    bool negate = false;
    switch (p.op[i]) {
      case GuardOp::Lt: pass = monotone_true_set(safe, [&](int64_t x) { return chain(x) < c; }); break;
      case GuardOp::Le: pass = monotone_true_set(safe, [&](int64_t x) { return chain(x) <= c; }); break;
      case GuardOp::Gt: pass = monotone_true_set(safe, [&](int64_t x) { return chain(x) > c; }); break;
      case GuardOp::Ge: pass = monotone_true_set(safe, [&](int64_t x) { return chain(x) >= c; }); break;
      default:  // Eq, Ne: {chain >= c} ∩ {chain <= c}, negated for Ne
        pass = monotone_true_set(monotone_true_set(safe, [&](int64_t x) { return chain(x) >= c; }),
                                 [&](int64_t x) { return chain(x) <= c; });
        negate = p.op[i] == GuardOp::Ne;
        break;
    }
    make_range(p, i, *size_reg, safe, pass, negate);
  }
  merge_and_of_ranges(p);
}

}  // namespace symshape
