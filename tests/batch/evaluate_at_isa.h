#pragma once
// Test helper: a guard program evaluated over example columns with one forced instruction
// set (and thread count), every verdict, failure reason and the stats.
#include <vector>

#include "batch/guard_eval.h"
#include "batch/guard_program.h"

namespace symshape {

inline constexpr Isa kEveryIsa[] = {Isa::Scalar, Isa::Sse2, Isa::Avx2, Isa::Avx512};

struct IsaRun {
  std::vector<int32_t> verdict;
  std::vector<GuardFailure> why;
  GuardEvalStats stats;
};

inline IsaRun evaluate_at(const GuardProgram& p, const ExampleColumns& ex, Isa isa, unsigned threads = 0) {
  const size_t n = ex.num_examples();
  IsaRun r{std::vector<int32_t>(n, 99), std::vector<GuardFailure>(n), {}};
  GuardEvalOptions o;
  o.isa = isa;
  o.threads = threads;
  evaluate_guards(p, ex, 0, n, r.verdict.data(), r.why.data(), o, &r.stats);
  return r;
}

}  // namespace symshape
