#pragma once
// Boolean canonical form (semantics.md A.8) and isolation of a symbol in a relation
// (try_solve, B.5). Used by static evaluation, axioms and runtime asserts.
#include <optional>

#include "expr/expr.h"

namespace symshape {

// Gt/Ge flipped to Lt/Le, everything moved right, gcd divided out, negative summands
// moved left; And/Or/Not converted to CNF first.
ExprId canonicalize_bool(ExprArena& arena, ExprId e);

struct Solution {
  ExprKind op;  // Eq, Ne, Lt, Le, Gt, Ge: `target op rhs`
  ExprId rhs;
};
// Isolates `target` on the left of relation `rel`. `floordiv_inequality` enables the
// FloorDiv step of B.5 (off when solving for replacements).
std::optional<Solution> try_solve(ExprArena& arena, ExprId rel, ExprId target, bool floordiv_inequality = true);

}  // namespace symshape
