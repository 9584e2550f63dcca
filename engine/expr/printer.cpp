// The two printed forms (semantics.md A.9), reproducing SymPy's StrPrinter and PyTorch's
// PythonPrinter byte for byte: SymPy's precedence table decides every parenthesis
// (`parenthesize` wraps an operand whose precedence is <= the context's), the `str` form
// orders sums and products by SymPy's printing orders, the guard form keeps argument order.
#include "expr/printer.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "expr/float_format.h"
#include "expr/sympy_names.h"
#include "expr/sympy_order.h"

namespace symshape {

namespace {

// Concatenation by appends (GCC 12 misreports `"(" + std::string(...)` under -Wrestrict).
template <class... Parts>
std::string cat(const Parts&... parts) {
  std::string out;
  (out.append(std::string_view(parts)), ...);
  return out;
}

// SymPy's PRECEDENCE table.
constexpr double kOr = 20, kAnd = 30, kRelational = 35, kBitwiseOr = 36, kBitwiseAnd = 38, kAdd = 40, kMul = 50,
                 kPow = 60, kFunc = 70, kNot = 100, kAtom = 1000;
constexpr double kAtomContext = kAtom - 0.5;  // "parenthesise unless atomic"

bool negative_number(const ExprArena& a, ExprId e) { return a.is_number(e) && a.float_value(e) < 0; }

// PyTorch's divisions and modulos: Functions whose own `precedence` (35) is below Add's.
bool low_precedence_function(ExprKind k) {
  switch (k) {
    case ExprKind::FloorDiv:
    case ExprKind::CleanDiv:
    case ExprKind::Mod:
    case ExprKind::PythonMod:
    case ExprKind::ModularIndexing:
    case ExprKind::IntTrueDiv:
    case ExprKind::FloatTrueDiv: return true;
    default: return false;
  }
}

// sympy.printing.precedence.precedence for our node kinds (PyTorch's functions carry
// their own `precedence` attributes: 35 for the divisions and modulos, 50 for
// PowByNatural, 60 for FloatPow).
double precedence(const ExprArena& a, ExprId e) {
  if (low_precedence_function(a.kind(e))) return 35;
  switch (a.kind(e)) {
    case ExprKind::Integer:
    case ExprKind::Float: return negative_number(a, e) ? kAdd : kAtom;
    case ExprKind::IntInfinity:
    case ExprKind::Symbol:
    case ExprKind::True:
    case ExprKind::False:
    case ExprKind::Max:
    case ExprKind::Min: return kAtom;
    case ExprKind::Add: return kAdd;
    case ExprKind::Mul:
      // precedence_Mul: a factor that is a Function with its own precedence below Mul's
      // (PyTorch's divisions and modulos) makes the product bind as Mul, before the
      // minus-sign test that would make it bind as Add: `64 + (-1)*(x % 64)`.
      for (ExprId f : a.operands(e))
        if (low_precedence_function(a.kind(f))) return kMul;
      return negative_number(a, a.operand(e, 0)) ? kAdd : kMul;
    case ExprKind::Pow: return kPow;
    case ExprKind::PowByNatural: return kMul;
    case ExprKind::FloatPow: return kPow;
    case ExprKind::Eq:
    case ExprKind::Ne: return kMul;  // Equality/Unequality bind like multiplication
    case ExprKind::Lt:
    case ExprKind::Le:
    case ExprKind::Gt:
    case ExprKind::Ge: return kRelational;
    case ExprKind::And: return kAnd;
    case ExprKind::Or: return kOr;
    case ExprKind::Not: return kNot;
    default: return kFunc;
  }
}

const char* relation_op(ExprKind k) {
  switch (k) {
    case ExprKind::Eq: return "==";
    case ExprKind::Ne: return "!=";
    case ExprKind::Lt: return "<";
    case ExprKind::Le: return "<=";
    case ExprKind::Gt: return ">";
    default: return ">=";
  }
}

// ---- internal `str` form (SymPy StrPrinter + PyTorch's _sympystr overrides) ----------------

struct StrPrinter {
  const ExprArena& a;
  int level = 0;  // SymPy's _print_level: a Float printed below the top level drops trailing zeros

  std::string print(ExprId e) {
    ++level;
    std::string s = print_node(e);
    --level;
    return s;
  }
  std::string paren(ExprId e, double context) {
    if (precedence(a, e) <= context) return cat("(", print(e), ")");
    return print(e);
  }

  std::string print_add(ExprId e) {
    std::vector<ExprId> terms;
    ordered_terms(a, e, terms);
    std::string out;
    bool first = true;
    for (ExprId t : terms) {
      std::string s = print(t);
      char sign = '+';
      if (!s.empty() && s[0] == '-' && a.kind(t) != ExprKind::Add) {
        sign = '-';
        s.erase(0, 1);
      }
      if (precedence(a, t) < kAdd || a.kind(t) == ExprKind::Add) s = cat("(", s, ")");
      if (first) {
        if (sign == '-') out += '-';
      } else {
        out += sign == '-' ? " - " : " + ";
      }
      out += s;
      first = false;
    }
    return out;
  }

