#pragma once
// Parsing of derived-dim expressions as written by dump ("2*dx + 1", "dx - 1"): the subset
// of sympy's syntax that _load_dynamic_shapes accepts (F.6), with its two errors.
#include <string_view>

#include "spec/dim.h"

namespace symshape::spec {

// `root` must be the only free symbol ("Expected derived expressions in to have {root} as the
// only free symbol, got {expr}") and the expression linear ("Expected derived expressions to
// be linear expressions, got {expr}"): UserError(INVALID_INPUT) otherwise.
LinearFn parse_derived(std::string_view expr, std::string_view root);

}  // namespace symshape::spec
