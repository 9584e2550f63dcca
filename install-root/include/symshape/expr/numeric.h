#pragma once
// Scalar kernels shared by the single and the batch evaluator: Python semantics for
// int/float mixing, checked int64 arithmetic reported through a status byte (hot loops
// do not throw), and float -> int conversions that refuse to invent numbers.
#include <cmath>
#include <cstdint>
#include <limits>

namespace symshape {

// Why a value could not be computed; 0 means it was.
enum class EvalStatus : uint8_t { Ok = 0, Overflow, ZeroDivision, Value, Unbound };

// Exact comparison of an int64 with a double, as Python compares int and float
// (no rounding of the integer). NaN compares unequal to everything: returns 2.
inline int cmp_int_double(int64_t a, double b) {
  if (std::isnan(b)) return 2;
  if (b >= 9223372036854775808.0) return -1;
  if (b < -9223372036854775808.0) return 1;
  const double fl = std::floor(b);
  const int64_t bi = static_cast<int64_t>(fl);
  if (a < bi) return -1;
  if (a > bi) return 1;
  return fl == b ? 0 : -1;
}

inline int cmp_double(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return 2;
  return a < b ? -1 : a > b ? 1 : 0;
}

// Result of a relation (Eq..Ge as 0..5 in ExprKind order) from a 3-way comparison.
inline bool relation_holds(int rel, int c) {
  if (c == 2) return rel == 1;  // only != holds for NaN
  switch (rel) {
    case 0: return c == 0;
    case 1: return c != 0;
    case 2: return c < 0;
    case 3: return c <= 0;
    case 4: return c > 0;
    default: return c >= 0;
  }
}

// base**exp for exp >= 0; false on int64 overflow. |base| >= 2 overflows by exp 64, so
// the loop is short.
inline bool checked_ipow(int64_t base, int64_t exp, int64_t& out) {
  if (base == 0) return out = exp == 0 ? 1 : 0, true;
  if (base == 1) return out = 1, true;
  if (base == -1) return out = (exp & 1) ? -1 : 1, true;
  if (exp >= 64) return false;
  int64_t r = 1;
  for (int64_t i = 0; i < exp; ++i)
    if (__builtin_mul_overflow(r, base, &r)) return false;
  out = r;
  return true;
}

// A double already rounded to an integral value -> int64, or a status.
inline EvalStatus double_to_int64(double v, int64_t& out) {
  if (std::isnan(v)) return EvalStatus::Value;  // "cannot convert float NaN to integer"
  if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) return EvalStatus::Overflow;
  out = static_cast<int64_t>(v);
  return EvalStatus::Ok;
}

// Python int / int (correctly rounded for operands within 2^53; beyond that the 64-bit
// mantissa of long double keeps both operands exact, at the cost of a double rounding).
inline double int_true_divide(int64_t a, int64_t b) {
  constexpr int64_t k53 = int64_t{1} << 53;
  if (a > -k53 && a < k53 && b > -k53 && b < k53) return static_cast<double>(a) / static_cast<double>(b);
  return static_cast<double>(static_cast<long double>(a) / static_cast<long double>(b));
}

// Python float // float and float % float.
inline double python_float_floordiv(double a, double b) { return std::floor(a / b); }
inline double python_float_mod(double a, double b) {
  double r = std::fmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

}  // namespace symshape