  std::string print_mul(ExprId e) {
    const double prec = precedence(a, e);
    const auto ops = a.operands(e);
    const bool has_coeff = a.is_number(ops[0]);
    const bool negative = has_coeff && a.float_value(ops[0]) < 0;
    // items: the coefficient made positive (unless it is the integer 1), then the other
    // factors in default_sort_key order
    std::vector<ExprId> factors;
    ordered_factors(a, e, factors);
    if (has_coeff) factors.erase(factors.begin());
    std::string coeff;  // printed |coefficient|, empty when omitted
    if (has_coeff) {
      if (a.kind(ops[0]) == ExprKind::Integer) {
        std::string digits = std::to_string(a.payload(ops[0]));  // no negation: INT64_MIN stays exact
        if (digits[0] == '-') digits.erase(0, 1);
        if (digits != "1") coeff = digits;
      } else {
        const double v = a.float_value(ops[0]);
        coeff = mpmath_float_str(negative ? -v : v, 15, true);  // below the top level: stripped
      }
    }
    std::string out;
    if (negative) out.push_back('-');
    const size_t items = factors.size() + (coeff.empty() ? 0 : 1);
    if (items == 1 && negative) {  // unary minus binds between Mul and Pow
      if (!coeff.empty()) return out.append(coeff);
      return out.append(paren(factors[0], 0.5 * (kPow + kMul)));
    }
    bool first = true;
    if (!coeff.empty()) {
      out.append(coeff);  // a positive number is atomic: never parenthesised
      first = false;
    }
    for (ExprId f : factors) {
      if (!first) out.push_back('*');
      out.append(paren(f, prec));
      first = false;
    }
    if (first) out.append("1");
    return out;
  }

  std::string join(std::span<const ExprId> args, const char* sep, double context) {
    std::string out;
    for (size_t i = 0; i < args.size(); ++i) {
      if (i) out += sep;
      out += paren(args[i], context);
    }
    return out;
  }

  std::string call(std::string_view name, std::span<const ExprId> args) {
    std::string out(name);
    out += '(';
    for (size_t i = 0; i < args.size(); ++i) {
      if (i) out += ", ";
      out += print(args[i]);
    }
    return out.append(")");
  }

  std::string print_node(ExprId e) {
    const auto ops = a.operands(e);
    switch (a.kind(e)) {
      case ExprKind::Integer: return std::to_string(a.payload(e));
      case ExprKind::Float: return mpmath_float_str(a.float_value(e), 15, level > 1);
      case ExprKind::IntInfinity: return a.payload(e) > 0 ? "int_oo" : "-int_oo";
      case ExprKind::True: return "True";
      case ExprKind::False: return "False";
      case ExprKind::Symbol: return std::string(a.symbol_name(e));
      case ExprKind::Add: return print_add(e);
      case ExprKind::Mul: return print_mul(e);
      case ExprKind::Pow: return cat(paren(ops[0], kPow), "**", paren(ops[1], kPow));
      case ExprKind::FloorDiv:
      case ExprKind::CleanDiv: return cat("(", paren(ops[0], kAtomContext), "//", paren(ops[1], kAtomContext), ")");
      case ExprKind::Eq:
      case ExprKind::Ne: return call(a.kind(e) == ExprKind::Eq ? "Eq" : "Ne", ops);
      case ExprKind::Lt:
      case ExprKind::Le:
      case ExprKind::Gt:
      case ExprKind::Ge:
        return cat(paren(ops[0], kRelational), " ", relation_op(a.kind(e)), " ", paren(ops[1], kRelational));
      case ExprKind::And: return join(ops, " & ", kBitwiseAnd);
      case ExprKind::Or: return join(ops, " | ", kBitwiseOr);
      case ExprKind::Not: return cat("~", paren(ops[0], kNot));
      case ExprKind::Max:
      case ExprKind::Min: {
        // LatticeOp printing re-sorts by default_sort_key
        std::vector<ExprId> args(ops.begin(), ops.end());
        std::stable_sort(args.begin(), args.end(), [&](ExprId x, ExprId y) { return sort_key_compare(a, x, y) < 0; });
        return call(sympy_class_name(a, e), args);
      }
      case ExprKind::Piecewise: {
        std::string out = "Piecewise(";
        for (size_t i = 0; i + 1 < ops.size(); i += 2) {
          if (i) out += ", ";
          ++level;  // the ExprCondPair level
          out += cat("(", print(ops[i]), ", ", print(ops[i + 1]), ")");
          --level;
        }
        return out.append(")");
      }
      default: return call(sympy_class_name(a, e), ops);
    }
  }
};

// ---- guard (Python source) form: PyTorch's PythonPrinter ------------------------------------

struct GuardPrinter {
  const ExprArena& a;
  const SymbolSourceFn& source;

  std::string paren(ExprId e, double context) {
    if (precedence(a, e) <= context) return cat("(", print(e), ")");
    return print(e);
  }
  std::string join(std::span<const ExprId> args, const char* sep, double context) {
    std::string out;
    for (size_t i = 0; i < args.size(); ++i) {
      if (i) out += sep;
      out += paren(args[i], context);
    }
    return out;
  }
  std::string wrap(std::string_view fn, ExprId x) { return cat(fn, "(", print(x), ")"); }

