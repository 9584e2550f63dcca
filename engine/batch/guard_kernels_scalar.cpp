// The guard block kernel as plain scalar loops: the reference path and the fallback for
// CPUs without a vector unit xsimd knows.
#include <cstdint>
#include <span>
#include <vector>

#include "batch/guard_kernels.h"

namespace {
struct Vec {
  using T = int64_t;
  static constexpr size_t W = 1;
  static T load(const int64_t* p) { return *p; }
  static void store(int64_t* p, T v) { *p = v; }
  static T broadcast(int64_t v) { return v; }
  static T add(T x, T y) { return int64_t(uint64_t(x) + uint64_t(y)); }
  static T sub(T x, T y) { return int64_t(uint64_t(x) - uint64_t(y)); }
  static T add_overflow(T x, T y, T r) { return ((x ^ r) & (y ^ r)) < 0; }
  static T sub_overflow(T x, T y, T r) { return ((x ^ y) & (x ^ r)) < 0; }
  static T min(T x, T y) { return x < y ? x : y; }
  static T max(T x, T y) { return x < y ? y : x; }
  static T eq(T x, T y) { return x == y; }
  static T lt(T x, T y) { return x < y; }
  static T band(T x, T y) { return x & y; }
  static T bor(T x, T y) { return x | y; }
  static T bxor1(T x) { return x ^ 1; }
  static T bxor(T x, T y) { return x ^ y; }
  using M = bool;
  static M eqm(T x, T y) { return x == y; }
  static M ltm(T x, T y) { return x < y; }
  static M nonzero(T x) { return x != 0; }
  static M mnot(M m) { return !m; }
  static M mand(M x, M y) { return x && y; }
  static M mor(M x, M y) { return x || y; }
  static M none() { return false; }
  static T select(M m, T x, T y) { return m ? x : y; }
  static bool any(M m) { return m; }
  static T mul_wrap(T x, T y) { return int64_t(uint64_t(x) * uint64_t(y)); }
  static bool mul_may_overflow(T x, T y) {
    const double p = double(x) * double(y);
    return p > 4.0e18 || p < -4.0e18;
  }
  static T mul32(T x, T y) { return int64_t(uint64_t(uint32_t(x)) * uint64_t(uint32_t(y))); }
  static T srl(T x, int s) { return int64_t(uint64_t(x) >> s); }
  static T udiv(T x, const libdivide::libdivide_u64_t* d) { return int64_t(libdivide::libdivide_u64_do(uint64_t(x), d)); }
  // Python's floor division and modulo for |x|, |y| < 2**50, y != 0
  static void floor_divmod_small(T x, T y, T& q, T& r) {
    q = x / y;
    r = x % y;
    if (r != 0 && ((r < 0) != (y < 0))) --q, r += y;
  }
};
#include "batch/guard_kernel_body.inc"
}  // namespace

void symshape::guard_kernels::run_block_scalar(BlockArgs& a) { run_block_impl<Vec>(a); }
