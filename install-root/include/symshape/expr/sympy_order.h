#pragma once
// SymPy's *printing* orders, distinct from the structural order of ExprArena::compare
// (Basic.compare, which orders Add/Mul arguments):
//  - default_sort_key (Expr.sort_key): orders Mul factors when printing, the generators
//    of a sum, and the arguments of a printed Max/Min;
//  - ordered(): node count first, then default_sort_key; the stored argument order of
//    Max, Min, And and Or (so the guard printer emits them in this order);
//  - as_ordered_terms: the lexicographic monomial order in which the `str` form prints a
//    sum (`2*s0 + s1`, `s0**2 + s0`, constant last, `1 - s0`).
#include <vector>

#include "expr/expr.h"

namespace symshape {

// <0, 0, >0 by SymPy's default_sort_key.
int sort_key_compare(const ExprArena& a, ExprId x, ExprId y);

// <0, 0, >0 by SymPy's ordered() keys (node count, then default_sort_key), with the
// structural order as the final tie-break so the result is total.
int ordered_compare(const ExprArena& a, ExprId x, ExprId y);

// Terms of `e` (an Add, else just `e`) in StrPrinter order.
void ordered_terms(const ExprArena& a, ExprId e, std::vector<ExprId>& out);

// Factors of `e` (a Mul, else just `e`) sorted by default_sort_key, numbers first.
void ordered_factors(const ExprArena& a, ExprId e, std::vector<ExprId>& out);

}  // namespace symshape
