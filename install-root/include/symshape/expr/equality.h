#pragma once
// Provable equality and tight ranges of expressions over symbol ranges: the decision
// procedures behind `symshape expr equal` / `expr bound`.
#include <span>

#include "expr/expr.h"
#include "expr/value_range.h"

namespace symshape {

// bound() refined by sum_bound() (Min/Max against the rest of a sum, floor divisions by
// one divisor compared through their numerators). Ranges are indexed by SymbolId.
ValueRange tight_bound(ExprArena& a, ExprId e, std::span<const ValueRange> symbol_ranges);

// True when x == y for every integer assignment within the ranges: the same canonical
// node, the same expanded form, both pinned to one value, or their expanded difference
// bounded to exactly 0 (relations: the same canonical boolean form). False means "not
// provable", not "different".
bool provably_equal(ExprArena& a, ExprId x, ExprId y, std::span<const ValueRange> symbol_ranges);

}  // namespace symshape
