#pragma once
// Canonical form of an arbitrary (possibly raw, unsimplified) expression: every node is
// rebuilt bottom-up through its canonicalising builder. On a canonical expression this is
// the identity (simplification is idempotent), so `canonical_form(raw) == built` is how the
// tests and the CLI compare a parsed raw input with the builders' result.
#include "expr/expr.h"

namespace symshape {

ExprId canonical_form(ExprArena& arena, ExprId e);

}  // namespace symshape
