#pragma once
// Names PyTorch's spec loader refuses as Dim names: `sympy.sympify(name)` is not a Symbol for
// sympy's own names (`gamma`, `E`, `I`, `pi`, `oo`, `N`, `S`, `Symbol`, ...), Python builtins
// (`print`, `abs`) and keywords, so `_load_dynamic_shapes` raises "Expected `spec['dims']`
// keys to be symbols, got gamma" (F.6). The table is generated (scripts/sympy_names.py).
#include <string_view>

namespace symshape::spec {

bool sympify_is_not_symbol(std::string_view name);

}  // namespace symshape::spec
