#pragma once
// The block kernel of the guard evaluator, compiled once per instruction set
// (guard_kernels_<isa>.cpp, each with its own -m flags). Only plain data crosses this
// boundary: an ISA-specific translation unit must not share inline C++ with the others.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "batch/guard_program.h"


namespace symshape::guard_kernels {

// Examples per kernel call: large enough that the per-instruction dispatch is paid once
// for many lanes, small enough that a block's live registers stay in L2 (a multiple of
// every vector width). Measured in bench/batch_bench.cpp; see docs/batch.md.
inline constexpr size_t kBlock = 512;

struct BlockArgs {
  const GuardProgram* program;
  const int64_t* const* columns;  // size columns, absolute row index
  const uint8_t* rank_ok;          // per lane of the block: 1 when every input rank matches; null: all do
  size_t row0, lanes;              // rows [row0, row0 + lanes), lanes <= kBlock
  int64_t* regs;                   // num_registers * kBlock scratch
  int64_t* poison;                 // num_registers * kBlock scratch: 0/1 per lane
  const int64_t** reg_ptr;         // num_registers: where each register's values are read (a loaded size: its column)
  int64_t* state;                  // kBlock scratch: 0 while the example passes, else why it failed (encode_failure)
  int32_t* verdict;                // lanes
  uint8_t* failure;                // lanes (GuardFailure)
  int64_t* const* outputs = nullptr;  // per program output: lanes, or null for no outputs
  size_t prefetch_row0 = SIZE_MAX;  // the next block's first row, prefetched while this one runs; SIZE_MAX: none
  uint64_t clauses = 0;            // out: relations checked
  bool narrow = false;             // out: the block ran the narrow variant (GuardProgram::Narrow)
  bool positive = false;           // out: ... and skipped what holds in a positive block
  int64_t* column_min = nullptr;   // scratch per size column: the block's least size (narrow check only)
  int64_t* column_max = nullptr;   // ... and its greatest
  uint32_t bound_decided = 0;      // out: clauses the block bounds decided without lane work
};

// A lane's state once it failed: clause c false (reason 1) or poisoned (reason 2), or its
// rank differs (kRankState). 0 means "still passing", so a plain compare finds live lanes.
inline constexpr int64_t kRankState = -1;
// An output value an example does not have (it failed a clause, or the value overflowed).
inline constexpr int64_t kNoOutput = INT64_MIN;
constexpr int64_t encode_failure(uint32_t clause, int64_t reason) { return (int64_t(clause) + 1) * 4 + reason; }

void run_block_scalar(BlockArgs& a);
void run_block_sse2(BlockArgs& a);
void run_block_avx2(BlockArgs& a);
void run_block_avx512(BlockArgs& a);

}  // namespace symshape::guard_kernels
