#include "expr/division_form.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

#include "core/checked_math.h"
#include "core/error.h"
#include "expr/bound.h"
#include "expr/expr_walk.h"
#include "expr/sum_bound.h"

namespace symshape {
namespace {

struct Term {
  int64_t coef;
  ExprId base;  // coef * base; a constant has base one()
};

bool is_int_const(const ExprArena& a, ExprId e) { return a.kind(e) == ExprKind::Integer; }

// floor(x / k) when it is the same for both ends of a finite range (k > 0).
std::optional<int64_t> pinned_quotient(const ValueRange& r, int64_t k) {
  if (r.lo.kind != ExtNum::Kind::Int || r.hi.kind != ExtNum::Kind::Int) return std::nullopt;
  const int64_t lo = floor_div(r.lo.i, k), hi = floor_div(r.hi.i, k);
  if (lo != hi) return std::nullopt;
  return lo;
}

class Normalizer {
 public:
  Normalizer(ExprArena& a, std::span<const ValueRange> ranges) : a_(a), ranges_(ranges) {}

  ExprId run(ExprId root) {
    const ExprId roots[1] = {root};
    walk_.collect(a_, roots);
    const auto nodes = walk_.nodes();
    form_.resize(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) form_[i] = node_form(nodes[i]);
    return form_.back();
  }

 private:
  ExprId nf(ExprId original_operand) { return form_[walk_.position(original_operand)]; }
  ValueRange range(ExprId e) { return sharp_bound(a_, e, ranges_); }

  void terms_of(ExprId e, std::vector<Term>& out) {
    out.clear();
    auto one = [&](ExprId t) {
      const auto [c, base] = a_.split_coefficient(t);
      out.push_back({c, base});
    };
    if (a_.kind(e) == ExprKind::Add)
      for (ExprId t : a_.operands(e)) one(t);
    else if (e != a_.zero())
      one(e);
  }

  ExprId node_form(ExprId e) {
    const auto ops = a_.operands(e);
    if (ops.empty() || !a_.is_integer(e)) return e;
    for (ExprId o : ops)
      if (!a_.is_integer(o)) return e;
    switch (a_.kind(e)) {
      case ExprKind::Add: {
        std::vector<ExprId> parts;
        for (ExprId o : ops) parts.push_back(nf(o));
        return pair_min_max(a_.expand(a_.add(parts)));
      }
      case ExprKind::Mul: {
        std::vector<ExprId> parts;
        for (ExprId o : ops) parts.push_back(nf(o));
        return pair_min_max(a_.expand(a_.mul(parts)));
      }
      case ExprKind::Pow:
      case ExprKind::PowByNatural:
        if (is_int_const(a_, ops[1]) && a_.int_value(ops[1]) >= 0 && a_.int_value(ops[1]) <= 8)
          return a_.expand(a_.pow(nf(ops[0]), a_.int_value(ops[1])));
        return e;
      case ExprKind::FloorDiv:
      case ExprKind::CleanDiv: return floor_form(ops[0], nf(ops[0]), nf(ops[1])).value_or(e);
      case ExprKind::Mod:
      case ExprKind::PythonMod: return mod_form(ops[0], nf(ops[0]), nf(ops[1])).value_or(e);
      case ExprKind::ModularIndexing: {
        const auto q = floor_form(ops[0], nf(ops[0]), nf(ops[1]));
        if (!q) return e;
        return mod_form(*q, *q, nf(ops[2])).value_or(e);
      }
      case ExprKind::Min:
      case ExprKind::Max: {
        std::vector<ExprId> args;
        for (ExprId o : ops) args.push_back(nf(o));
        return min_max_form(a_.kind(e) == ExprKind::Min, args);
      }
      default: return e;
    }
  }

