#pragma once
// Parser for the internal `str` syntax and the Python guard syntax (round-trips with
// printer.h). Unknown identifiers become symbols through `resolve_symbol`; the default
// creates them as integer symbols: `s<N>` backed positive, `u<N>` unbacked, other names
// integer without sign facts.
#include <functional>
#include <string_view>

#include "expr/expr.h"

namespace symshape {

struct ParseOptions {
  // Build nodes without canonicalisation (for tests of unsimplified input).
  bool raw = false;
  // Maps an identifier (or a source such as `L['x'].size()[0]`) to an expression.
  std::function<ExprId(std::string_view name)> resolve_symbol;
};

// Throws Error(Parse) with the column of the problem.
ExprId parse_expr(ExprArena& arena, std::string_view text, const ParseOptions& options = {});

// Default symbol policy of the parser/CLI: s<N> backed positive integer, u<N> unbacked
// integer, anything else an integer symbol without sign facts.
ExprId default_symbol(ExprArena& arena, std::string_view name);

}  // namespace symshape
