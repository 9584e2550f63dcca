// Value ranges over the extended integers/reals and their transfer functions
// (semantics.md B.1-B.2). Endpoints are computed exactly in 128 bits and then rounded
// outwards into int64 (a lower bound that leaves int64 becomes -int_oo or INT64_MAX, an
// upper bound int_oo or INT64_MIN), so every range stays a sound over-approximation even
// where PyTorch's arbitrary-precision integers would hold a value we cannot.
#include "expr/value_range.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include <fmt/core.h>

#include "core/error.h"
#include "expr/float_format.h"

namespace symshape {

// ---- ExtNum ---------------------------------------------------------------------------

ExtNum ExtNum::real(double v) {
  if (std::isnan(v)) return nan();
  if (std::isinf(v)) return oo(v > 0 ? 1 : -1);
  return {Kind::Real, 0, v};
}

double ExtNum::as_double() const {
  switch (kind) {
    case Kind::Int: return static_cast<double>(i);
    case Kind::Real: return r;
    case Kind::IntInf:
    case Kind::RealInf: return i > 0 ? INFINITY : -INFINITY;
    case Kind::NaN: return std::numeric_limits<double>::quiet_NaN();
  }
  return 0;
}

std::string ExtNum::str() const {
  switch (kind) {
    case Kind::Int: return std::to_string(i);
    case Kind::Real: return python_float_repr(r);
    case Kind::IntInf: return i > 0 ? "int_oo" : "-int_oo";
    case Kind::RealInf: return i > 0 ? "oo" : "-oo";
    case Kind::NaN: return "nan";
  }
  return "?";
}

namespace {

// Rank of the infinities and the finite band in the total order
// -oo < -int_oo < finite < int_oo < oo (NaN is unordered).
int band(const ExtNum& x) {
  switch (x.kind) {
    case ExtNum::Kind::RealInf: return x.i > 0 ? 2 : -2;
    case ExtNum::Kind::IntInf: return x.i > 0 ? 1 : -1;
    default: return 0;
  }
}

// Exact comparison of an int64 with a double (Python semantics: no rounding of the int).
int cmp_int_real(int64_t a, double b) {
  if (b >= 9223372036854775808.0) return -1;
  if (b < -9223372036854775808.0) return 1;
  const double fl = std::floor(b);
  const int64_t bi = static_cast<int64_t>(fl);
  if (a < bi) return -1;
  if (a > bi) return 1;
  return fl == b ? 0 : -1;  // a == floor(b) < b when b has a fraction
}

// <0, 0, >0; NaN compares as unordered (returns 2).
int cmp(const ExtNum& a, const ExtNum& b) {
  if (a.is_nan() || b.is_nan()) return 2;
  const int ba = band(a), bb = band(b);
  if (ba != bb) return ba < bb ? -1 : 1;
  if (ba != 0) return 0;
  if (a.kind == ExtNum::Kind::Int && b.kind == ExtNum::Kind::Int) return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
  if (a.kind == ExtNum::Kind::Int) return cmp_int_real(a.i, b.r);
  if (b.kind == ExtNum::Kind::Int) return -cmp_int_real(b.i, a.r);
  return a.r < b.r ? -1 : a.r > b.r ? 1 : 0;
}

}  // namespace

bool ext_equal(const ExtNum& a, const ExtNum& b) { return cmp(a, b) == 0; }
bool ext_less(const ExtNum& a, const ExtNum& b) { return cmp(a, b) == -1; }

// ---- wide endpoint arithmetic ------------------------------------------------------------

namespace {

__extension__ typedef __int128 i128;

// An endpoint under construction: exact 128-bit integers, doubles, infinities, NaN.
struct Wide {
  ExtNum::Kind kind = ExtNum::Kind::Int;
  i128 i = 0;  // Int value, or the sign of an infinity
  double r = 0;
};

constexpr i128 kMax64 = std::numeric_limits<int64_t>::max();
constexpr i128 kMin64 = std::numeric_limits<int64_t>::min();

Wide wide(const ExtNum& x) {
  Wide w;
  w.kind = x.kind;
  w.i = x.i;
  w.r = x.r;
  return w;
}
Wide wide_int(i128 v) { return {ExtNum::Kind::Int, v, 0}; }
Wide wide_real(double v) {
  if (std::isnan(v)) return {ExtNum::Kind::NaN, 0, 0};
  if (std::isinf(v)) return {ExtNum::Kind::RealInf, v > 0 ? 1 : -1, 0};
  return {ExtNum::Kind::Real, 0, v};
}
Wide wide_inf(int sign, bool real) { return {real ? ExtNum::Kind::RealInf : ExtNum::Kind::IntInf, sign, 0}; }
Wide wide_nan() { return {ExtNum::Kind::NaN, 0, 0}; }

bool is_real_kind(ExtNum::Kind k) { return k == ExtNum::Kind::Real || k == ExtNum::Kind::RealInf; }
bool is_inf(const Wide& w) { return w.kind == ExtNum::Kind::IntInf || w.kind == ExtNum::Kind::RealInf; }
int sign_of(const Wide& w) {
  switch (w.kind) {
    case ExtNum::Kind::Int: return w.i > 0 ? 1 : w.i < 0 ? -1 : 0;
    case ExtNum::Kind::Real: return w.r > 0 ? 1 : w.r < 0 ? -1 : 0;
    case ExtNum::Kind::IntInf:
    case ExtNum::Kind::RealInf: return w.i > 0 ? 1 : -1;
    case ExtNum::Kind::NaN: return 0;
  }
  return 0;
}
double to_double(const Wide& w) {
  switch (w.kind) {
    case ExtNum::Kind::Int: return static_cast<double>(w.i);
    case ExtNum::Kind::Real: return w.r;
    case ExtNum::Kind::IntInf:
    case ExtNum::Kind::RealInf: return w.i > 0 ? INFINITY : -INFINITY;
    case ExtNum::Kind::NaN: return std::numeric_limits<double>::quiet_NaN();
  }
  return 0;
}

// Rounds an endpoint into an ExtNum: outwards (down for a lower bound, up for an upper one).
ExtNum finish(const Wide& w, bool upper) {
  if (w.kind != ExtNum::Kind::Int) {
    ExtNum x;
    x.kind = w.kind;
    x.i = static_cast<int64_t>(w.i);
    x.r = w.r;
    return x;
  }
  if (w.i > kMax64) return upper ? ExtNum::int_oo(1) : ExtNum::of(std::numeric_limits<int64_t>::max());
  if (w.i < kMin64) return upper ? ExtNum::of(std::numeric_limits<int64_t>::min()) : ExtNum::int_oo(-1);
  return ExtNum::of(static_cast<int64_t>(w.i));
}

int cmp_wide(const Wide& a, const Wide& b) {
  if (a.kind == ExtNum::Kind::NaN || b.kind == ExtNum::Kind::NaN) return 2;
  auto band_w = [](const Wide& w) {
    if (w.kind == ExtNum::Kind::RealInf) return w.i > 0 ? 2 : -2;
    if (w.kind == ExtNum::Kind::IntInf) return w.i > 0 ? 1 : -1;
    return 0;
  };
  const int ba = band_w(a), bb = band_w(b);
  if (ba != bb) return ba < bb ? -1 : 1;
  if (ba != 0) return 0;
  if (a.kind == ExtNum::Kind::Int && b.kind == ExtNum::Kind::Int) return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
  const long double x = a.kind == ExtNum::Kind::Int ? static_cast<long double>(a.i) : a.r;
  const long double y = b.kind == ExtNum::Kind::Int ? static_cast<long double>(b.i) : b.r;
  return x < y ? -1 : x > y ? 1 : 0;
}

Wide add_w(const Wide& a, const Wide& b) {
  if (a.kind == ExtNum::Kind::NaN || b.kind == ExtNum::Kind::NaN) return wide_nan();
  const bool real = is_real_kind(a.kind) || is_real_kind(b.kind);
  if (is_inf(a) || is_inf(b)) {
    if (is_inf(a) && is_inf(b) && sign_of(a) != sign_of(b)) return wide_nan();  // int_oo - int_oo
    return wide_inf(is_inf(a) ? sign_of(a) : sign_of(b), real);
  }
  if (real) return wide_real(to_double(a) + to_double(b));
  return wide_int(a.i + b.i);  // |a|,|b| < 2^64 here: no 128-bit overflow
}

Wide neg_w(const Wide& a) {
  Wide r = a;
  if (a.kind == ExtNum::Kind::Real) r.r = -a.r;
  else r.i = -a.i;
  return r;
}

// 0 * anything = 0 (so [0,0] * unknown = [0,0]); otherwise the signed product.
Wide mul_w(const Wide& a, const Wide& b) {
  if (sign_of(a) == 0 && a.kind != ExtNum::Kind::NaN) return a;
  if (sign_of(b) == 0 && b.kind != ExtNum::Kind::NaN) return b;
  if (a.kind == ExtNum::Kind::NaN || b.kind == ExtNum::Kind::NaN) return wide_nan();
  const bool real = is_real_kind(a.kind) || is_real_kind(b.kind);
  if (is_inf(a) || is_inf(b)) return wide_inf(sign_of(a) * sign_of(b), real);
  if (real) return wide_real(to_double(a) * to_double(b));
  // operands are int64-sized (inputs come from ExtNum), so the product fits in 128 bits
  return wide_int(a.i * b.i);
}

i128 floor_div128(i128 a, i128 b) {
  i128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// FloorDiv on numbers (A.4 rules 2, 5, 6): an infinite operand goes through floating
// point; inf/inf is undefined (NaN), replaced by the caller.
Wide floordiv_w(const Wide& a, const Wide& b) {
  if (a.kind == ExtNum::Kind::NaN || b.kind == ExtNum::Kind::NaN) return wide_nan();
  if (is_inf(a) && is_inf(b)) return wide_nan();
  if (is_inf(a) || is_inf(b) || is_real_kind(a.kind) || is_real_kind(b.kind)) {
    const double q = std::floor(to_double(a) / to_double(b));
    if (std::isinf(q)) return wide_inf(q > 0 ? 1 : -1, false);
    if (std::isnan(q)) return wide_nan();
    if (is_real_kind(a.kind) || is_real_kind(b.kind)) return wide_real(q);
    return wide_int(static_cast<i128>(q));
  }
  return wide_int(floor_div128(a.i, b.i));
}

Wide truediv_w(const Wide& a, const Wide& b) { return wide_real(to_double(a) / to_double(b)); }

// Overflow-safe integer power: past 2**63-1 in magnitude the result is +-int_oo
// (A.7, PyTorch's safe_pow).
Wide pow_w(const Wide& base, const Wide& exp) {
  if (base.kind == ExtNum::Kind::NaN || exp.kind == ExtNum::Kind::NaN) return wide_nan();
  if (is_real_kind(base.kind) || is_real_kind(exp.kind)) return wide_real(std::pow(to_double(base), to_double(exp)));
  if (is_inf(exp)) {
    if (exp.i < 0) return wide_nan();
    const int s = sign_of(base);
    if (is_inf(base)) return s > 0 ? wide_inf(1, false) : wide_nan();
    if (base.i == 0 || base.i == 1) return base;
    if (base.i > 1) return wide_inf(1, false);
    return wide_nan();
  }
  if (exp.i < 0) return wide_nan();
  if (exp.i == 0) return wide_int(1);
  const int odd = static_cast<int>(exp.i & 1);
  if (is_inf(base)) return wide_inf(base.i > 0 || !odd ? 1 : -1, false);
  const bool negative = base.i < 0 && odd;
  i128 b = base.i < 0 ? -base.i : base.i;
  if (b <= 1) return wide_int(negative ? -b : b);
  i128 result = 1;
  i128 e = exp.i;
  while (e > 0) {
    if (e & 1) {
      result *= b;
      if (result > kMax64) return wide_inf(negative ? -1 : 1, false);
    }
    e >>= 1;
    if (e > 0) {
      if (b > kMax64) return wide_inf(negative ? -1 : 1, false);
      b *= b;
    }
  }
  return wide_int(negative ? -result : result);
}

// [min, max] of fn over the four corners. NaN corners come back to the caller through
// `on_nan` (a replacement value).
template <class Fn, class OnNan>
ValueRange corners(const ValueRange& x, const ValueRange& y, Fn fn, OnNan on_nan) {
  const Wide xs[2] = {wide(x.lo), wide(x.hi)}, ys[2] = {wide(y.lo), wide(y.hi)};
  Wide lo, hi;
  bool first = true;
  for (const Wide& a : xs)
    for (const Wide& b : ys) {
      Wide v = fn(a, b);
      if (v.kind == ExtNum::Kind::NaN) v = on_nan(a, b);
      if (v.kind == ExtNum::Kind::NaN) return ValueRange::unknown();
      if (first || cmp_wide(v, lo) < 0) lo = v;
      if (first || cmp_wide(v, hi) > 0) hi = v;
      first = false;
    }
  return ValueRange(finish(lo, false), finish(hi, true));
}

Wide no_nan_fix(const Wide&, const Wide&) { return wide_nan(); }

ExtNum min_ext(const ExtNum& a, const ExtNum& b) { return b < a ? b : a; }
ExtNum max_ext(const ExtNum& a, const ExtNum& b) { return a < b ? b : a; }

bool contains_zero(const ValueRange& y) { return y.lo <= ExtNum::of(0) && ExtNum::of(0) <= y.hi; }

// C-style (truncating) quotient of an endpoint by k > 0, as a comparable Wide.
Wide c_div(const ExtNum& x, int64_t k) {
  if (x.kind == ExtNum::Kind::IntInf || x.kind == ExtNum::Kind::RealInf) return wide_inf(x.i > 0 ? 1 : -1, true);
  if (x.kind == ExtNum::Kind::Real) return wide_real(std::trunc(x.r / static_cast<double>(k)));
  return wide_int(x.i / k);
}

ExtNum c_mod(const ExtNum& x, int64_t k) {
  if (x.kind == ExtNum::Kind::Real) return ExtNum::real(std::fmod(x.r, static_cast<double>(k)));
  return ExtNum::of(x.i % k);  // C semantics: sign of the dividend
}

}  // namespace

// ---- ValueRange --------------------------------------------------------------------------

void ValueRange::check_order() const {
  if (lo.is_nan() || hi.is_nan() || hi < lo) {
    auto show = [&](const ExtNum& x) { return is_bool ? std::string(x.i ? "True" : "False") : x.str(); };
    throw_error(ErrorKind::InvalidRange, fmt::format("Invalid ranges [{}:{}]", show(lo), show(hi)));
  }
}

bool ValueRange::contains(int64_t v) const {
  const ExtNum x = ExtNum::of(v);
  return lo <= x && x <= hi;
}

static bool same(const ValueRange& a, const ValueRange& b) {
  return a.is_bool == b.is_bool && a.lo.kind == b.lo.kind && a.hi.kind == b.hi.kind && a.lo == b.lo && a.hi == b.hi;
}

bool ValueRange::issubset(const ValueRange& other) const {
  if (same(other, unknown_int())) return true;
  return other.lo <= lo && hi <= other.hi;
}

ValueRange ValueRange::operator&(const ValueRange& o) const {
  // unknown (real or int) is the identity of intersection
  if (same(o, unknown()) || same(o, unknown_int())) return *this;
  if (same(*this, unknown()) || same(*this, unknown_int())) return o;
  return ValueRange(max_ext(lo, o.lo), min_ext(hi, o.hi), is_bool && o.is_bool);
}

ValueRange ValueRange::operator|(const ValueRange& o) const {
  if (same(o, unknown()) || same(*this, unknown())) return unknown();
  return ValueRange(min_ext(lo, o.lo), max_ext(hi, o.hi), is_bool && o.is_bool);
}

std::string ValueRange::str() const {
  if (is_bool) return fmt::format("[{}, {}]", lo.i ? "True" : "False", hi.i ? "True" : "False");
  return fmt::format("[{}, {}]", lo.str(), hi.str());
}

// ---- transfer functions (B.2) --------------------------------------------------------------

namespace vr {

ValueRange add(const ValueRange& x, const ValueRange& y) {
  const Wide lo = add_w(wide(x.lo), wide(y.lo)), hi = add_w(wide(x.hi), wide(y.hi));
  if (lo.kind == ExtNum::Kind::NaN || hi.kind == ExtNum::Kind::NaN) return ValueRange::unknown();
  return ValueRange(finish(lo, false), finish(hi, true));
}

ValueRange mul(const ValueRange& x, const ValueRange& y) {
  if (x.is_bool && y.is_bool) return logical_and(x, y);
  return corners(x, y, mul_w, no_nan_fix);
}

ValueRange neg(const ValueRange& x) {
  return ValueRange(finish(neg_w(wide(x.hi)), false), finish(neg_w(wide(x.lo)), true));
}

ValueRange floordiv(const ValueRange& x, const ValueRange& y) {
  if (contains_zero(y)) {
    // A divisor that may be 0 still leaves the quotient's sign when neither operand
    // changes sign (value_ranges.py floordiv, PyTorch 2.13): `(a - 1)//2 + 1` over
    // `ceil(b / 2)` with both at least 0 is at least 0.
    const ExtNum zero = ExtNum::of(0);
    if ((y.lo >= zero && x.lo >= zero) || (y.hi <= zero && x.hi <= zero))
      return ValueRange(zero, ExtNum::int_oo(1));
    if ((y.hi <= zero && x.lo >= zero) || (y.lo >= zero && x.hi <= zero))
      return ValueRange(ExtNum::int_oo(-1), zero);
    return ValueRange::unknown();
  }
  // an undefined corner (inf // inf) is sign(x) * sign(y) * int_oo
  return corners(x, y, floordiv_w, [](const Wide& a, const Wide& b) { return wide_inf(sign_of(a) * sign_of(b), false); });
}

ValueRange mod(const ValueRange& x, const ValueRange& y) {
  // PyTorch bounds every flavour of Mod with C (truncation) semantics: the result takes
  // the sign of the dividend, which over-approximates both Python and C remainders.
  if (contains_zero(y)) return ValueRange::unknown_int();
  if (y.is_singleton() && y.lo.kind == ExtNum::Kind::Int) {
    if (y.lo.i == std::numeric_limits<int64_t>::min()) return ValueRange::unknown_int();
    const int64_t k = y.lo.i < 0 ? -y.lo.i : y.lo.i;
    // locally linear when both ends lie in the same block of |k|
    if (x.lo.is_finite() && x.hi.is_finite() && cmp_wide(c_div(x.lo, k), c_div(x.hi, k)) == 0)
      return ValueRange(c_mod(x.lo, k), c_mod(x.hi, k));
    if (x.hi < ExtNum::of(0)) return ValueRange(ExtNum::of(1 - k), ExtNum::of(0));
    if (x.lo > ExtNum::of(0)) return ValueRange(ExtNum::of(0), ExtNum::of(k - 1));
    return ValueRange(max_ext(ExtNum::of(1 - k), x.lo), min_ext(ExtNum::of(k - 1), x.hi));
  }
  const ValueRange a = abs(y);
  const Wide m = add_w(wide(a.hi), wide_int(-1));
  return ValueRange(finish(neg_w(m), false), finish(m, true));
}

ValueRange pow_by_natural(const ValueRange& x, const ValueRange& y) {
  if (x.is_singleton() && y.is_singleton()) {
    const Wide p = pow_w(wide(x.lo), wide(y.lo));
    if (p.kind == ExtNum::Kind::NaN) return ValueRange::unknown_int();
    return ValueRange(finish(p, false), finish(p, true));
  }
  const auto pw = [](const ExtNum& b, const ExtNum& e, bool upper) {
    const Wide p = pow_w(wide(b), wide(e));
    return p.kind == ExtNum::Kind::NaN ? (upper ? ExtNum::int_oo(1) : ExtNum::int_oo(-1)) : finish(p, upper);
  };
  if (x.lo >= ExtNum::of(1)) {
    // increasing in both arguments; the exponent is clamped to >= 0
    const ExtNum elo = max_ext(y.lo, ExtNum::of(0)), ehi = max_ext(y.hi, ExtNum::of(0));
    return ValueRange(pw(x.lo, elo, false), pw(x.hi, ehi, true));
  }
  if (y.is_singleton()) {
    const ExtNum e = y.lo;
    const bool even = e.kind == ExtNum::Kind::Int && e.i % 2 == 0;
    if (even) {
      // convex with its minimum at 0
      if (x.lo <= ExtNum::of(0) && ExtNum::of(0) <= x.hi)
        return ValueRange(ExtNum::of(0), max_ext(pw(x.lo, e, true), pw(x.hi, e, true)));
      const ExtNum a = pw(x.lo, e, false), b = pw(x.hi, e, false);
      const ExtNum c = pw(x.lo, e, true), d = pw(x.hi, e, true);
      return ValueRange(min_ext(a, b), max_ext(c, d));
    }
    return ValueRange(pw(x.lo, e, false), pw(x.hi, e, true));
  }
  // sign unknown and parity unknown: +-(max |base|) ** max exponent
  const ExtNum m = max_ext(x.hi, neg(ValueRange(x.lo, x.lo)).lo);
  const ExtNum p = pw(m, y.hi, true);
  return ValueRange(neg(ValueRange(p, p)).lo, p);
}

ValueRange min(const ValueRange& x, const ValueRange& y) {
  return ValueRange(min_ext(x.lo, y.lo), min_ext(x.hi, y.hi), x.is_bool && y.is_bool);
}

ValueRange max(const ValueRange& x, const ValueRange& y) {
  return ValueRange(max_ext(x.lo, y.lo), max_ext(x.hi, y.hi), x.is_bool && y.is_bool);
}

ValueRange eq(const ValueRange& x, const ValueRange& y) {
  if (x.is_singleton() && y.is_singleton() && x.lo == y.lo) return ValueRange::boolean(true);
  if (y.hi < x.lo || x.hi < y.lo) return ValueRange::boolean(false);
  return ValueRange::unknown_bool();
}

ValueRange ne(const ValueRange& x, const ValueRange& y) { return logical_not(eq(x, y)); }

ValueRange lt(const ValueRange& x, const ValueRange& y) {
  if (x.is_bool && y.is_bool) return logical_and(logical_not(x), y);
  if (x.hi < y.lo) return ValueRange::boolean(true);
  if (x.lo >= y.hi) return ValueRange::boolean(false);
  return ValueRange::unknown_bool();
}

ValueRange gt(const ValueRange& x, const ValueRange& y) { return lt(y, x); }
ValueRange le(const ValueRange& x, const ValueRange& y) { return logical_not(gt(x, y)); }
ValueRange ge(const ValueRange& x, const ValueRange& y) { return logical_not(lt(x, y)); }

ValueRange logical_and(const ValueRange& x, const ValueRange& y) {
  return ValueRange(ExtNum::of(x.lo.i && y.lo.i), ExtNum::of(x.hi.i && y.hi.i), true);
}

ValueRange logical_or(const ValueRange& x, const ValueRange& y) {
  return ValueRange(ExtNum::of(x.lo.i || y.lo.i), ExtNum::of(x.hi.i || y.hi.i), true);
}

ValueRange logical_not(const ValueRange& x) { return ValueRange(ExtNum::of(!x.hi.i), ExtNum::of(!x.lo.i), true); }

ValueRange truediv(const ValueRange& x, const ValueRange& y) {
  if (contains_zero(y) || ((x.lo.is_inf() || x.hi.is_inf()) && (y.lo.is_inf() || y.hi.is_inf())))
    return ValueRange::unknown();
  return corners(x, y, truediv_w, no_nan_fix);
}

ValueRange abs(const ValueRange& x) {
  const ExtNum zero = ExtNum::of(0);
  const ExtNum alo = finish(x.lo < zero ? neg_w(wide(x.lo)) : wide(x.lo), true);
  const ExtNum ahi = finish(x.hi < zero ? neg_w(wide(x.hi)) : wide(x.hi), true);
  if (x.lo <= zero && zero <= x.hi) return ValueRange(x.lo.kind == ExtNum::Kind::Real ? ExtNum::real(0) : zero, max_ext(alo, ahi));
  const ExtNum llo = finish(x.lo < zero ? neg_w(wide(x.lo)) : wide(x.lo), false);
  const ExtNum lhi = finish(x.hi < zero ? neg_w(wide(x.hi)) : wide(x.hi), false);
  return ValueRange(min_ext(llo, lhi), max_ext(alo, ahi));
}

}  // namespace vr

}  // namespace symshape