  // floor(num / div) in normal form; `original` is the numerator as written (its range
  // knows what the normal form's `a - b*(a//b)` no longer shows). nullopt: no rule applies.
  std::optional<ExprId> floor_form(ExprId original, ExprId num, ExprId div) {
    std::vector<Term> ts;
    std::vector<ExprId> quotient, remainder;
    if (is_int_const(a_, div)) {
      int64_t k = a_.int_value(div);
      if (k == 0 || k == std::numeric_limits<int64_t>::min()) return std::nullopt;
      ValueRange r = range(original);
      if (k < 0) {  // a // -k = (-a) // k
        k = -k;
        num = a_.expand(a_.neg(num));
        r = vr::mul(r, ValueRange::wrap(-1));
      }
      if (const auto q = pinned_quotient(r, k)) return a_.integer(*q);
      terms_of(num, ts);
      for (const Term& t : ts) {
        const int64_t q = floor_div(t.coef, k), rem = t.coef - q * k;
        if (q != 0) quotient.push_back(a_.mul(a_.integer(q), t.base));
        if (rem != 0) remainder.push_back(a_.mul(a_.integer(rem), t.base));
      }
      if (!remainder.empty()) {
        const ExprId rest = a_.add(remainder);
        if (const auto q = pinned_quotient(range(rest), k)) {
          quotient.push_back(a_.integer(*q));
        } else if (const auto coarse = coarse_division(rest, k)) {
          quotient.push_back(*coarse);
        } else {
          quotient.push_back(a_.floordiv(rest, a_.integer(k)));
        }
      }
      return a_.expand(a_.add(quotient));
    }
    // a common power of a symbol cancels: floor(g*A / (g*B)) = floor(A / B), and g != 0
    // wherever the division is defined ((2*x**2*z) // (4*x**3) is z // (2*x); PyTorch's
    // FloorDiv keeps it, cancelling only factors written alike)
    if (const auto cancelled = cancel_common_power(num, div)) return floor_form(cancelled->first, cancelled->first, cancelled->second);
    // a symbolic divisor known positive: the summands it divides come out
    const ValueRange dr = range(div);
    if (!(dr.lo > ExtNum::of(0)) || dr.lo.kind != ExtNum::Kind::Int) return std::nullopt;
    const ValueRange r = range(original);
    if (r.lo >= ExtNum::of(0) && r.hi < dr.lo) return a_.zero();
    terms_of(num, ts);
    for (const Term& t : ts) {
      if (const auto q = divide_out(t.base, div))
        quotient.push_back(a_.mul(a_.integer(t.coef), *q));
      else
        remainder.push_back(a_.mul(a_.integer(t.coef), t.base));
    }
    if (!remainder.empty()) {
      const ExprId rest = a_.add(remainder);
      const ValueRange rr = range(rest);
      if (!(rr.lo >= ExtNum::of(0) && rr.hi < dr.lo)) quotient.push_back(a_.floordiv(rest, div));
    }
    return a_.expand(a_.add(quotient));
  }

  // floor((g*A + s) / (g*k')) = floor((A + floor(s/g)) / k') for g > 0 dividing k: when
  // the summands s whose coefficients g does not divide have floor(s/g) pinned to one
  // value m by their range, the division is (A + m) // k' (`(8*x + 7) // 16` is x // 2,
  // `(32*x + y) // 64` is x // 2 for y in [0, 31]). Tries the divisors g of k, largest first.
  std::optional<ExprId> coarse_division(ExprId rest, int64_t k) {
    if (k > (int64_t{1} << 16)) return std::nullopt;  // the divisors are found by trial
    std::vector<Term> ts;
    terms_of(rest, ts);
    for (int64_t kp = 1; kp < k; ++kp) {  // g = k / kp, largest first
      if (k % kp != 0) continue;
      const int64_t g = k / kp;
      std::vector<ExprId> big, small;
      for (const Term& t : ts) {
        if (t.base != a_.one() && t.coef % g == 0) big.push_back(a_.mul(a_.integer(t.coef / g), t.base));
        else small.push_back(a_.mul(a_.integer(t.coef), t.base));
      }
      if (big.empty()) continue;
      const auto m = pinned_quotient(range(a_.add(small)), g);
      if (!m) continue;
      big.push_back(a_.integer(*m));
      const ExprId num = a_.expand(a_.add(big));
      return kp == 1 ? num : floor_form(num, num, a_.integer(kp)).value_or(a_.floordiv(num, a_.integer(kp)));
    }
    return std::nullopt;
  }

