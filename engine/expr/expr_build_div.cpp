// Canonicalising builders for FloorDiv, CleanDiv, CeilDiv, Mod, PythonMod and
// ModularIndexing (semantics.md A.4-A.6).
#include <algorithm>
#include <cmath>

#include "core/checked_math.h"
#include "core/error.h"
#include "expr/expr.h"
#include "expr/inline_vec.h"

namespace symshape {

namespace {

// Summands of `e` (itself if it is not a sum).
std::span<const ExprId> summands(const ExprArena& a, const ExprId& e) {
  if (a.kind(e) == ExprKind::Add) return a.operands(e);
  return {&e, 1};
}

// Factors of a product (itself if it is not a product).
std::span<const ExprId> factors(const ExprArena& a, const ExprId& e) {
  if (a.kind(e) == ExprKind::Mul) return a.operands(e);
  return {&e, 1};
}

bool is_int(const ExprArena& a, ExprId e) { return a.kind(e) == ExprKind::Integer; }

// Does the symbolic factor `f` divide the term `t` syntactically (as a factor or the base
// of a power factor)?
bool term_has_factor(ExprArena& a, ExprId t, ExprId f) {
  for (ExprId x : factors(a, t)) {
    if (x == f) return true;
    if (a.kind(x) == ExprKind::Pow && a.operand(x, 0) == f) return true;
  }
  return false;
}

// t / f for a factor f known to divide t syntactically.
ExprId divide_factor(ExprArena& a, ExprId t, ExprId f) {
  std::vector<ExprId> out;
  bool done = false;
  for (ExprId x : factors(a, t)) {
    if (!done && x == f) { done = true; continue; }
    if (!done && a.kind(x) == ExprKind::Pow && a.operand(x, 0) == f) {
      out.push_back(a.pow(f, a.payload(a.operand(x, 1)) - 1));
      done = true;
      continue;
    }
    out.push_back(x);
  }
  return a.mul(out);
}

// SymPy's `(e / q).is_integer` for a monomial q = c * f1 * f2 * ... (Mod's "q divides p"
// rule): every summand of e is an integer term whose coefficient c divides and that holds
// each symbolic factor of q (with its multiplicity). Mod(6*a, 2*a) is 0.
bool monomial_divides(ExprArena& a, ExprId e, ExprId q) {
  auto [cq, rest] = a.split_coefficient(q);
  if (cq == 0) return false;
  if (a.kind(rest) == ExprKind::Add) {
    // a sum divides only a single product holding it as a factor: SymPy's Mul cancels equal
    // bases, so Mod((a + 1)*(b + 1), b + 1) is 0 when built, but Mul does not distribute
    // over a sum, so an expanded numerator a*b + a + b + 1 stays a Mod (caformer's view)
    if (a.kind(e) == ExprKind::Add) return false;
    auto [ce, er] = a.split_coefficient(e);
    return ce % cq == 0 && a.is_integer(er) && term_has_factor(a, er, rest);
  }
  for (ExprId t : summands(a, e)) {
    auto [ct, tr] = a.split_coefficient(t);
    if (ct % cq != 0 || !a.is_integer(tr)) return false;
    ExprId left = tr;
    for (ExprId f : factors(a, rest)) {
      if (f == a.one()) continue;
      ExprId base = f;
      int64_t times = 1;
      if (a.kind(f) == ExprKind::Pow) {
        if (a.kind(a.operand(f, 1)) != ExprKind::Integer || a.payload(a.operand(f, 1)) < 1) return false;
        base = a.operand(f, 0);
        times = a.payload(a.operand(f, 1));
      }
      for (int64_t k = 0; k < times; ++k) {
        if (!term_has_factor(a, left, base)) return false;
        // only a repeated factor needs the quotient (the common single factor builds nothing)
        if (k + 1 < times || factors(a, rest).size() > 1) left = divide_factor(a, left, base);
      }
    }
  }
  return true;
}

// True when every summand of `e` has an integer coefficient divisible by k.
bool divisible_by_int(ExprArena& a, ExprId e, int64_t k) {
  for (ExprId t : summands(a, e)) {
    auto [c, rest] = a.split_coefficient(t);
    if (!a.is_integer(rest) || c % k != 0) return false;
  }
  return true;
}

ExprId divide_by_int(ExprArena& a, ExprId e, int64_t k) {
  std::vector<ExprId> out;
  for (ExprId t : summands(a, e)) {
    auto [c, rest] = a.split_coefficient(t);
    out.push_back(a.mul(a.integer(c / k), rest));
  }
  return a.add(out);
}

// Content/primitive-part decomposition of a sum: e = content * monomial * rest, with the
// integer content and the factors common to every summand (with their least exponent)
// divided out and the sign normalised so the last summand of `rest` is positive.
struct Primitive {
  int64_t content = 1;
  InlineVec<std::pair<ExprId, int64_t>, 4> monomial;
  ExprId rest;
};

void base_exponents(const ExprArena& a, ExprId t, InlineVec<std::pair<ExprId, int64_t>, 8>& out) {
  out.clear();
  for (ExprId f : factors(a, t)) {
    if (a.is_number(f)) continue;
    if (a.kind(f) == ExprKind::Pow && a.kind(a.operand(f, 1)) == ExprKind::Integer)
      out.emplace_back(a.operand(f, 0), a.payload(a.operand(f, 1)));
    else
      out.emplace_back(f, 1);
  }
}

bool primitive(ExprArena& a, ExprId e, Primitive& p) {
  const auto terms = a.operands(e);
  int64_t g = 0;
  InlineVec<std::pair<ExprId, int64_t>, 8> fs;
  for (size_t i = 0; i < terms.size(); ++i) {
    auto [c, rest] = a.split_coefficient(terms[i]);
    if (!a.is_integer(rest)) return false;
    g = gcd64(g, c);
    base_exponents(a, terms[i], fs);
    if (i == 0) {
      for (auto& f : fs) p.monomial.push_back(f);
      continue;
    }
    // keep the common factors with the least exponent
    InlineVec<std::pair<ExprId, int64_t>, 4> kept;
    for (auto& m : p.monomial)
      for (auto& f : fs)
        if (f.first == m.first) kept.emplace_back(m.first, std::min(m.second, f.second));
    p.monomial.clear();
    for (auto& k : kept) p.monomial.push_back(k);
  }
  if (g == 0) return false;
  const int64_t last = a.split_coefficient(terms.back()).first;
  p.content = last < 0 ? -g : g;
  InlineVec<ExprId, 8> divided;
  for (ExprId t : terms) {
    auto [c, rest] = a.split_coefficient(t);
    InlineVec<ExprId, 8> parts;
    parts.push_back(a.integer(c / p.content));
    base_exponents(a, t, fs);
    for (auto& f : fs) {
      int64_t k = f.second;
      for (auto& m : p.monomial)
        if (m.first == f.first) k -= m.second;
      if (k > 0) parts.push_back(a.pow(f.first, k));
    }
    divided.push_back(a.mul(parts));
  }
  p.rest = a.add(divided);
  return true;
}

ExprId monomial_times(ExprArena& a, int64_t c, std::span<const std::pair<ExprId, int64_t>> mono,
                      std::span<const std::pair<ExprId, int64_t>> minus) {
  InlineVec<ExprId, 8> parts;
  parts.push_back(a.integer(c));
  for (auto& m : mono) {
    int64_t k = m.second;
    for (auto& x : minus)
      if (x.first == m.first) k -= std::min(k, x.second);
    if (k > 0) parts.push_back(a.pow(m.first, k));
  }
  return a.mul(parts);
}

}  // namespace

ExprId ExprArena::floordiv(ExprId base, ExprId divisor) {
  return memoized(kMemoFloorDiv, base, divisor.value, [&] { return floordiv_uncached(base, divisor); });
}

ExprId ExprArena::floordiv_uncached(ExprId base, ExprId divisor) {
  if (divisor == zero_id_) throw_error(ErrorKind::ZeroDivision, "division by zero");
  const bool inf_b = kind(base) == ExprKind::IntInfinity, inf_d = kind(divisor) == ExprKind::IntInfinity;
  if (inf_b && inf_d) return floating(std::numeric_limits<double>::quiet_NaN());
  if ((kind(base) == ExprKind::Float && std::isnan(float_value(base))) ||
      (kind(divisor) == ExprKind::Float && std::isnan(float_value(divisor))))
    return floating(std::numeric_limits<double>::quiet_NaN());
  if (base == zero_id_) return zero_id_;
  if (divisor == one_id_) return base;
  if (is_int(*this, divisor) && payload(divisor) == -1) return neg(base);
  if ((inf_b || inf_d) && is_number(base) && is_number(divisor)) {
    const double q = std::floor(float_value(base) / float_value(divisor));
    if (std::isinf(q)) return int_infinity(q > 0);
    return integer(static_cast<int64_t>(q));
  }
  if (is_int(*this, base) && is_int(*this, divisor)) return integer(floor_div(payload(base), payload(divisor)));
  if (kind(base) == ExprKind::Float || kind(divisor) == ExprKind::Float) {
    if (is_number(base) && is_number(divisor)) return floating(std::floor(float_value(base) / float_value(divisor)));
  }
  // nested: (a // b) // c -> a // (b*c)
  if (kind(base) == ExprKind::FloorDiv || kind(base) == ExprKind::CleanDiv)
    return floordiv(operand(base, 0), mul(operand(base, 1), divisor));

  if (is_int(*this, divisor)) {
    // pull out every summand divisible by the integer divisor
    const int64_t k = payload(divisor);
    InlineVec<ExprId, 8> pulled, rest;
    for (ExprId t : summands(*this, base)) {
      auto [c, r] = split_coefficient(t);
      if (is_integer(r) && c % k == 0) pulled.push_back(mul(integer(c / k), r));
      else rest.push_back(t);
    }
    if (!pulled.empty()) {
      pulled.push_back(floordiv(add(rest), divisor));
      return add(pulled);
    }
  }

  // common factor cancellation (PyTorch's simple_floordiv_gcd): integer gcd of all
  // coefficients, times every factor of the divisor that is, as written, a factor of every
  // summand of the base: s1**2 cancels from s0*s1**2, s1 does not (SymPy's Mul.make_args)
  {
    auto [dc, drest] = split_coefficient(divisor);
    int64_t g = dc;
    for (ExprId t : summands(*this, base)) g = gcd64(g, split_coefficient(t).first);
    if (g < 0) g = -g;
    ExprId b = base, d = divisor;
    bool changed = false;
    if (g > 1) {
      b = divide_by_int(*this, b, g);
      d = divide_by_int(*this, d, g);
      changed = true;
    }
    if (drest != one_id_) {
      std::vector<ExprId> dfactors(factors(*this, drest).begin(), factors(*this, drest).end());
      auto written_factor = [&](ExprId t, ExprId f) {
        for (ExprId x : factors(*this, t))
          if (x == f) return true;
        return false;
      };
      for (ExprId f : dfactors) {
        bool in_all = written_factor(d, f);
        for (ExprId t : summands(*this, b)) in_all = in_all && written_factor(t, f);
        if (!in_all) continue;
        std::vector<ExprId> nb;
        for (ExprId t : summands(*this, b)) nb.push_back(divide_factor(*this, t, f));
        b = add(nb);
        d = divide_factor(*this, d, f);
        changed = true;
      }
    }
    if (changed) return floordiv(b, d);
  }
  // polynomial gcd for a sum divisor (the part of SymPy's gcd PyTorch relies on): when
  // base and divisor share their primitive part R, floor(cb*mb*R / (cd*md*R)) is
  // floor(cb*mb / (cd*md)) for any R != 0
  if (kind(divisor) == ExprKind::Add && kind(base) == ExprKind::Add) {
    Primitive pb, pd;
    if (primitive(*this, base, pb) && primitive(*this, divisor, pd) && pb.rest == pd.rest) {
      const int64_t g = gcd64(pb.content, pd.content);
      InlineVec<std::pair<ExprId, int64_t>, 4> common;
      for (auto& m : pb.monomial)
        for (auto& n : pd.monomial)
          if (m.first == n.first) common.emplace_back(m.first, std::min(m.second, n.second));
      return floordiv(monomial_times(*this, pb.content / g, pb.monomial, common),
                      monomial_times(*this, pd.content / g, pd.monomial, common));
    }
  }
  const ExprId ops[2] = {base, divisor};
  return make_raw(ExprKind::FloorDiv, ops);
}

ExprId ExprArena::clean_div(ExprId a, ExprId b) {
  return memoized(kMemoCleanDiv, a, b.value, [&] { return clean_div_uncached(a, b); });
}

ExprId ExprArena::clean_div_uncached(ExprId a, ExprId b) {
  ExprId r = floordiv(a, b);
  if (kind(r) == ExprKind::FloorDiv) return make_raw(ExprKind::CleanDiv, operands(r));
  return r;
}

ExprId ExprArena::ceildiv(ExprId a, ExprId b) {
  return memoized(kMemoCeilDiv, a, b.value, [&] { return ceildiv_uncached(a, b); });
}

ExprId ExprArena::ceildiv_uncached(ExprId a, ExprId b) {
  // CleanDiv when b divides a syntactically, else (a + (b - 1)) // b
  if (is_int(*this, b) && payload(b) != 0 && divisible_by_int(*this, a, payload(b))) return clean_div(a, b);
  if (a == b) return one_id_;
  return floordiv(add(a, sub(b, one_id_)), b);
}

int ExprArena::parity(ExprId e) const {
  switch (kind(e)) {
    case ExprKind::Integer: return static_cast<int>(payload(e) & 1);
    case ExprKind::Mul: {
      int p = 1;
      for (ExprId f : operands(e)) {
        const int q = parity(f);
        if (q == 0) return 0;
        if (q < 0) p = -1;
      }
      return p;
    }
    case ExprKind::Add: {
      int p = 0;
      for (ExprId t : operands(e)) {
        const int q = parity(t);
        if (q < 0) return -1;
        p ^= q;
      }
      return p;
    }
    case ExprKind::Pow: return parity(operand(e, 0));
    default: return -1;
  }
}

ExprId ExprArena::mod(ExprId a, ExprId b) {
  return memoized(kMemoMod, a, b.value, [&] { return mod_uncached(a, b); });
}

ExprId ExprArena::mod_uncached(ExprId a, ExprId b) {
  if (is_nonnegative(a) && is_nonnegative(b)) {
    if (b == zero_id_) throw_error(ErrorKind::ZeroDivision, "Modulo by zero");
    if (a == zero_id_ || a == b || b == one_id_) return zero_id_;
    if (is_int(*this, a) && is_int(*this, b)) return integer(::symshape::python_mod(payload(a), payload(b)));
    if (is_int(*this, b) && payload(b) == 2) {
      int p = parity(a);
      if (p >= 0) return integer(p);
    }
    if (is_int(*this, b) && divisible_by_int(*this, a, payload(b))) return zero_id_;
    // a / b is an integer expression when the monomial b divides every summand
    if (!is_int(*this, b) && monomial_divides(*this, a, b)) return zero_id_;
    // rule 6: 0 < a < b decidable -> a
    if (is_positive(a) && is_positive(b) && relation(ExprKind::Lt, a, b) == true_id_) return a;
    const ExprId ops[2] = {a, b};
    return make_raw(ExprKind::Mod, ops);
  }
  return python_mod(a, b);
}

ExprId ExprArena::python_mod(ExprId a, ExprId b) {
  return memoized(kMemoPythonMod, a, b.value, [&] { return python_mod_uncached(a, b); });
}

ExprId ExprArena::python_mod_uncached(ExprId a, ExprId b) {
  if (b == zero_id_) throw_error(ErrorKind::ZeroDivision, "Modulo by zero");
  if (a == zero_id_ || a == b || b == one_id_) return zero_id_;
  if (is_int(*this, b) && payload(b) == -1) return zero_id_;
  if (a == neg(b)) return zero_id_;
  if (is_int(*this, a) && is_int(*this, b)) return integer(::symshape::python_mod(payload(a), payload(b)));
  if (is_int(*this, b) && payload(b) == 2) {
    int p = parity(a);
    if (p >= 0) return integer(p);
  }
  if (is_int(*this, b) && divisible_by_int(*this, a, payload(b))) return zero_id_;
  if (!is_int(*this, b) && monomial_divides(*this, a, b)) return zero_id_;
  if (is_positive(a) && is_positive(b) && relation(ExprKind::Lt, a, b) == true_id_) return a;
  const ExprId ops[2] = {a, b};
  return make_raw(ExprKind::PythonMod, ops);
}

ExprId ExprArena::modular_indexing(ExprId a, ExprId b, ExprId c) {
  if (a == zero_id_ || c == one_id_) return zero_id_;
  if (is_int(*this, a) && is_int(*this, b) && is_int(*this, c)) {
    if (payload(b) == 0 || payload(c) == 0) throw_error(ErrorKind::ZeroDivision, "division by zero");
    return integer(::symshape::python_mod(floor_div(payload(a), payload(b)), payload(c)));
  }
  if (kind(a) == ExprKind::FloorDiv) return modular_indexing(operand(a, 0), mul(operand(a, 1), b), c);
  if (is_int(*this, b) && payload(b) > 1) {
    int64_t g = payload(b);
    for (ExprId t : summands(*this, a)) g = gcd64(g, split_coefficient(t).first);
    if (g > 1 && divisible_by_int(*this, a, g)) return modular_indexing(divide_by_int(*this, a, g), integer(payload(b) / g), c);
  }
  if (is_int(*this, b) && is_int(*this, c) && kind(a) == ExprKind::Add) {
    const int64_t bc = checked_mul(payload(b), payload(c));
    bool negative = false;
    for (ExprId t : summands(*this, a)) negative = negative || split_coefficient(t).first < 0;
    if (!negative) {
      std::vector<ExprId> kept;
      for (ExprId t : summands(*this, a)) {
        auto [co, r] = split_coefficient(t);
        if (!(is_integer(r) && co % bc == 0)) kept.push_back(t);
      }
      if (kept.size() != operands(a).size()) return modular_indexing(add(kept), b, c);
    }
  }
  const ExprId ops[3] = {a, b, c};
  return make_raw(ExprKind::ModularIndexing, ops);
}

}  // namespace symshape
