#include "expr/sympy_names.h"

namespace symshape {

namespace {

constexpr std::string_view kOpaqueFunctions[] = {"sqrt", "log2", "exp",  "log",  "sin",  "cos", "tan",
                                                 "sinh", "cosh", "tanh", "asin", "acos", "atan"};
constexpr std::string_view kOpaqueClasses[] = {
    "OpaqueUnaryFn_sqrt", "OpaqueUnaryFn_log2", "OpaqueUnaryFn_exp",  "OpaqueUnaryFn_log",  "OpaqueUnaryFn_sin",
    "OpaqueUnaryFn_cos",  "OpaqueUnaryFn_tan",  "OpaqueUnaryFn_sinh", "OpaqueUnaryFn_cosh", "OpaqueUnaryFn_tanh",
    "OpaqueUnaryFn_asin", "OpaqueUnaryFn_acos", "OpaqueUnaryFn_atan"};
static_assert(std::size(kOpaqueFunctions) == std::size(kOpaqueClasses));

bool known_opaque(int64_t fn) { return fn >= 0 && fn < static_cast<int64_t>(std::size(kOpaqueFunctions)); }

}  // namespace

std::string_view opaque_function_name(int64_t fn) { return known_opaque(fn) ? kOpaqueFunctions[fn] : "?"; }

std::string_view sympy_class_name(const ExprArena& a, ExprId e) {
  switch (a.kind(e)) {
    case ExprKind::IntInfinity: return a.payload(e) > 0 ? "IntInfinity" : "NegativeIntInfinity";
    case ExprKind::True: return "BooleanTrue";
    case ExprKind::False: return "BooleanFalse";
    case ExprKind::PowByNatural: return "PowByNatural";
    case ExprKind::FloorDiv: return "FloorDiv";
    case ExprKind::CleanDiv: return "CleanDiv";
    case ExprKind::Mod: return "Mod";
    case ExprKind::PythonMod: return "PythonMod";
    case ExprKind::ModularIndexing: return "ModularIndexing";
    case ExprKind::Max: return "Max";
    case ExprKind::Min: return "Min";
    case ExprKind::Piecewise: return "Piecewise";
    case ExprKind::BitwiseAnd: return "BitwiseFn_bitwise_and";
    case ExprKind::BitwiseOr: return "BitwiseFn_bitwise_or";
    case ExprKind::IsNonOverlappingAndDenseIndicator: return "IsNonOverlappingAndDenseIndicator";
    case ExprKind::ToFloat: return "ToFloat";
    case ExprKind::IntTrueDiv: return "IntTrueDiv";
    case ExprKind::FloatTrueDiv: return "FloatTrueDiv";
    case ExprKind::FloatPow: return "FloatPow";
    case ExprKind::TruncToInt: return "TruncToInt";
    case ExprKind::FloorToInt: return "FloorToInt";
    case ExprKind::CeilToInt: return "CeilToInt";
    case ExprKind::RoundToInt: return "RoundToInt";
    case ExprKind::OpaqueUnary: {
      const int64_t fn = a.payload(e);
      return known_opaque(fn) ? kOpaqueClasses[fn] : "OpaqueUnaryFn";
    }
    case ExprKind::And: return "And";
    case ExprKind::Or: return "Or";
    case ExprKind::Not: return "Not";
    default: return "";
  }
}

}  // namespace symshape
