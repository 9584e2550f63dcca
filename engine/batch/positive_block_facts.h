#pragma once
// What holds for a live lane of a positive narrow block, clause by clause: every size the
// program reads is in [1, kNarrowSizeLimit), and every clause before the current one held
// (a lane that failed one is already decided). A clause those facts imply holds for every
// live lane there, so the kernels may skip it (GuardProgram::clause_positive) without
// changing any verdict: a lane failing an earlier clause keeps that clause as its verdict.
//
// Ceil-mode pooling traces pairs such as `(1 + ((-1 + H)//4)) != 1` followed by
// `1 + ((-1 + W)//4) < 1 + ((-1 + H)//4)*((-1 + W)//4) + ((-1 + H)//4) + ((-1 + W)//4)`: with
// a = (H - 1)//4 and b = (W - 1)//4, the second is `0 < a*b + a` after the common terms
// cancel, and with a != 0 (the first) and W >= 1 (so a >= 1, b >= 0) it always holds.
//
// The reasoning is interval arithmetic (bound_node) over facts: a range per symbol, and
// per sub-expression the range an earlier clause pinned it to (`c*t + k op 0` with one
// non-constant term t). Relations are decided on `rhs - lhs` with equal terms cancelled,
// so the correlated `b` on both sides above drops out. Every step is sound for the exact
// integer values; the caller skips a clause only where its computation cannot overflow.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "expr/expr.h"
#include "expr/value_range.h"

namespace symshape {

class PositiveBlockFacts {
 public:
  explicit PositiveBlockFacts(const ExprArena& arena) : ar_(arena) {}

  // Symbol `symbol_index` reads a size column: [1, kNarrowSizeLimit) in a positive block.
  void bind_size(uint32_t symbol_index);
  // True when `clause` holds under the facts.
  bool implies(ExprId clause);
  // Adds what `clause` holding tells (nothing when it has no usable form).
  void assume(ExprId clause);

 private:
  // sum of coef * product(factors) over terms, plus constant: rhs - lhs of a relation
  struct Term {
    std::vector<ExprId> factors;  // the Mul's non-constant operands, or the one term
    int64_t coef = 0;
    ExprId expr;  // the term without its coefficient when it is a node (one factor, or a Mul with coefficient 1)
  };
  struct Difference {
    std::vector<Term> terms;
    int64_t constant = 0;
    bool ok = true;  // false: a coefficient or constant overflowed int64, or a float term
  };
  Difference difference(ExprId lhs, ExprId rhs) const;
  void add_side(ExprId side, int64_t sign, Difference& d) const;
  ValueRange range(ExprId e);
  ValueRange range_of(const Difference& d);
  void refine(ExprId e, const ValueRange& r);

  const ExprArena& ar_;
  std::unordered_map<uint32_t, ValueRange> symbol_;  // symbol index -> range
  std::unordered_map<uint32_t, ValueRange> known_;   // ExprId -> range an earlier clause implies
  std::unordered_map<uint32_t, ValueRange> memo_;    // ExprId -> range under the current facts
};

}  // namespace symshape
