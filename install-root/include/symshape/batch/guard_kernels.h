#pragma once
// The block kernel of the guard evaluator, compiled once per instruction set
// (guard_kernels_<isa>.cpp, each with its own -m flags). Only plain data crosses this
// boundary: an ISA-specific translation unit must not share inline C++ with the others.
#include <cstddef>
#include <cstdint>

#include "batch/guard_program.h"

namespace symshape::guard_kernels {

inline constexpr size_t kBlock = 64;  // examples per kernel call: its registers stay in L1/L2 (a multiple of every vector width)

struct BlockArgs {
  const GuardProgram* program;
  const int64_t* const* columns;  // size columns, absolute row index
  const uint8_t* rank_ok;          // per lane of the block: 1 when every input rank matches
  size_t row0, lanes;              // rows [row0, row0 + lanes), lanes <= kBlock
  int64_t* regs;                   // num_registers * kBlock scratch
  int64_t* poison;                 // num_registers * kBlock scratch: 0/1 per lane
  int32_t* verdict;                // lanes
  uint8_t* failure;                // lanes (GuardFailure)
  uint64_t clauses = 0;            // out: relations checked
};

void run_block_scalar(BlockArgs& a);
void run_block_sse2(BlockArgs& a);
void run_block_avx2(BlockArgs& a);
void run_block_avx512(BlockArgs& a);

}  // namespace symshape::guard_kernels
