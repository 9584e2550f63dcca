#include "expr/equality.h"

#include "expr/bound.h"
#include "expr/canonical.h"
#include "expr/division_form.h"
#include "expr/sum_bound.h"

namespace symshape {

namespace {

// The sum rules over the exact-remainder ranges, with the division identity read backwards.
ValueRange decision_sum_bound(ExprArena& a, ExprId e, std::span<const ValueRange> symbol_ranges) {
  return sum_bound(a, e, [&](ExprId x) { return sharp_bound(a, x, symbol_ranges); }, /*remainders=*/true);
}

bool is_zero(const ValueRange& r) { return r.is_singleton() && r.lo == ExtNum::of(0); }

}  // namespace

ValueRange tight_bound(ExprArena& a, ExprId e, std::span<const ValueRange> symbol_ranges) {
  const ValueRange plain = bound(a, e, symbol_ranges);
  if (plain.is_singleton() || !a.is_integer(e)) return plain;
  ValueRange best = plain & sharp_bound(a, e, symbol_ranges);
  if (best.is_singleton()) return best;
  best = best & decision_sum_bound(a, a.expand(e), symbol_ranges);
  if (best.is_singleton()) return best;
  const ExprId normal = division_normal_form(a, e, symbol_ranges);
  if (normal != e) best = best & decision_sum_bound(a, normal, symbol_ranges);
  return best;
}

bool provably_equal(ExprArena& a, ExprId x, ExprId y, std::span<const ValueRange> symbol_ranges) {
  if (x == y) return true;
  if (a.is_boolean(x) || a.is_boolean(y)) return canonicalize_bool(a, x) == canonicalize_bool(a, y);
  const ValueRange rx = bound(a, x, symbol_ranges), ry = bound(a, y, symbol_ranges);
  if (rx.is_singleton() && ry.is_singleton() && rx.lo == ry.lo && rx.lo.kind == ExtNum::Kind::Int) return true;
  const ExprId ex = a.expand(x), ey = a.expand(y);
  if (ex == ey) return true;
  if (!a.is_integer(x) || !a.is_integer(y)) return is_zero(tight_bound(a, a.expand(a.sub(ex, ey)), symbol_ranges));
  const ExprId difference = a.expand(a.sub(ex, ey));
  if (is_zero(bound(a, difference, symbol_ranges))) return true;
  if (is_zero(decision_sum_bound(a, difference, symbol_ranges))) return true;
  // both sides in division normal form: equal forms, or a difference bounded to 0
  const ExprId nx = division_normal_form(a, x, symbol_ranges), ny = division_normal_form(a, y, symbol_ranges);
  if (nx == ny) return true;
  const ExprId normal_difference = a.expand(a.sub(nx, ny));
  return normal_difference == a.zero() || is_zero(decision_sum_bound(a, normal_difference, symbol_ranges));
}

}  // namespace symshape
