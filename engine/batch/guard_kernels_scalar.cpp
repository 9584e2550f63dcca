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
};
#include "batch/guard_kernel_body.inc"
}  // namespace

void symshape::guard_kernels::run_block_scalar(BlockArgs& a) { run_block_impl<Vec>(a); }
