#pragma once
// Evaluation of a GuardProgram over ExampleColumns: blocks of kBlock examples, every
// instruction one loop over the block's lanes with xsimd batches, the instruction set
// chosen at run time (SSE2 / AVX2 / AVX-512, or a plain scalar loop), blocks spread over
// threads with TBB. Each example's verdict is the first clause it fails, so the result is
// the same for every ISA, block split and thread count.
#include <cstdint>
#include <span>

#include "batch/example_columns.h"
#include "batch/guard_program.h"

namespace symshape {

enum class Isa : uint8_t { Scalar, Sse2, Avx2, Avx512 };
const char* isa_name(Isa isa);
bool isa_available(Isa isa);
// The best ISA of this CPU, or the one SYMSHAPE_ISA (scalar|sse2|avx2|avx512) asks for
// when this CPU has it.
Isa default_isa();

// Why an example failed.
enum class GuardFailure : uint8_t { None, False, Overflow, Rank };

inline constexpr int32_t kPass = -1;       // verdict: every clause holds
inline constexpr int32_t kRankFail = -2;   // verdict: an input's rank differs from the trace

struct GuardEvalOptions {
  Isa isa = default_isa();
  unsigned threads = 0;  // 0: TBB's default (all cores)
};

struct GuardEvalStats {
  uint64_t clauses = 0;  // one relation checked for one example
  uint64_t blocks = 0, narrow_blocks = 0;  // kernel blocks run, and those that ran the narrow variant
  uint64_t positive_blocks = 0;            // narrow blocks with every size >= 1 (Narrow::positive_skip)
  uint64_t bound_decided = 0;              // block-clause pairs decided by the block's least and greatest sizes
};

// For rows [begin, end) of `ex`: verdict[i] (i = row - begin) is kPass, kRankFail or the
// index of the first failing clause, failure[i] why.
// With `outputs` (one column per program output, end - begin long), outputs[k][i] is output
// k for that example, or kNoOutputValue (INT64_MIN) when it failed a clause or the value overflowed.
void evaluate_guards(const GuardProgram& p, const ExampleColumns& ex, size_t begin, size_t end, int32_t* verdict,
                     GuardFailure* failure, const GuardEvalOptions& options = {}, GuardEvalStats* stats = nullptr,
                     std::span<int64_t* const> outputs = {});
inline constexpr int64_t kNoOutputValue = INT64_MIN;

// The scalar reference: the same verdicts from engine/expr's evaluate() per example
// (used by the property tests).
void evaluate_guards_reference(const Graph& graph, const Specialization& spec, const ExampleColumns& ex, int32_t* verdict);

}  // namespace symshape