  // base / div when div is one of base's factors (or base itself).
  // (base, exponent) per factor of a monomial: x**3 is (x, 3), any other factor (f, 1).
  void powers_of(ExprId monomial, std::vector<std::pair<ExprId, int64_t>>& out) {
    out.clear();
    auto one = [&](ExprId f) {
      if (a_.kind(f) == ExprKind::Pow && is_int_const(a_, a_.operand(f, 1)) && a_.int_value(a_.operand(f, 1)) > 0)
        out.emplace_back(a_.operand(f, 0), a_.int_value(a_.operand(f, 1)));
      else if (f != a_.one())
        out.emplace_back(f, 1);
    };
    if (a_.kind(monomial) == ExprKind::Mul)
      for (ExprId f : a_.operands(monomial)) one(f);
    else
      one(monomial);
  }

  ExprId monomial(int64_t coef, const std::vector<std::pair<ExprId, int64_t>>& powers) {
    std::vector<ExprId> fs{a_.integer(coef)};
    for (const auto& [b, k] : powers)
      if (k > 0) fs.push_back(a_.pow(b, k));
    return a_.mul(fs);
  }

  // (num, div) with the greatest power of each symbolic factor of the monomial `div` that
  // every summand of `num` holds divided out of both; nullopt when there is none.
  std::optional<std::pair<ExprId, ExprId>> cancel_common_power(ExprId num, ExprId div) {
    std::vector<Term> dts, nts;
    terms_of(div, dts);
    terms_of(num, nts);
    if (dts.size() != 1 || nts.empty()) return std::nullopt;
    std::vector<std::pair<ExprId, int64_t>> dp, tp;
    powers_of(dts[0].base, dp);
    std::vector<std::vector<std::pair<ExprId, int64_t>>> term_powers(nts.size());
    for (size_t i = 0; i < nts.size(); ++i) powers_of(nts[i].base, term_powers[i]);
    bool any = false;
    for (auto& [b, k] : dp) {
      int64_t m = k;
      for (const auto& tps : term_powers) {
        int64_t held = 0;
        for (const auto& [tb, tk] : tps)
          if (tb == b) held = tk;
        m = std::min(m, held);
      }
      if (m <= 0) continue;
      any = true;
      k -= m;
      for (auto& tps : term_powers)
        for (auto& [tb, tk] : tps)
          if (tb == b) tk -= m;
    }
    if (!any) return std::nullopt;
    std::vector<ExprId> summands;
    for (size_t i = 0; i < nts.size(); ++i) summands.push_back(monomial(nts[i].coef, term_powers[i]));
    return std::make_pair(a_.add(summands), monomial(dts[0].coef, dp));
  }

  std::optional<ExprId> divide_out(ExprId base, ExprId div) {
    if (base == div) return a_.one();
    if (a_.kind(base) != ExprKind::Mul || a_.kind(div) == ExprKind::Add) return std::nullopt;
    std::vector<ExprId> kept;
    bool found = false;
    for (ExprId f : a_.operands(base)) {
      if (!found && f == div) {
        found = true;
        continue;
      }
      kept.push_back(f);
    }
    if (!found) return std::nullopt;
    return a_.mul(kept);
  }

  // num % div = num - div * (num // div), Python's definition for any div != 0.
  std::optional<ExprId> mod_form(ExprId original, ExprId num, ExprId div) {
    const auto q = floor_form(original, num, div);
    if (!q) return std::nullopt;
    return a_.expand(a_.sub(num, a_.mul(div, *q)));
  }

