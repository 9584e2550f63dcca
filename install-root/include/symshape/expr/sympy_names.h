#pragma once
// The SymPy / torch.utils._sympy class names of expression nodes: one table for the
// structural order (classes outside ordering_of_classes compare by name) and for the
// printers (function-call syntax such as `Max(a, b)` or `OpaqueUnaryFn_sqrt(x)`).
#include <cstdint>
#include <string_view>

#include "expr/expr.h"

namespace symshape {

// Class name of a function-like node ("FloorDiv", "Max", "BitwiseFn_bitwise_and",
// "OpaqueUnaryFn_sqrt", "BooleanTrue", ...); "" for Integer/Symbol/Add/Mul/Pow and the
// relations, whose order and printing do not go by name.
std::string_view sympy_class_name(const ExprArena& a, ExprId e);
// The math function of an OpaqueUnary payload ("sqrt", "log2", ...), "?" if unknown.
std::string_view opaque_function_name(int64_t fn);

}  // namespace symshape
