#pragma once
// The two printed forms of PyTorch (semantics.md A.9): the internal `str` form
// (`Eq(s0, 2)`, `(s0//2)`, `2*s0 + 1`) and the Python guard form, where each symbol
// prints as a source (`L['x'].size()[0]`) and sums follow argument order.
#include <functional>
#include <string>
#include <string_view>

#include "expr/expr.h"

namespace symshape {

std::string to_str(const ExprArena& arena, ExprId e);

// Guard (Python source) form. `symbol_source` gives the printed source for a symbol;
// the default prints the symbol's name.
using SymbolSourceFn = std::function<std::string(ExprId symbol)>;
std::string to_guard_str(const ExprArena& arena, ExprId e, const SymbolSourceFn& symbol_source = {});

}  // namespace symshape