  ExprId min_max_form(bool is_min, std::vector<ExprId>& args) {
    // summands common to every argument, and the least constant, come out
    std::vector<std::vector<Term>> arg_terms(args.size());
    for (size_t i = 0; i < args.size(); ++i) terms_of(args[i], arg_terms[i]);
    auto constant_of = [&](const std::vector<Term>& ts) {
      for (const Term& t : ts)
        if (t.base == a_.one()) return t.coef;
      return int64_t{0};
    };
    std::vector<ExprId> common;
    int64_t least = constant_of(arg_terms[0]);
    for (size_t i = 1; i < args.size(); ++i) least = std::min(least, constant_of(arg_terms[i]));
    if (least != 0) common.push_back(a_.integer(least));
    for (const Term& t : arg_terms[0]) {
      if (t.base == a_.one()) continue;
      bool everywhere = true;
      for (size_t i = 1; i < args.size() && everywhere; ++i)
        everywhere = std::any_of(arg_terms[i].begin(), arg_terms[i].end(),
                                 [&](const Term& u) { return u.base == t.base && u.coef == t.coef; });
      if (everywhere) common.push_back(a_.mul(a_.integer(t.coef), t.base));
    }
    const ExprId shift = a_.add(common);
    for (ExprId& arg : args) arg = a_.expand(a_.sub(arg, shift));
    // an argument another one bounds (b - a <= 0 for Min) cannot be the result
    std::vector<ExprId> kept;
    std::vector<bool> dropped(args.size(), false);
    const ExprRangeFn range_fn = [&](ExprId x) { return range(x); };
    for (size_t i = 0; i < args.size(); ++i) {
      for (size_t j = 0; j < args.size() && !dropped[i]; ++j) {
        if (j == i || dropped[j]) continue;
        const ValueRange d = sum_bound(a_, a_.expand(a_.sub(args[j], args[i])), range_fn);
        dropped[i] = is_min ? d.hi <= ExtNum::of(0) : d.lo >= ExtNum::of(0);
      }
      if (!dropped[i]) kept.push_back(args[i]);
    }
    const ExprId inner = kept.size() == 1 ? kept[0] : (is_min ? a_.min(kept) : a_.max(kept));
    return a_.expand(a_.add(shift, inner));
  }

  // c*Min(a, b) + c*Max(a, b) = c*(a + b) inside a sum.
  ExprId pair_min_max(ExprId e) {
    if (a_.kind(e) != ExprKind::Add) return e;
    std::vector<Term> ts;
    terms_of(e, ts);
    bool changed = false;
    for (size_t i = 0; i < ts.size(); ++i) {
      if (a_.kind(ts[i].base) != ExprKind::Min || a_.operands(ts[i].base).size() != 2) continue;
      for (size_t j = 0; j < ts.size(); ++j) {
        if (a_.kind(ts[j].base) != ExprKind::Max || ts[j].coef != ts[i].coef || !same_pair(ts[i].base, ts[j].base))
          continue;
        const ExprId both = a_.add(a_.operand(ts[i].base, 0), a_.operand(ts[i].base, 1));
        ts[i] = {ts[i].coef, both};
        ts[j] = {0, a_.zero()};
        changed = true;
        break;
      }
    }
    if (!changed) return e;
    std::vector<ExprId> parts;
    for (const Term& t : ts) parts.push_back(a_.mul(a_.integer(t.coef), t.base));
    return a_.expand(a_.add(parts));
  }

  bool same_pair(ExprId x, ExprId y) {
    const ExprId x0 = a_.operand(x, 0), x1 = a_.operand(x, 1), y0 = a_.operand(y, 0), y1 = a_.operand(y, 1);
    return (x0 == y0 && x1 == y1) || (x0 == y1 && x1 == y0);
  }

  ExprArena& a_;
  std::span<const ValueRange> ranges_;
  DagWalk walk_;
  std::vector<ExprId> form_;
};

}  // namespace

ExprId division_normal_form(ExprArena& arena, ExprId e, std::span<const ValueRange> symbol_ranges) {
  if (!arena.is_integer(e)) return e;
  try {
    return Normalizer(arena, symbol_ranges).run(e);
  } catch (const Error&) {  // a helper node overflowed int64: no normal form
    return e;
  }
}

}  // namespace symshape
