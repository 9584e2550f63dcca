// Canonicalising builders for sums, products and powers (semantics.md A.3): flattening,
// like-term collection, constant folding, number-times-sum distribution, SymPy order.
#include <algorithm>
#include <cmath>

#include "core/checked_math.h"
#include "core/error.h"
#include "expr/expr.h"
#include "expr/inline_vec.h"

namespace symshape {

namespace {

struct NumAcc {
  // Accumulates numeric leaves of a sum or product. Integers are exact; any Float turns
  // the accumulation into double; infinities are tracked by sign.
  bool is_float = false;
  int64_t i;
  double f;
  int pos_inf = 0, neg_inf = 0;
  bool nan = false;
};

template <class Vec>
void sort_sympy(ExprArena& a, Vec& v) {
  std::sort(v.begin(), v.end(), [&](ExprId x, ExprId y) { return a.compare_memoized(x, y) < 0; });
}

}  // namespace

ExprId ExprArena::add_memoized(ExprId a, ExprId b) {
  return memoized(kMemoAdd, a, b.value, [&] { return add_uncached(a, b); });
}

ExprId ExprArena::add_uncached(ExprId a, ExprId b) {
  if (a == zero_id_) return b;
  if (b == zero_id_) return a;
  if (kind(a) == ExprKind::Integer && kind(b) == ExprKind::Integer) return integer(checked_add(payload(a), payload(b)));
  const ExprId terms[2] = {a, b};
  return add(std::span<const ExprId>(terms, 2));
}

ExprId ExprArena::add(std::span<const ExprId> input) {
  NumAcc num{false, 0, 0.0};
  // (coefficient, term) pairs of the symbolic summands
  InlineVec<std::pair<int64_t, ExprId>, 16> terms;
  InlineVec<ExprId, 4> float_terms;  // symbolic summands with a Float coefficient stay as they are
  auto take = [&](auto& self, ExprId t) -> void {
    switch (kind(t)) {
      case ExprKind::Add:
        for (ExprId s : operands(t)) self(self, s);
        return;
      case ExprKind::Integer:
        if (num.is_float) num.f += static_cast<double>(payload(t));
        else num.i = checked_add(num.i, payload(t));
        return;
      case ExprKind::Float: {
        double v = float_value(t);
        if (std::isnan(v)) { num.nan = true; return; }
        if (std::isinf(v)) { (v > 0 ? num.pos_inf : num.neg_inf)++; return; }
        if (!num.is_float) { num.is_float = true; num.f = static_cast<double>(num.i); }
        num.f += v;
        return;
      }
      case ExprKind::IntInfinity:
        (payload(t) > 0 ? num.pos_inf : num.neg_inf)++;
        return;
      default: break;
    }
    if (kind(t) == ExprKind::Mul && kind(operand(t, 0)) == ExprKind::Float) {
      float_terms.push_back(t);
      return;
    }
    auto [c, rest] = split_coefficient(t);
    terms.emplace_back(c, rest);
  };
  for (ExprId t : input) take(take, t);

  if (num.nan || (num.pos_inf && num.neg_inf)) return floating(std::numeric_limits<double>::quiet_NaN());
  if (num.pos_inf || num.neg_inf) {
    // int_oo absorbs finite and symbolic summands (ranges only)
    const bool real = num.is_float;
    return real ? floating(num.pos_inf ? INFINITY : -INFINITY) : int_infinity(num.pos_inf > 0);
  }

  // combine like terms: sort by term id, then merge
  std::sort(terms.begin(), terms.end(), [](auto& x, auto& y) { return x.second.value < y.second.value; });
  InlineVec<ExprId, 16> out;
  for (size_t i = 0; i < terms.size();) {
    int64_t c = terms[i].first;
    size_t j = i + 1;
    while (j < terms.size() && terms[j].second == terms[i].second) c = checked_add(c, terms[j++].first);
    if (c != 0) out.push_back(c == 1 ? terms[i].second : mul(integer(c), terms[i].second));
    i = j;
  }
  for (ExprId t : float_terms) out.push_back(t);
  sort_sympy(*this, out);
  const bool has_const = num.is_float ? num.f != 0.0 : num.i != 0;
  if (out.empty()) return num.is_float ? floating(num.f) : integer(num.i);
  if (has_const) out.insert_front(num.is_float ? floating(num.f) : integer(num.i));
  if (out.size() == 1) return out[0];
  return make_raw(ExprKind::Add, out);
}

ExprId ExprArena::neg(ExprId a) {
  if (kind(a) == ExprKind::Integer) return integer(checked_sub(0, payload(a)));
  return mul(integer(-1), a);
}

ExprId ExprArena::sub(ExprId a, ExprId b) {
  if (a == b) return zero_id_;
  return add(a, neg(b));
}

ExprId ExprArena::mul_memoized(ExprId a, ExprId b) {
  return memoized(kMemoMul, a, b.value, [&] { return mul_uncached(a, b); });
}

ExprId ExprArena::mul_uncached(ExprId a, ExprId b) {
  if (a == one_id_) return b;
  if (b == one_id_) return a;
  if (kind(a) == ExprKind::Integer && kind(b) == ExprKind::Integer) return integer(checked_mul(payload(a), payload(b)));
  const ExprId factors[2] = {a, b};
  return mul(std::span<const ExprId>(factors, 2));
}

ExprId ExprArena::mul(std::span<const ExprId> input) {
  NumAcc num{false, 1, 1.0};
  int inf_sign = 0;
  bool has_inf = false;
  InlineVec<std::pair<ExprId, int64_t>, 16> powers;  // (base, exponent)
  auto take = [&](auto& self, ExprId f) -> void {
    switch (kind(f)) {
      case ExprKind::Mul:
        for (ExprId s : operands(f)) self(self, s);
        return;
      case ExprKind::Integer:
        if (num.is_float) num.f *= static_cast<double>(payload(f));
        else num.i = checked_mul(num.i, payload(f));
        return;
      case ExprKind::Float: {
        double v = float_value(f);
        if (std::isnan(v)) { num.nan = true; return; }
        if (!num.is_float) { num.is_float = true; num.f = static_cast<double>(num.i); }
        num.f *= v;
        return;
      }
      case ExprKind::IntInfinity:
        has_inf = true;
        inf_sign = inf_sign == 0 ? static_cast<int>(payload(f)) : inf_sign * static_cast<int>(payload(f));
        return;
      case ExprKind::Pow:
        powers.emplace_back(operand(f, 0), payload(operand(f, 1)));
        return;
      default:
        powers.emplace_back(f, 1);
    }
  };
  for (ExprId f : input) take(take, f);
  if (num.nan) return floating(std::numeric_limits<double>::quiet_NaN());
  const bool zero = num.is_float ? num.f == 0.0 : num.i == 0;
  if (has_inf) {
    if (zero) return floating(std::numeric_limits<double>::quiet_NaN());
    const double c = num.is_float ? num.f : static_cast<double>(num.i);
    const bool positive = (c > 0) == (inf_sign > 0);
    return num.is_float ? floating(positive ? INFINITY : -INFINITY) : int_infinity(positive);
  }
  if (zero) return num.is_float ? floating(0.0) : zero_id_;

  std::sort(powers.begin(), powers.end(), [](auto& x, auto& y) { return x.first.value < y.first.value; });
  InlineVec<ExprId, 16> out;
  for (size_t i = 0; i < powers.size();) {
    int64_t k = powers[i].second;
    size_t j = i + 1;
    while (j < powers.size() && powers[j].first == powers[i].first) k = checked_add(k, powers[j++].second);
    if (k != 0) out.push_back(k == 1 ? powers[i].first : pow(powers[i].first, k));
    i = j;
  }
  const ExprId coef = num.is_float ? floating(num.f) : integer(num.i);
  if (out.empty()) return coef;
  // a number times a single sum distributes: 2*(s0 + 1) -> 2*s0 + 2
  if (coef != one_id_ && out.size() == 1 && kind(out[0]) == ExprKind::Add) {
    InlineVec<ExprId, 16> terms;
    for (ExprId t : operands(out[0])) terms.push_back(mul(coef, t));
    return add(terms);
  }
  // a factor that is itself a product of numbers and powers was folded above; sort the rest
  sort_sympy(*this, out);
  if (coef == one_id_) return out.size() == 1 ? out[0] : make_raw(ExprKind::Mul, out);
  out.insert_front(coef);
  return make_raw(ExprKind::Mul, out);
}

ExprId ExprArena::pow(ExprId base, int64_t k) {
  if (k < 0 || k > 0xffffffffll) return pow_uncached(base, k);
  return memoized(kMemoPow, base, static_cast<uint32_t>(k), [&] { return pow_uncached(base, k); });
}

ExprId ExprArena::pow_uncached(ExprId base, int64_t k) {
  if (k < 0) throw_error(ErrorKind::Value, "negative exponents are not supported in integer expressions");
  if (k == 0) return one_id_;
  if (k == 1) return base;
  switch (kind(base)) {
    case ExprKind::Integer: {
      // overflow-safe exponentiation: past 2**63-1 the result is +-int_oo
      const int64_t b = payload(base);
      if (b == 0 || b == 1) return base;
      if (b == -1) return integer(k % 2 ? -1 : 1);
      int64_t r = 1;
      for (int64_t i = 0; i < k; ++i) {
        auto next = try_mul(r, b);
        if (!next) return int_infinity(b > 0 || k % 2 == 0);
        r = *next;
      }
      return integer(r);
    }
    case ExprKind::Float: return floating(std::pow(float_value(base), static_cast<double>(k)));
    case ExprKind::IntInfinity: return int_infinity(payload(base) > 0 || k % 2 == 0);
    case ExprKind::Pow: return pow(operand(base, 0), checked_mul(payload(operand(base, 1)), k));
    case ExprKind::Mul: {
      InlineVec<ExprId, 16> factors;
      for (ExprId f : operands(base)) factors.push_back(pow(f, k));
      return mul(factors);
    }
    default: {
      const ExprId ops[2] = {base, integer(k)};
      return make_raw(ExprKind::Pow, ops);
    }
  }
}

ExprId ExprArena::pow_by_natural(ExprId base, ExprId exponent) {
  if (kind(exponent) == ExprKind::Integer) return pow(base, payload(exponent));
  if (kind(exponent) == ExprKind::IntInfinity && payload(exponent) > 0 && is_nonnegative(base)) {
    if (kind(base) == ExprKind::Integer && payload(base) <= 1) return base;
    return int_infinity(true);
  }
  const ExprId ops[2] = {base, exponent};
  return make_raw(ExprKind::PowByNatural, ops);
}

ExprId ExprArena::lshift(ExprId a, int64_t k) {
  if (k < 0) throw_error(ErrorKind::Value, "negative shift count");
  if (k >= 63) throw_error(ErrorKind::Overflow, "shift count too large");
  return mul(a, integer(int64_t{1} << k));
}

ExprId ExprArena::rshift(ExprId a, int64_t k) {
  if (k < 0) throw_error(ErrorKind::Value, "negative shift count");
  if (k >= 63) throw_error(ErrorKind::Overflow, "shift count too large");
  return floordiv(a, integer(int64_t{1} << k));
}

}  // namespace symshape
