#pragma once
// Guards compiled for batch verdicts: the produced guards of one propagation as one
// BatchProgram over input-size columns. Column c of the caller's (rows x columns) int64
// array is size `dim` of input `placeholder` (inputs in graph order, dims in order); a
// column-contiguous (Fortran-order) array is read in place. A row is accepted when its
// ranks match the graph (implied by the layout), no guard evaluation overflows or divides
// by zero, every source equality holds and every guard is true: the same decision as the
// specialisation cache's scalar check, which `evaluate_scalar` runs row by row as the
// reference.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine_handle.h"
#include "expr/evaluate.h"

namespace symshape::py {

struct SizeColumn {
  uint32_t placeholder;
  uint32_t dim;
};

class GuardBatch {
 public:
  explicit GuardBatch(std::shared_ptr<const PropagationHandle> p);

  const std::vector<SizeColumn>& columns() const { return columns_; }
  std::vector<std::string> column_names() const;
  // col[c] points at `rows` values of column c. verdict[r] = 1 accepted, 0 rejected.
  void evaluate(const std::vector<const int64_t*>& col, size_t rows, uint8_t* verdict) const;
  void evaluate_scalar(const std::vector<const int64_t*>& col, size_t rows, uint8_t* verdict) const;
  size_t instruction_count() const { return program_->instruction_count(); }

 private:
  // Where a bound symbol's value comes from: a size column, a contiguous stride computed
  // from the row's sizes, or the storage offset (0 for the contiguous inputs).
  struct SymbolFeed {
    uint32_t symbol;       // arena symbol index
    InputSource source;
  };
  int32_t column_of(uint32_t placeholder, uint32_t dim) const;

  std::shared_ptr<const PropagationHandle> p_;
  std::vector<SizeColumn> columns_;
  std::vector<uint32_t> first_column_;        // by placeholder
  std::vector<SymbolFeed> feeds_;
  std::vector<InputSource> equality_sources_;  // parallel to the equality roots
  std::vector<ExprId> roots_;                  // guards, then equality right-hand sides
  size_t guard_roots_ = 0;
  uint32_t symbol_slots_ = 0;
  std::unique_ptr<BatchProgram> program_;
};

}  // namespace symshape::py
