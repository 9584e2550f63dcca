// The guard block kernel for avx512 (this file alone is compiled with its -m flags, see
// engine/batch/CMakeLists.txt). Everything in it has internal linkage.
// GCC 12 flags the deliberately undefined lanes of AVX-512 shuffle intrinsics (libdivide's
// 64-bit high multiply) as maybe-uninitialized: a false positive inside the compiler's headers.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// libdivide's vector division for this ISA only (its functions are static inline).
#define LIBDIVIDE_AVX512
#include <xsimd/xsimd.hpp>

#include <cstdint>
#include <span>
#include <vector>

#include "batch/guard_kernels.h"

namespace {
#define ARCH xsimd::avx512bw
#define MUL_EPU32 _mm512_mul_epu32
#include "batch/guard_kernel_xsimd.inc"
#undef ARCH
#undef MUL_EPU32
#include "batch/guard_kernel_body.inc"
}  // namespace

void symshape::guard_kernels::run_block_avx512(BlockArgs& a) { run_block_impl<Vec>(a); }