  std::string print(ExprId e) {
    const auto ops = a.operands(e);
    switch (a.kind(e)) {
      case ExprKind::Integer: return std::to_string(a.payload(e));
      case ExprKind::Float: {
        const double v = a.float_value(e);
        if (std::isinf(v)) return v > 0 ? "math.inf" : "-math.inf";
        return mpmath_float_str(v, 17, false);  // 53-bit floats need 17 digits to round-trip
      }
      case ExprKind::IntInfinity: return a.payload(e) > 0 ? "math.inf" : "-math.inf";
      case ExprKind::True: return "True";
      case ExprKind::False: return "False";
      case ExprKind::Symbol: return source ? source(e) : std::string(a.symbol_name(e));
      case ExprKind::Add: return join(ops, " + ", kAdd);
      case ExprKind::Mul: return join(ops, "*", precedence(a, e));
      case ExprKind::Pow: {
        const int64_t k = a.kind(ops[1]) == ExprKind::Integer ? a.payload(ops[1]) : -1;
        if (k < 0) throw_error(ErrorKind::Value, "guard printer: exponent must be a non-negative integer");
        if (k == 0) return "1";
        const std::string base = paren(ops[0], kMul);
        std::string out = base;
        for (int64_t i = 1; i < k; ++i) out.append("*").append(base);
        return out;
      }
      case ExprKind::PowByNatural:
      case ExprKind::FloatPow: return join(ops, " ** ", kPow);
      case ExprKind::FloorDiv:
      case ExprKind::CleanDiv: return join(ops, " // ", kAtomContext);
      case ExprKind::Mod:
      case ExprKind::PythonMod: return join(ops, " % ", kAtomContext);
      case ExprKind::ModularIndexing: {
        std::string x = paren(ops[0], kAtomContext);
        const std::string div = paren(ops[1], kAtomContext), mod = paren(ops[2], kAtomContext);
        if (div != "1") x = cat("(", x, " // ", div, ")");
        return cat("(", x, " % ", mod, ")");
      }
      case ExprKind::Max:
      case ExprKind::Min: {
        std::string out = a.kind(e) == ExprKind::Max ? "max(" : "min(";
        for (size_t i = 0; i < ops.size(); ++i) {
          if (i) out += ", ";
          out += print(ops[i]);
        }
        return out.append(")");
      }
      case ExprKind::Piecewise: {
        // e1 if c1 else (e2 if c2 else ... eN), built from the last pair outwards
        std::string result;
        bool have = false;
        for (size_t i = ops.size(); i >= 2; i -= 2) {
          const ExprId value = ops[i - 2], cond = ops[i - 1];
          const std::string v = print(value);
          if (a.kind(cond) == ExprKind::True || !have) {
            result = v;
          } else {
            result = cat("(", v, " if ", print(cond), " else ", result, ")");
          }
          have = true;
        }
        return have ? result : "0";
      }
      case ExprKind::BitwiseAnd: return join(ops, " & ", kBitwiseAnd);
      case ExprKind::BitwiseOr: return join(ops, " | ", kBitwiseOr);
      case ExprKind::ToFloat: return wrap("torch.sym_float", ops[0]);
      case ExprKind::IntTrueDiv: return join(ops, " / ", kAtomContext);
      case ExprKind::FloatTrueDiv: return cat("(", join(ops, " / ", kAtomContext), ")");
      case ExprKind::TruncToInt: return wrap("math.trunc", ops[0]);
      case ExprKind::FloorToInt: return wrap("math.floor", ops[0]);
      case ExprKind::CeilToInt: return wrap("math.ceil", ops[0]);
      case ExprKind::RoundToInt: return wrap("round", ops[0]);
      case ExprKind::OpaqueUnary: return wrap(cat("math.", opaque_function_name(a.payload(e))), ops[0]);
      case ExprKind::Eq:
      case ExprKind::Ne:
      case ExprKind::Lt:
      case ExprKind::Le:
      case ExprKind::Gt:
      case ExprKind::Ge: {
        const std::string sep = cat(" ", relation_op(a.kind(e)), " ");
        return join(ops, sep.c_str(), precedence(a, e));
      }
      case ExprKind::And: return join(ops, " and ", kAnd);
      case ExprKind::Or: return join(ops, " or ", kOr);
      case ExprKind::Not: return cat("not (", print(ops[0]), ")");
      case ExprKind::IsNonOverlappingAndDenseIndicator: {
        std::string out = "IsNonOverlappingAndDenseIndicator(";
        for (size_t i = 0; i < ops.size(); ++i) {
          if (i) out += ", ";
          out += print(ops[i]);
        }
        return out.append(")");
      }
    }
    return "?";
  }
};

}  // namespace

std::string to_str(const ExprArena& arena, ExprId e) { return StrPrinter{arena}.print(e); }

std::string to_guard_str(const ExprArena& arena, ExprId e, const SymbolSourceFn& symbol_source) {
  return GuardPrinter{arena, symbol_source}.print(e);
}

}  // namespace symshape
