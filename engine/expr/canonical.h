#pragma once
// Boolean canonical form (semantics.md A.8) and isolation of a symbol in a relation
// (try_solve, B.5). Used by static evaluation, axioms and runtime asserts.
#include <optional>

#include "expr/expr.h"

namespace symshape {

// Gt/Ge flipped to Lt/Le, everything moved right, gcd divided out, negative summands
// moved left; And/Or/Not converted to CNF first.
ExprId canonicalize_bool(ExprArena& arena, ExprId e);

// The canonical form of a relation `l op r` between non-boolean operands, in parts:
// everything moves to the side of `moved_to` (Gt/Ge become Lt/Le), so the relation is
// `canonical_relation_kind(op)(sides(moved_to - moved_from))`. Relations that share a
// difference (a > b, a <= b, a >= b; a < b, a != b, a == b) share its sides.
inline ExprKind canonical_relation_kind(ExprKind k) {
  return k == ExprKind::Gt ? ExprKind::Lt : k == ExprKind::Ge ? ExprKind::Le : k;
}
// The relation with its operands swapped: `a < b` is `b > a`; Eq and Ne are symmetric.
inline ExprKind mirror(ExprKind k) {
  switch (k) {
    case ExprKind::Lt: return ExprKind::Gt;
    case ExprKind::Le: return ExprKind::Ge;
    case ExprKind::Gt: return ExprKind::Lt;
    case ExprKind::Ge: return ExprKind::Le;
    default: return k;
  }
}

struct RelationOperands {
  ExprId moved_from, moved_to;
};
inline RelationOperands canonical_relation_operands(ExprKind k, ExprId l, ExprId r) {
  if (k == ExprKind::Gt || k == ExprKind::Ge) return {r, l};
  return {l, r};
}
struct RelationSides {
  ExprId lhs, rhs;
};
// gcd of the integer coefficients divided out, negative summands moved left (negated).
RelationSides canonical_relation_sides(ExprArena& arena, ExprId difference);

struct Solution {
  ExprKind op;  // Eq, Ne, Lt, Le, Gt, Ge: `target op rhs`
  ExprId rhs;
};
// Isolates `target` on the left of relation `rel`. `floordiv_inequality` enables the
// FloorDiv step of B.5 (off when solving for replacements).
std::optional<Solution> try_solve(ExprArena& arena, ExprId rel, ExprId target, bool floordiv_inequality = true);

}  // namespace symshape
