// The guard block kernel for avx2 (this file alone is compiled with its -m flags, see
// engine/batch/CMakeLists.txt). Everything in it has internal linkage.
// libdivide's vector division for this ISA only (its functions are static inline).
#define LIBDIVIDE_AVX2
#include <xsimd/xsimd.hpp>

#include <cstdint>
#include <span>
#include <vector>

#include "batch/guard_kernels.h"

namespace {
#define ARCH xsimd::avx2
#define MUL_EPU32 _mm256_mul_epu32
#include "batch/guard_kernel_xsimd.inc"
#undef ARCH
#undef MUL_EPU32
#include "batch/guard_kernel_body.inc"
}  // namespace

void symshape::guard_kernels::run_block_avx2(BlockArgs& a) { run_block_impl<Vec>(a); }
