#pragma once
// The division normal form: a rewrite of an integer expression used only to *decide*
// equalities and ranges (equality.h), never to print or build guards, so PyTorch's printed
// canonical forms are untouched. Every step is an identity for every integer assignment
// within the symbol ranges (tests/expr/division_form_test.cpp checks each against
// brute-force evaluation):
//
// - remainders become divisions: `a % b = a - b*(a // b)` (Python's definition, any
//   b != 0); ModularIndexing(a, b, c) = (a // b) % c likewise;
// - floor division by an integer k splits off the multiples of k, leaving every
//   coefficient and the constant of the numerator in [0, k):
//   `(q*k*x + r*x + c) // k = q*x + (c // k) + (r*x + c % k) // k`; a negative k is
//   `(-a) // -k`; a quotient the numerator's range pins to one value becomes that value;
// - floor division by a symbolic divisor y known positive splits off the summands that
//   have y as a factor: `(y*z + r) // y = z + r // y`;
// - Min/Max of linear forms: the summands common to every argument and the least constant
//   are pulled out (`Min(a + c, b + c) = c + Min(a, b)`), an argument another one bounds
//   (`a - b <= 0` provable from the ranges) is dropped, and `Min(a, b) + Max(a, b)`
//   in a sum is `a + b`;
// - sums and products are expanded.
//
// Two expressions with the same value then usually have the same normal form, as TVM's
// canonical SumExpr does for index arithmetic; what remains differs in atoms the rules do
// not see through (see docs/expr.md).
#include <span>

#include "expr/expr.h"
#include "expr/value_range.h"

namespace symshape {

// The normal form of integer expression `e` (ranges indexed by SymbolId). Returns `e`
// itself when a helper node would overflow int64.
ExprId division_normal_form(ExprArena& arena, ExprId e, std::span<const ValueRange> symbol_ranges);

}  // namespace symshape
