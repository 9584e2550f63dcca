#pragma once
// A tighter range for sums than bound()'s term-by-term interval arithmetic, used by the
// decision procedures (provable equality, `expr bound`) when bound() alone cannot decide.
// Not the ShapeEnv's static evaluation, which decides what PyTorch's bound_sympy does. It
// never changes an expression, only what is known about it.
//
// Two rules, each exact for every integer assignment (tests/expr/sum_bound_test.cpp checks
// them against brute-force evaluation):
// - Min/Max against the rest of the sum: Min(a, b) + r = Min(a + r, b + r), so the range
//   is the Min of the ranges of the expanded a + r and b + r (Max likewise, and
//   -Min(a, b) + r = Max(r - a, r - b)). `Min(W, W + 1) - W` becomes Min(0, 1) = 0.
// - Floor divisions by one positive constant: x//c - y//c lies in
//   [floor(dlo/c), ceil(dhi/c)] where [dlo, dhi] bounds the expanded x - y; exact when
//   x - y is a multiple of c. `((W - 1)//32) + 1 - (W + 31)//32` is -1 + 1 = 0.
#include <functional>

#include "expr/expr.h"
#include "expr/value_range.h"

namespace symshape {

// Bounds a (sub)expression the caller's way (bound() with symbol ranges).
using ExprRangeFn = std::function<ValueRange(ExprId)>;

// The range of integer expression `e`: range_of(e) intersected with what the rules
// above prove. Builds only hash-consed helper nodes (a + r, x - y) in the arena.
// `remainders` adds a third rule (equality.h turns it on):
// - the division identity read backwards: a term c*(A // d) with d > 0 dividing c is
//   (c/d)*(A - r) with r in [0, d - 1] (and r <= A for A >= 0), so `x - 3*(x//3)` is
//   x - x + [0, 2]; `c*y*(A // y)` for a divisor y known positive likewise.
ValueRange sum_bound(ExprArena& arena, ExprId e, const ExprRangeFn& range_of, bool remainders = false);

}  // namespace symshape
