#pragma once
// Overflow-checked int64 arithmetic and Python-semantics division. An overflow is an
// error (ErrorKind::Overflow), never a wrapped number.
#include <cstdint>
#include <optional>

#include "core/error.h"

namespace symshape {

inline int64_t checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw_error(ErrorKind::Overflow, "integer overflow in addition");
  return r;
}
inline int64_t checked_sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) throw_error(ErrorKind::Overflow, "integer overflow in subtraction");
  return r;
}
inline int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw_error(ErrorKind::Overflow, "integer overflow in multiplication");
  return r;
}
inline std::optional<int64_t> try_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}
inline std::optional<int64_t> try_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// Python floor division (rounds toward -inf). b != 0 is the caller's duty.
inline int64_t floor_div(int64_t a, int64_t b) {
  if (b == -1) return checked_sub(0, a);  // INT64_MIN / -1 overflows
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
// Python modulo: result has the sign of b.
inline int64_t python_mod(int64_t a, int64_t b) {
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}
inline int64_t gcd64(int64_t a, int64_t b) {
  uint64_t x = a < 0 ? 0 - static_cast<uint64_t>(a) : static_cast<uint64_t>(a);
  uint64_t y = b < 0 ? 0 - static_cast<uint64_t>(b) : static_cast<uint64_t>(b);
  while (y) { uint64_t t = x % y; x = y; y = t; }
  return static_cast<int64_t>(x);
}

}  // namespace symshape
