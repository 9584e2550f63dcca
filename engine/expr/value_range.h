#pragma once
// Value ranges (semantics.md B): closed intervals over the extended integers
// (-int_oo .. int_oo), extended reals (-oo .. oo) or booleans, kept per symbol and
// computed for any expression by abstract interpretation (`bound`).
#include <cstdint>
#include <string>

namespace symshape {

// An extended number: a finite int64, a finite double, +-int_oo, +-oo, or NaN.
// Integer ranges use Int/IntInf; float ranges use Real/RealInf.
struct ExtNum {
  enum class Kind : uint8_t { Int, Real, IntInf, RealInf, NaN };
  Kind kind = Kind::Int;
  int64_t i = 0;     // Int value, or the sign (+1/-1) of an infinity
  double r = 0.0;    // Real value

  static ExtNum of(int64_t v) { return {Kind::Int, v, 0.0}; }
  static ExtNum real(double v);
  static ExtNum int_oo(int sign = 1) { return {Kind::IntInf, sign, 0.0}; }
  static ExtNum oo(int sign = 1) { return {Kind::RealInf, sign, 0.0}; }
  static ExtNum nan() { return {Kind::NaN, 0, 0.0}; }
  bool is_finite() const { return kind == Kind::Int || kind == Kind::Real; }
  bool is_inf() const { return kind == Kind::IntInf || kind == Kind::RealInf; }
  bool is_int() const { return kind == Kind::Int || kind == Kind::IntInf; }
  bool is_nan() const { return kind == Kind::NaN; }
  double as_double() const;  // +-inf for infinities
  std::string str() const;   // "5", "int_oo", "-int_oo", "oo", "2.5"
};
// Comparisons across kinds (infinities, reals, NaN); the operators below inline the
// common finite-integer case, which is most of what range arithmetic compares.
bool ext_equal(const ExtNum& a, const ExtNum& b);
bool ext_less(const ExtNum& a, const ExtNum& b);  // int_oo larger than every integer
inline bool operator==(const ExtNum& a, const ExtNum& b) {
  if (a.kind == ExtNum::Kind::Int && b.kind == ExtNum::Kind::Int) return a.i == b.i;
  return ext_equal(a, b);
}
inline bool operator<(const ExtNum& a, const ExtNum& b) {
  if (a.kind == ExtNum::Kind::Int && b.kind == ExtNum::Kind::Int) return a.i < b.i;
  return ext_less(a, b);
}
inline bool operator<=(const ExtNum& a, const ExtNum& b) { return !(b < a); }
inline bool operator>(const ExtNum& a, const ExtNum& b) { return b < a; }
inline bool operator>=(const ExtNum& a, const ExtNum& b) { return !(a < b); }

struct ValueRange {
  ExtNum lo, hi;
  bool is_bool = false;

  ValueRange() : lo(ExtNum::int_oo(-1)), hi(ExtNum::int_oo(1)) {}  // unknown_int
  // throws InvalidRange if lo > hi or either end is NaN
  ValueRange(ExtNum lo_, ExtNum hi_, bool is_bool_ = false) : lo(lo_), hi(hi_), is_bool(is_bool_) {
    if (!(lo.kind == ExtNum::Kind::Int && hi.kind == ExtNum::Kind::Int && lo.i <= hi.i)) check_order();
  }
  static ValueRange wrap(int64_t v) { return {ExtNum::of(v), ExtNum::of(v)}; }
  static ValueRange unknown() { return {ExtNum::oo(-1), ExtNum::oo(1)}; }
  static ValueRange unknown_int() { return {ExtNum::int_oo(-1), ExtNum::int_oo(1)}; }
  static ValueRange unknown_bool() { return {ExtNum::of(0), ExtNum::of(1), true}; }
  static ValueRange boolean(bool v) { return {ExtNum::of(v), ExtNum::of(v), true}; }

  bool is_singleton() const { return lo == hi; }
  bool is_int() const { return lo.is_int() || hi.is_int(); }
  bool contains(int64_t v) const;
  bool issubset(const ValueRange& other) const;
  ValueRange operator&(const ValueRange& o) const;  // intersection; throws on empty
  ValueRange operator|(const ValueRange& o) const;  // union
  bool known_true() const { return is_bool && lo.i == 1; }
  bool known_false() const { return is_bool && hi.i == 0; }
  std::string str() const;  // "[2, int_oo]"

 private:
  void check_order() const;  // the general lo <= hi test, off the finite-integer fast path
};

// Transfer functions on ranges (semantics.md B.2), exposed for tests and for `bound`.
namespace vr {
ValueRange add(const ValueRange& x, const ValueRange& y);
ValueRange mul(const ValueRange& x, const ValueRange& y);
ValueRange neg(const ValueRange& x);
ValueRange floordiv(const ValueRange& x, const ValueRange& y);
ValueRange mod(const ValueRange& x, const ValueRange& y);
ValueRange pow_by_natural(const ValueRange& x, const ValueRange& y);
ValueRange min(const ValueRange& x, const ValueRange& y);
ValueRange max(const ValueRange& x, const ValueRange& y);
ValueRange eq(const ValueRange& x, const ValueRange& y);
ValueRange ne(const ValueRange& x, const ValueRange& y);
ValueRange lt(const ValueRange& x, const ValueRange& y);
ValueRange le(const ValueRange& x, const ValueRange& y);
ValueRange gt(const ValueRange& x, const ValueRange& y);
ValueRange ge(const ValueRange& x, const ValueRange& y);
ValueRange logical_and(const ValueRange& x, const ValueRange& y);
ValueRange logical_or(const ValueRange& x, const ValueRange& y);
ValueRange logical_not(const ValueRange& x);
ValueRange truediv(const ValueRange& x, const ValueRange& y);
ValueRange abs(const ValueRange& x);
}  // namespace vr

}  // namespace symshape
