#include "expr/equality.h"

#include "expr/bound.h"
#include "expr/canonical.h"
#include "expr/sum_bound.h"

namespace symshape {

ValueRange tight_bound(ExprArena& a, ExprId e, std::span<const ValueRange> symbol_ranges) {
  const ValueRange plain = bound(a, e, symbol_ranges);
  if (plain.is_singleton() || !a.is_integer(e)) return plain;
  return sum_bound(a, a.expand(e), [&](ExprId x) { return bound(a, x, symbol_ranges); }) & plain;
}

bool provably_equal(ExprArena& a, ExprId x, ExprId y, std::span<const ValueRange> symbol_ranges) {
  if (x == y) return true;
  if (a.is_boolean(x) || a.is_boolean(y)) return canonicalize_bool(a, x) == canonicalize_bool(a, y);
  const ValueRange rx = bound(a, x, symbol_ranges), ry = bound(a, y, symbol_ranges);
  if (rx.is_singleton() && ry.is_singleton() && rx.lo == ry.lo && rx.lo.kind == ExtNum::Kind::Int) return true;
  const ExprId ex = a.expand(x), ey = a.expand(y);
  if (ex == ey) return true;
  const ValueRange d = tight_bound(a, a.expand(a.sub(ex, ey)), symbol_ranges);
  return d.is_singleton() && d.lo == ExtNum::of(0);
}

}  // namespace symshape
