#include "batch/positive_block_facts.h"

#include <algorithm>

#include "batch/guard_program.h"
#include "expr/bound.h"

namespace symshape {
namespace {

__extension__ typedef __int128 Wide;

bool fits(Wide v) { return v >= Wide(INT64_MIN) && v <= Wide(INT64_MAX); }

// floor(n / d) and ceil(n / d) for d > 0
Wide floor_div(Wide n, Wide d) { return n >= 0 ? n / d : -((-n + d - 1) / d); }
Wide ceil_div(Wide n, Wide d) { return -floor_div(-n, d); }

bool integer_range(const ValueRange& r) { return !r.is_bool && r.lo.is_int() && r.hi.is_int(); }

}  // namespace

void PositiveBlockFacts::bind_size(uint32_t symbol_index) {
  symbol_[symbol_index] = ValueRange(ExtNum::of(1), ExtNum::of(kNarrowSizeLimit - 1));
  memo_.clear();
}

ValueRange PositiveBlockFacts::range(ExprId e) {
  auto hit = memo_.find(e.index());
  if (hit != memo_.end()) return hit->second;
  ValueRange r;
  switch (ar_.kind(e)) {
    case ExprKind::Symbol: {
      const SymbolId s = ar_.symbol_id(e);
      auto it = symbol_.find(s.index());
      if (it != symbol_.end()) {
        r = it->second;
        break;
      }
      // Another symbol (a derived dim's root, say) gets its value from the examples
      // unchecked: its declared facts (positive, ...) are not known to hold for them.
      r = default_symbol_range(ar_, s);
      if (integer_range(r)) r = ValueRange::unknown_int();
      break;
    }
    default: {
      const auto ops = ar_.operands(e);
      if (ops.empty()) {
        r = bound(ar_, e, std::span<const ValueRange>());  // a constant
        break;
      }
      std::vector<ValueRange> operand_ranges;
      operand_ranges.reserve(ops.size());
      for (ExprId o : ops) operand_ranges.push_back(range(o));
      r = bound_node(ar_, e, operand_ranges);
    }
  }
  auto k = known_.find(e.index());
  if (k != known_.end() && integer_range(r) && integer_range(k->second)) {
    const ExtNum lo = std::max(r.lo, k->second.lo), hi = std::min(r.hi, k->second.hi);
    if (lo <= hi) r = ValueRange(lo, hi);  // empty: no live lane gets here; either range is sound
  }
  memo_.emplace(e.index(), r);
  return r;
}

void PositiveBlockFacts::add_side(ExprId side, int64_t sign, Difference& d) const {
  const std::span<const ExprId> one(&side, 1);
  for (ExprId t : ar_.kind(side) == ExprKind::Add ? ar_.operands(side) : one) {
    const ExprKind k = ar_.kind(t);
    if (k == ExprKind::Integer) {
      int64_t v = 0;
      if (__builtin_mul_overflow(sign, ar_.int_value(t), &v) || __builtin_add_overflow(d.constant, v, &d.constant))
        d.ok = false;
      continue;
    }
    if (k == ExprKind::Float || k == ExprKind::IntInfinity) {
      d.ok = false;
      continue;
    }
    Term term;
    term.coef = sign;
    if (k == ExprKind::Mul) {
      const auto ops = ar_.operands(t);
      const bool leading = ar_.kind(ops[0]) == ExprKind::Integer;
      if (leading && __builtin_mul_overflow(sign, ar_.int_value(ops[0]), &term.coef)) d.ok = false;
      term.factors.assign(ops.begin() + (leading ? 1 : 0), ops.end());
      if (!leading) term.expr = t;
      else if (term.factors.size() == 1) term.expr = term.factors[0];
    } else {
      term.factors.push_back(t);
      term.expr = t;
    }
    auto same = std::find_if(d.terms.begin(), d.terms.end(), [&](const Term& o) { return o.factors == term.factors; });
    if (same == d.terms.end()) {
      d.terms.push_back(std::move(term));
    } else if (__builtin_add_overflow(same->coef, term.coef, &same->coef)) {
      d.ok = false;
    }
  }
}

PositiveBlockFacts::Difference PositiveBlockFacts::difference(ExprId lhs, ExprId rhs) const {
  Difference d;
  add_side(rhs, 1, d);
  add_side(lhs, -1, d);
  return d;
}

ValueRange PositiveBlockFacts::range_of(const Difference& d) {
  ValueRange sum = ValueRange::wrap(d.constant);
  for (const Term& t : d.terms) {
    if (t.coef == 0) continue;
    ValueRange r;
    if (t.expr.valid()) {
      r = range(t.expr);
    } else {
      r = range(t.factors[0]);
      for (size_t i = 1; i < t.factors.size(); ++i) r = vr::mul(r, range(t.factors[i]));
    }
    if (!integer_range(r)) return ValueRange::unknown();
    sum = vr::add(sum, vr::mul(ValueRange::wrap(t.coef), r));
  }
  return sum;
}

bool PositiveBlockFacts::implies(ExprId clause) {
  const ExprKind k = ar_.kind(clause);
  if (k == ExprKind::True) return true;
  if (k == ExprKind::And) {
    for (ExprId c : ar_.operands(clause))
      if (!implies(c)) return false;
    return true;
  }
  if (k != ExprKind::Eq && k != ExprKind::Ne && k != ExprKind::Lt && k != ExprKind::Le && k != ExprKind::Gt &&
      k != ExprKind::Ge)
    return false;
  const Difference d = difference(ar_.operand(clause, 0), ar_.operand(clause, 1));  // rhs - lhs
  if (!d.ok) return false;
  const ValueRange r = range_of(d);
  if (!integer_range(r)) return false;
  const ExtNum zero = ExtNum::of(0);
  switch (k) {
    case ExprKind::Lt: return r.lo > zero;
    case ExprKind::Le: return r.lo >= zero;
    case ExprKind::Gt: return r.hi < zero;
    case ExprKind::Ge: return r.hi <= zero;
    case ExprKind::Eq: return r.lo == zero && r.hi == zero;
    default: return r.lo > zero || r.hi < zero;  // Ne
  }
}

void PositiveBlockFacts::refine(ExprId e, const ValueRange& r) {
  auto [it, fresh] = known_.emplace(e.index(), r);
  if (!fresh) {
    const ExtNum lo = std::max(it->second.lo, r.lo), hi = std::min(it->second.hi, r.hi);
    if (lo <= hi) it->second = ValueRange(lo, hi);
  }
  memo_.clear();
}

void PositiveBlockFacts::assume(ExprId clause) {
  ExprKind k = ar_.kind(clause);
  if (k == ExprKind::And) {
    for (ExprId c : ar_.operands(clause)) assume(c);
    return;
  }
  if (k != ExprKind::Eq && k != ExprKind::Ne && k != ExprKind::Lt && k != ExprKind::Le && k != ExprKind::Gt &&
      k != ExprKind::Ge)
    return;
  const Difference d = difference(ar_.operand(clause, 0), ar_.operand(clause, 1));
  if (!d.ok) return;
  const Term* only = nullptr;
  for (const Term& t : d.terms) {
    if (t.coef == 0) continue;
    if (only) return;  // more than one term: no single sub-expression to pin
    only = &t;
  }
  if (!only || !only->expr.valid()) return;
  if (!integer_range(range(only->expr))) return;
  // The clause says y = c*t + k relates to 0; with c < 0, y = -(|c|*t - k) and the
  // relation flips.
  Wide c = only->coef, kk = d.constant;
  if (c < 0) {
    c = -c;
    kk = -kk;
    if (k == ExprKind::Lt) k = ExprKind::Gt;
    else if (k == ExprKind::Gt) k = ExprKind::Lt;
    else if (k == ExprKind::Le) k = ExprKind::Ge;
    else if (k == ExprKind::Ge) k = ExprKind::Le;
  }
  // y >= m  <=>  t >= ceil((m - k) / c);  y <= m  <=>  t <= floor((m - k) / c)
  auto at_least = [&](Wide m) { return ceil_div(m - kk, c); };
  auto at_most = [&](Wide m) { return floor_div(m - kk, c); };
  const ExtNum lo_inf = ExtNum::int_oo(-1), hi_inf = ExtNum::int_oo(1);
  auto set = [&](Wide lo, bool has_lo, Wide hi, bool has_hi) {
    if ((has_lo && !fits(lo)) || (has_hi && !fits(hi)) || (has_lo && has_hi && lo > hi)) return;
    refine(only->expr, ValueRange(has_lo ? ExtNum::of(int64_t(lo)) : lo_inf, has_hi ? ExtNum::of(int64_t(hi)) : hi_inf));
  };
  switch (k) {
    case ExprKind::Lt: set(at_least(1), true, 0, false); break;   // y > 0
    case ExprKind::Le: set(at_least(0), true, 0, false); break;   // y >= 0
    case ExprKind::Gt: set(0, false, at_most(-1), true); break;   // y < 0
    case ExprKind::Ge: set(0, false, at_most(0), true); break;    // y <= 0
    case ExprKind::Eq: set(at_least(0), true, at_most(0), true); break;
    default: {  // Ne: t != -k/c, which trims the range when it is an end point
      if (kk % c != 0) return;
      const Wide x = -kk / c;
      const ValueRange r = range(only->expr);
      if (r.lo == r.hi) return;
      if (r.lo.kind == ExtNum::Kind::Int && Wide(r.lo.i) == x) set(x + 1, true, 0, false);
      else if (r.hi.kind == ExtNum::Kind::Int && Wide(r.hi.i) == x) set(0, false, x - 1, true);
    }
  }
}

}  // namespace symshape
