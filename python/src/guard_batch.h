#pragma once
// Guards compiled for batch verdicts from Python: the batch engine's GuardProgram
// (engine/batch) of one propagation, evaluated over caller-owned int64 size columns
// borrowed without a copy (ExampleColumns::borrow). Column c of the caller's
// (rows x columns) array is size `dim` of input `placeholder` (inputs in graph order, dims
// in order).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "batch/guard_eval.h"
#include "batch/guard_program.h"
#include "engine_handle.h"

namespace symshape::py {

class GuardBatch {
 public:
  explicit GuardBatch(std::shared_ptr<const PropagationHandle> p);

  size_t num_columns() const { return num_columns_; }
  std::vector<std::string> column_names() const;
  const GuardProgram& program() const { return program_; }
  // verdict[r]: kPass, kRankFail or the index of the first failing clause (clause_text).
  void evaluate(const std::vector<const int64_t*>& col, size_t rows, int32_t* verdict, unsigned threads) const;
  // The same verdicts from the scalar evaluator, example by example (the reference).
  void evaluate_scalar(const std::vector<const int64_t*>& col, size_t rows, int32_t* verdict) const;

 private:
  std::shared_ptr<const PropagationHandle> p_;
  GuardProgram program_;
  size_t num_columns_ = 0;
};

}  // namespace symshape::py
