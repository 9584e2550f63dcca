#pragma once
// Private to engine/shape_env: scratch lists of a few symbols / expressions, inline, so
// asking a question does not allocate.
#include "expr/expr.h"
#include "expr/inline_vec.h"

namespace symshape {

using SymbolList = InlineVec<ExprId, 8>;

}  // namespace symshape
