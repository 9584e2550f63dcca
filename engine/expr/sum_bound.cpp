#include "expr/sum_bound.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "core/error.h"

namespace symshape {
namespace {

constexpr int kMaxDepth = 3;  // nested Min/Max and floor-division pairs worth looking through

struct Term {
  int64_t coef;
  ExprId base;  // the term is coef * base
};

// Splits a sum into coefficient * base terms (a bare constant is a term with base one()).
void terms_of(ExprArena& a, ExprId e, std::vector<Term>& out) {
  auto one = [&](ExprId t) {
    const auto [c, base] = a.split_coefficient(t);
    out.push_back({c, base});
  };
  if (a.kind(e) == ExprKind::Add)
    for (ExprId t : a.operands(e)) one(t);
  else
    one(e);
}

// The sum of every term but those at positions i and j (j may equal i).
ExprId rest_of(ExprArena& a, const std::vector<Term>& terms, size_t i, size_t j) {
  std::vector<ExprId> parts;
  for (size_t k = 0; k < terms.size(); ++k)
    if (k != i && k != j) parts.push_back(a.mul(a.integer(terms[k].coef), terms[k].base));
  return parts.empty() ? a.zero() : a.add(parts);
}

int64_t floor_div(int64_t x, int64_t c) { return x / c - ((x % c != 0) && ((x < 0) != (c < 0))); }
int64_t ceil_div(int64_t x, int64_t c) { return -floor_div(-x, c); }

ValueRange refine(ExprArena& a, ExprId e, const ExprRangeFn& range_of, bool remainders, int depth);

// The division identity read backwards: when `c*q` is a term with q = A // d and c a
// multiple of d (d a positive integer, or d a symbol-like divisor known positive with the
// term c*d*q), c*q = (c/d)*(A - r) with the remainder r in [0, d - 1] (and r <= A when
// A >= 0). Returns the multiplier m = c/d, A, and the range of r, or nothing.
struct Remainder {
  int64_t m;
  ExprId numerator;
  ValueRange r;
};

std::optional<Remainder> remainder_of(ExprArena& a, const Term& t, const ExprRangeFn& range_of) {
  ExprId q = t.base;
  ExprId d;
  int64_t m = 0;
  if (a.kind(q) == ExprKind::FloorDiv && a.kind(a.operand(q, 1)) == ExprKind::Integer) {
    d = a.operand(q, 1);
    const int64_t k = a.int_value(d);
    if (k <= 0 || t.coef % k != 0) return std::nullopt;
    m = t.coef / k;
  } else if (a.kind(q) == ExprKind::Mul && a.operands(q).size() == 2) {
    // d * (A // d) with d symbolic
    const ExprId f0 = a.operand(q, 0), f1 = a.operand(q, 1);
    if (a.kind(f1) == ExprKind::FloorDiv && a.operand(f1, 1) == f0) q = f1;
    else if (a.kind(f0) == ExprKind::FloorDiv && a.operand(f0, 1) == f1) q = f0;
    else return std::nullopt;
    d = a.operand(q, 1);
    m = t.coef;
  } else {
    return std::nullopt;
  }
  const ValueRange dr = range_of(d);
  if (!(dr.lo > ExtNum::of(0)) || dr.hi.kind == ExtNum::Kind::NaN) return std::nullopt;
  const ExprId num = a.operand(q, 0);
  ValueRange r(ExtNum::of(0), vr::add(dr, ValueRange::wrap(-1)).hi);
  const ValueRange nr = range_of(num);
  if (nr.lo >= ExtNum::of(0) && nr.hi < r.hi) r = ValueRange(ExtNum::of(0), nr.hi);
  return Remainder{m, num, r};
}

// A part of a sum that is exactly a function of one numerator A: `part` = range, and the
// sum is (the rest of the sum minus/plus A) + part.
struct Part {
  ExprId numerator;
  ValueRange range;
};

// u*v + w in int64, or nothing on overflow.
std::optional<int64_t> mul_add(int64_t u, int64_t v, int64_t w) {
  int64_t p, r;
  if (__builtin_mul_overflow(u, v, &p) || __builtin_add_overflow(p, w, &r)) return std::nullopt;
  return r;
}

// -k*(A // d) with d a positive constant not dividing k and 0 < k < d: A - k*(A // d)
// = (d - k)*q + r for q = A // d, r = A % d in [0, d - 1], nondecreasing in q. For A >= lo,
// q0 = lo // d: q = q0 gives at least lo - k*q0, q > q0 at least (d - k)*(q0 + 1); for A <= hi
// symmetrically at most max(hi - k*q1, (d - k)*(q1 - 1) + d - 1), q1 = hi // d.
// `a - a//2` is a + (a - a//2) - a, and a - a//2 >= min(1 - 0, 1*1) = 1 for a >= 1.
std::optional<Part> partial_quotient_of(ExprArena& a, const Term& t, const ExprRangeFn& range_of) {
  if (a.kind(t.base) != ExprKind::FloorDiv || a.kind(a.operand(t.base, 1)) != ExprKind::Integer) return std::nullopt;
  const int64_t d = a.int_value(a.operand(t.base, 1)), k = -t.coef;
  if (d <= 0 || k <= 0 || k >= d) return std::nullopt;
  const ExprId num = a.operand(t.base, 0);
  const ValueRange nr = range_of(num);
  ExtNum lo = ExtNum::int_oo(-1), hi = ExtNum::int_oo(1);
  if (nr.lo.kind == ExtNum::Kind::Int) {
    const int64_t q0 = floor_div(nr.lo.i, d);
    const auto at_q0 = mul_add(-k, q0, nr.lo.i), above = mul_add(d - k, q0, d - k);
    if (at_q0 && above) lo = ExtNum::of(std::min(*at_q0, *above));
  }
  if (nr.hi.kind == ExtNum::Kind::Int) {
    const int64_t q1 = floor_div(nr.hi.i, d);
    const auto at_q1 = mul_add(-k, q1, nr.hi.i), below = mul_add(d - k, q1, k - 1);
    // (d - k)*(q1 - 1) + d - 1 = (d - k)*q1 + k - 1
    if (at_q1 && below) hi = ExtNum::of(std::max(*at_q1, *below));
  }
  if (lo.kind != ExtNum::Kind::Int && hi.kind != ExtNum::Kind::Int) return std::nullopt;
  return Part{num, ValueRange(lo, hi)};
}

// c*(A % Y) with a divisor Y known >= 1 (Python remainder, in [0, Y - 1]):
// c*(A % Y) = c*(A % Y - Y) + c*Y, and A % Y - Y lies in [-max(Y), -1]. Here the
// numerator of Part is Y, added back c times. `a - 5 % a` is (a - a) + [1, int_oo].
std::optional<Part> remainder_minus_divisor_of(ExprArena& a, const Term& t, const ExprRangeFn& range_of) {
  const ExprKind k = a.kind(t.base);
  if (k != ExprKind::PythonMod && k != ExprKind::Mod) return std::nullopt;
  const ExprId y = a.operand(t.base, 1);
  if (a.kind(y) == ExprKind::Integer) return std::nullopt;  // constant divisors: bound() is exact enough
  const ValueRange yr = range_of(y);
  if (!(yr.lo >= ExtNum::of(1))) return std::nullopt;
  const ValueRange diff(yr.hi.kind == ExtNum::Kind::Int ? ExtNum::of(-yr.hi.i) : ExtNum::int_oo(-1), ExtNum::of(-1));
  return Part{y, vr::mul(diff, ValueRange::wrap(t.coef))};
}

// Min(args) (or Max) with `sign` (+1 / -1) plus `rest`: -Min(args) = Max(-args).
ValueRange min_max_with_rest(ExprArena& a, ExprId minmax, int64_t sign, ExprId rest, const ExprRangeFn& range_of,
                              bool remainders, int depth) {
  const bool is_min = (a.kind(minmax) == ExprKind::Min) == (sign > 0);
  std::optional<ValueRange> r;
  for (ExprId arg : a.operands(minmax)) {
    const ExprId shifted = a.expand(a.add(sign > 0 ? arg : a.neg(arg), rest));
    const ValueRange ri = refine(a, shifted, range_of, remainders, depth + 1);
    if (!r) {
      r = ri;
      continue;
    }
    const ExtNum lo = is_min ? std::min(r->lo, ri.lo) : std::max(r->lo, ri.lo);
    const ExtNum hi = is_min ? std::min(r->hi, ri.hi) : std::max(r->hi, ri.hi);
    r = ValueRange(lo, hi);
  }
  return r ? *r : ValueRange::unknown_int();
}

ValueRange refine(ExprArena& a, ExprId e, const ExprRangeFn& range_of, bool remainders, int depth) {
  ValueRange best = range_of(e);
  if (best.is_singleton() || depth >= kMaxDepth || !a.is_integer(e)) return best;
  std::vector<Term> terms;
  terms_of(a, e, terms);
  auto narrow = [&](const ValueRange& r) {
    if (r.lo > best.hi || r.hi < best.lo) return;  // cannot happen for sound ranges; keep the safe one
    best = best & r;
  };
  for (size_t i = 0; i < terms.size() && !best.is_singleton(); ++i) {
    const Term& t = terms[i];
    const ExprKind k = a.kind(t.base);
    if ((k == ExprKind::Min || k == ExprKind::Max) && (t.coef == 1 || t.coef == -1)) {
      narrow(min_max_with_rest(a, t.base, t.coef, rest_of(a, terms, i, i), range_of, remainders, depth));
      continue;
    }
    if (remainders) {
      if (const auto rem = remainder_of(a, t, range_of)) {
        const ExprId shifted = a.expand(a.add(rest_of(a, terms, i, i), a.mul(a.integer(rem->m), rem->numerator)));
        const ValueRange r = vr::mul(rem->r, ValueRange::wrap(-rem->m));
        narrow(vr::add(refine(a, shifted, range_of, remainders, depth + 1), r));
        continue;
      }
      if (const auto part = partial_quotient_of(a, t, range_of)) {
        const ExprId shifted = a.expand(a.sub(rest_of(a, terms, i, i), part->numerator));
        narrow(vr::add(refine(a, shifted, range_of, remainders, depth + 1), part->range));
        continue;
      }
      if (const auto part = remainder_minus_divisor_of(a, t, range_of)) {
        const ExprId shifted =
            a.expand(a.add(rest_of(a, terms, i, i), a.mul(a.integer(t.coef), part->numerator)));
        narrow(vr::add(refine(a, shifted, range_of, remainders, depth + 1), part->range));
        continue;
      }
    }
    if (k != ExprKind::FloorDiv || t.coef != 1) continue;
    const ExprId c = a.operand(t.base, 1);
    if (a.kind(c) != ExprKind::Integer || a.int_value(c) <= 0) continue;
    for (size_t j = 0; j < terms.size(); ++j) {
      const Term& u = terms[j];
      if (u.coef != -1 || a.kind(u.base) != ExprKind::FloorDiv || a.operand(u.base, 1) != c) continue;
      const int64_t cv = a.int_value(c);
      const ValueRange d = range_of(a.expand(a.sub(a.operand(t.base, 0), a.operand(u.base, 0))));
      if (d.lo.kind != ExtNum::Kind::Int || d.hi.kind != ExtNum::Kind::Int) continue;
      const ValueRange pair(ExtNum::of(floor_div(d.lo.i, cv)), ExtNum::of(ceil_div(d.hi.i, cv)));
      const ExprId rest = rest_of(a, terms, i, j);
      narrow(vr::add(pair, refine(a, rest, range_of, remainders, depth + 1)));
      break;
    }
  }
  return best;
}

}  // namespace

ValueRange sum_bound(ExprArena& arena, ExprId e, const ExprRangeFn& range_of, bool remainders) {
  try {
    return refine(arena, e, range_of, remainders, 0);
  } catch (const Error&) {  // a helper node overflowed int64: nothing more is known
    return range_of(e);
  }
}

}  // namespace symshape
