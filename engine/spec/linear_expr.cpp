// A tiny recursive-descent reader for derived-dim expressions: sums of integer multiples of
// symbols, with products, powers and division only recognised to be reported as non-linear.
#include "spec/linear_expr.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "spec/spec_error.h"

namespace symshape::spec {
namespace {

struct Value {
  int64_t constant = 0;
  std::vector<std::pair<std::string, int64_t>> linear;  // symbol -> coefficient
  std::vector<std::string> nonlinear_symbols;           // symbols seen in non-linear terms
  bool nonlinear = false;
  bool overflow = false;

  bool is_constant() const { return !nonlinear && linear.empty(); }
  void add_term(const std::string& sym, int64_t coef) {
    for (auto& [s, c] : linear)
      if (s == sym) {
        overflow |= __builtin_add_overflow(c, coef, &c);
        return;
      }
    linear.emplace_back(sym, coef);
  }
  std::vector<std::string> free_symbols() const {
    std::vector<std::string> out = nonlinear_symbols;
    for (auto& [s, c] : linear)
      if (c != 0 || nonlinear) out.push_back(s);
    return out;
  }
};

Value constant(int64_t c) {
  Value v;
  v.constant = c;
  return v;
}

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}
  bool ok = true;

  Value parse() {
    Value v = sum();
    skip();
    if (i_ != s_.size()) ok = false;
    return v;
  }

 private:
  void skip() {
    while (i_ < s_.size() && s_[i_] == ' ') ++i_;
  }
  bool eat(std::string_view tok) {
    skip();
    if (s_.substr(i_, tok.size()) != tok) return false;
    i_ += tok.size();
    return true;
  }
  static Value combine(Value a, const Value& b, int64_t sign) {
    a.overflow |= b.overflow;
    int64_t bc = 0;
    a.overflow |= __builtin_mul_overflow(b.constant, sign, &bc) || __builtin_add_overflow(a.constant, bc, &a.constant);
    for (auto& [s, c] : b.linear) a.add_term(s, sign * c);
    a.nonlinear |= b.nonlinear;
    a.nonlinear_symbols.insert(a.nonlinear_symbols.end(), b.nonlinear_symbols.begin(), b.nonlinear_symbols.end());
    return a;
  }
  static Value make_nonlinear(const Value& a, const Value& b) {
    Value r;
    r.nonlinear = true;
    for (const Value* v : {&a, &b}) {
      auto f = v->free_symbols();
      r.nonlinear_symbols.insert(r.nonlinear_symbols.end(), f.begin(), f.end());
    }
    return r;
  }
  static Value multiply(const Value& a, const Value& b) {
    if (!a.is_constant() && !b.is_constant()) return make_nonlinear(a, b);
    const Value& k = a.is_constant() ? a : b;
    Value r = a.is_constant() ? b : a;
    r.overflow |= k.overflow || __builtin_mul_overflow(r.constant, k.constant, &r.constant);
    for (auto& [s, c] : r.linear) r.overflow |= __builtin_mul_overflow(c, k.constant, &c);
    return r;
  }
  Value sum() {
    Value v = product();
    for (;;) {
      if (eat("+")) v = combine(v, product(), 1);
      else if (eat("-")) v = combine(v, product(), -1);
      else return v;
    }
  }
  Value product() {
    Value v = power();
    for (;;) {
      if (eat("**")) {  // handled in power(); a stray one is a syntax error
        ok = false;
        return v;
      }
      if (eat("*")) v = multiply(v, power());
      else if (eat("/")) v = make_nonlinear(v, power());  // rational coefficients are not linear
      else return v;
    }
  }
  Value power() {
    Value base = unary();
    if (!eat("**")) return base;
    Value exp = unary();
    if (exp.is_constant() && exp.constant == 1) return base;
    return make_nonlinear(base, exp);
  }
  Value unary() {
    if (eat("-")) return multiply(constant(-1), unary());
    if (eat("+")) return unary();
    return primary();
  }
  Value primary() {
    skip();
    Value v;
    if (eat("(")) {
      v = sum();
      if (!eat(")")) ok = false;
      return v;
    }
    size_t start = i_;
    if (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
        v.overflow |= __builtin_mul_overflow(v.constant, 10, &v.constant) ||
                      __builtin_add_overflow(v.constant, s_[i_] - '0', &v.constant);
        ++i_;
      }
      return v;
    }
    auto ident = [](char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); };
    while (i_ < s_.size() && ident(s_[i_])) ++i_;
    if (i_ == start) {
      ok = false;
      return v;
    }
    v.linear.emplace_back(std::string(s_.substr(start, i_ - start)), 1);
    return v;
  }

  std::string_view s_;
  size_t i_ = 0;
};

// sympy's str() of a linear expression, as PyTorch's messages print the sympified text:
// terms by symbol name, coefficient 1 omitted, the constant last (`1 + dx + zz` -> `dx + zz + 1`,
// `0*dx + 3` -> `3`).
std::string sympy_str(const Value& v) {
  std::vector<std::pair<std::string, int64_t>> terms;
  for (const auto& [sym, c] : v.linear)
    if (c != 0) terms.emplace_back(sym, c);
  std::sort(terms.begin(), terms.end());
  std::string out;
  auto append = [&](int64_t c, const std::string& body) {  // body empty: the constant
    const bool negative = c < 0;
    const uint64_t magnitude = negative ? uint64_t(0) - uint64_t(c) : uint64_t(c);
    const std::string abs_text = body.empty() ? std::to_string(magnitude)
                                 : magnitude == 1 ? body
                                                  : std::to_string(magnitude) + "*" + body;
    if (out.empty()) out = (negative ? "-" : "") + abs_text;
    else out += (negative ? " - " : " + ") + abs_text;
  };
  for (const auto& [sym, c] : terms) append(c, sym);
  if (v.constant != 0 || out.empty()) append(v.constant, "");
  return out;
}

}  // namespace

LinearFn parse_derived(std::string_view expr, std::string_view root) {
  auto not_linear = [&] {
    throw_invalid_input(fmt::format("Expected derived expressions to be linear expressions, got {}", expr));
  };
  if (expr.size() > 256) not_linear();
  Reader r(expr);
  Value v = r.parse();
  if (!r.ok || v.overflow) not_linear();
  // PyTorch prints the sympified expression: for a linear one, in sympy's order.
  const std::string printed = v.nonlinear ? std::string(expr) : sympy_str(v);
  for (const std::string& s : v.free_symbols())
    if (s != root)
      throw_invalid_input(
          fmt::format("Expected derived expressions in to have {} as the only free symbol, got {}", root, printed));
  if (v.free_symbols().empty())
    throw_invalid_input(
        fmt::format("Expected derived expressions in to have {} as the only free symbol, got {}", root, printed));
  if (v.nonlinear) not_linear();
  int64_t mul = 0;
  for (auto& [s, c] : v.linear) mul += c;  // only `root` remains
  return LinearFn{mul, v.constant};
}

}  // namespace symshape::spec
