#pragma once
// bound(expr): the value range of an expression by abstract interpretation over the
// ranges of its symbols (semantics.md B.2, PyTorch's bound_sympy).
#include <functional>
#include <span>

#include "expr/expr.h"
#include "expr/value_range.h"

namespace symshape {

// Range of a symbol; the default derives it from the symbol's facts
// ([1, int_oo] positive integer, [0, int_oo] non-negative integer, [-int_oo, int_oo]
// other integers, [-oo, oo] floats). Mod/PythonMod nodes are bounded with Python
// semantics (sound for negative operands), the vr::mod transfer function with PyTorch's
// C-truncation rule.
using SymbolRangeFn = std::function<ValueRange(SymbolId)>;

ValueRange default_symbol_range(const ExprArena& arena, SymbolId s);
// Ranges indexed by SymbolId (entries beyond the vector use the default).
ValueRange bound(const ExprArena& arena, ExprId e, std::span<const ValueRange> symbol_ranges);
ValueRange bound(const ExprArena& arena, ExprId e, const SymbolRangeFn& symbol_range);
// bound() with Python's remainder rule applied exactly (Mod by y > 0 lies in [0, y - 1] and
// not above a non-negative dividend). Sharper than PyTorch's bound_sympy, so only the
// decision procedures (equality.h) use it: the ShapeEnv keeps PyTorch's ranges and guards.
ValueRange sharp_bound(const ExprArena& arena, ExprId e, std::span<const ValueRange> symbol_ranges);
// One step of bound(): the range of non-symbol node `e` from its operands' ranges (for
// callers that memoise ranges per node, like the ShapeEnv).
ValueRange bound_node(const ExprArena& arena, ExprId e, std::span<const ValueRange> operand_ranges);

}  // namespace symshape
