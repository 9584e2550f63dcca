// Canonicalising builders for Max/Min, relations, And/Or/Not, Piecewise, the
// float <-> int conversions, bitwise ops, the dense-layout indicator, and `rebuild`.
#include <algorithm>
#include <cmath>

#include "core/checked_math.h"
#include "core/error.h"
#include "expr/expr.h"
#include "expr/inline_vec.h"
#include "expr/sympy_order.h"

namespace symshape {

namespace {

// Lower/upper bounds derived from structural facts only (SymPy assumptions): what a
// relation may fold on at construction time, without knowing any symbol's range.
struct FactBounds {
  double lo = -INFINITY, hi = INFINITY;
};

FactBounds fact_bounds(const ExprArena& a, ExprId e) {
  switch (a.kind(e)) {
    case ExprKind::Integer:
    case ExprKind::Float:
    case ExprKind::IntInfinity: {
      double v = a.float_value(e);
      return {v, v};
    }
    case ExprKind::Add: {
      FactBounds r{0, 0};
      for (ExprId t : a.operands(e)) {
        FactBounds b = fact_bounds(a, t);
        r.lo += b.lo;
        r.hi += b.hi;
      }
      if (std::isnan(r.lo)) r.lo = -INFINITY;
      if (std::isnan(r.hi)) r.hi = INFINITY;
      return r;
    }
    case ExprKind::Mul: {
      auto ops = a.operands(e);
      if (a.is_number(ops[0])) {
        // coefficient times a product whose sign is known from facts
        bool pos = true, nonneg = true;
        for (ExprId r : ops.subspan(1)) {
          pos = pos && a.is_positive(r) && a.is_integer(r);
          nonneg = nonneg && a.is_nonnegative(r);
        }
        const double c = a.float_value(ops[0]);
        FactBounds base{-INFINITY, INFINITY};
        if (pos) base = {1, INFINITY};
        else if (nonneg) base = {0, INFINITY};
        else return base;
        if (c >= 0) return {c * base.lo, c * base.hi};
        return {c * base.hi, c * base.lo};
      }
      break;
    }
    case ExprKind::FloorDiv: {
      // SymPy's FloorDiv is non-negative (never known positive) when its base is and its
      // divisor is positive: `(s - 1)//8` is, so Max(1, (s - 1)//8 + 1) folds as in PyTorch
      uint8_t memo = a.floordiv_nonneg_memo(e);
      if (memo == 0) {
        const bool nonneg = fact_bounds(a, a.operand(e, 0)).lo >= 0 && fact_bounds(a, a.operand(e, 1)).lo > 0;
        a.remember_floordiv_nonneg(e, nonneg);
        memo = nonneg ? 1 : 2;
      }
      if (memo == 1) return {0, INFINITY};
      break;
    }
    default: break;
  }
  if (a.is_positive(e)) return {a.is_integer(e) ? 1.0 : 0.0, INFINITY};
  if (a.is_nonnegative(e)) return {0, INFINITY};
  return {};
}

// One summand c * (product of factors) of x - y, viewed in place: no node is built for it.
struct VirtualTerm {
  double c;
  ExprId single;      // the factor when there is exactly one
  const ExprId* f;    // else the factors, in the arena's stable operand storage
  uint32_t n;
  std::span<const ExprId> factors() const { return n ? std::span<const ExprId>(f, n) : std::span<const ExprId>(&single, 1); }
};

void collect_terms(const ExprArena& a, ExprId e, double sign, InlineVec<VirtualTerm, 16>& out, double& constant) {
  const std::span<const ExprId> ts = a.kind(e) == ExprKind::Add ? a.operands(e) : std::span<const ExprId>();
  auto take = [&](ExprId t) {
    if (a.is_number(t)) {
      constant += sign * a.float_value(t);
      return;
    }
    VirtualTerm v{sign, t, nullptr, 0};
    if (a.kind(t) == ExprKind::Mul) {
      const auto ops = a.operands(t);
      const bool coef = a.is_number(ops[0]);
      if (coef) v.c = sign * a.float_value(ops[0]);
      const auto rest = ops.subspan(coef ? 1 : 0);
      if (rest.size() == 1) v.single = rest[0];
      else v = {v.c, ExprId{}, rest.data(), static_cast<uint32_t>(rest.size())};
    }
    // like terms cancel: x - x contributes nothing
    for (VirtualTerm& o : out) {
      const auto fo = o.factors(), fv = v.factors();
      if (std::equal(fo.begin(), fo.end(), fv.begin(), fv.end())) {
        o.c += v.c;
        return;
      }
    }
    out.push_back(v);
  };
  if (a.kind(e) == ExprKind::Add) {
    for (ExprId t : ts) take(t);
  } else {
    take(e);
  }
}

// Bounds of x - y from facts: decides relations at construction time. The difference is
// formed term by term in place (like terms cancel, as in the canonical sum) rather than
// built, so a relation does not leave a difference node behind in the arena.
FactBounds difference_bounds(const ExprArena& a, ExprId x, ExprId y) {
  if (!a.is_number(x) && !a.is_number(y) && (a.is_boolean(x) || a.is_boolean(y))) return {};
  InlineVec<VirtualTerm, 16> terms;
  double constant = 0;
  collect_terms(a, x, 1.0, terms, constant);
  collect_terms(a, y, -1.0, terms, constant);
  FactBounds r{constant, constant};
  for (const VirtualTerm& t : terms) {
    if (t.c == 0) continue;
    FactBounds base;
    if (t.n == 0) {
      base = fact_bounds(a, t.single);
    } else {
      bool pos = true, nonneg = true;
      for (ExprId f : t.factors()) {
        pos = pos && a.is_positive(f) && a.is_integer(f);
        nonneg = nonneg && a.is_nonnegative(f);
      }
      if (pos) base = {1, INFINITY};
      else if (nonneg) base = {0, INFINITY};
    }
    const double lo = t.c >= 0 ? t.c * base.lo : t.c * base.hi;
    const double hi = t.c >= 0 ? t.c * base.hi : t.c * base.lo;
    r.lo += lo;
    r.hi += hi;
  }
  if (std::isnan(r.lo)) r.lo = -INFINITY;
  if (std::isnan(r.hi)) r.hi = INFINITY;
  return r;
}

ExprKind negate_relation(ExprKind k) {
  switch (k) {
    case ExprKind::Eq: return ExprKind::Ne;
    case ExprKind::Ne: return ExprKind::Eq;
    case ExprKind::Lt: return ExprKind::Ge;
    case ExprKind::Le: return ExprKind::Gt;
    case ExprKind::Gt: return ExprKind::Le;
    case ExprKind::Ge: return ExprKind::Lt;
    default: return k;
  }
}

}  // namespace

// ---- Max / Min ------------------------------------------------------------------

namespace {

ExprId build_max_min(ExprArena& a, std::span<const ExprId> input, bool is_max) {
  const ExprKind self = is_max ? ExprKind::Max : ExprKind::Min;
  InlineVec<ExprId, 8> args;
  bool have_num = false;
  ExprId best_num;
  auto take = [&](auto& rec, ExprId e) -> void {
    if (a.kind(e) == self) {
      for (ExprId s : a.operands(e)) rec(rec, s);
      return;
    }
    if (a.is_number(e)) {
      if (!have_num) {
        best_num = e;
        have_num = true;
      } else {
        const double x = a.float_value(e), y = a.float_value(best_num);
        if (is_max ? x > y : x < y) best_num = e;
      }
      return;
    }
    if (std::find(args.begin(), args.end(), e) == args.end()) args.push_back(e);
  };
  for (ExprId e : input) take(take, e);
  if (have_num) {
    const double n = a.float_value(best_num);
    if (std::isinf(n)) {
      if ((n > 0) == is_max) return best_num;  // Max(int_oo, ...) = int_oo
      // Max(-int_oo, x) = x: the infinity is the identity
    } else {
      // Max(c, x...) with every x known >= c from facts drops c; Min returns c
      bool all_ge = !args.empty();
      for (ExprId x : args) all_ge = all_ge && fact_bounds(a, x).lo >= n;
      bool all_le = !args.empty();
      for (ExprId x : args) all_le = all_le && fact_bounds(a, x).hi <= n;
      if (is_max) {
        if (all_le) return best_num;
        if (!all_ge) args.push_back(best_num);
      } else {
        if (all_ge) return best_num;
        if (!all_le) args.push_back(best_num);
      }
    }
  }
  if (args.empty()) return have_num ? best_num : a.int_infinity(!is_max);
  if (args.size() == 1) return args[0];
  // stored in SymPy's ordered() order (node count, then default_sort_key)
  std::sort(args.begin(), args.end(), [&](ExprId x, ExprId y) { return ordered_compare(a, x, y) < 0; });
  return a.make_raw(self, args);
}

}  // namespace

ExprId ExprArena::max(ExprId a, ExprId b) {
  return memoized(kMemoMax, a, b.value, [&] {
    const ExprId v[2] = {a, b};
    return build_max_min(*this, v, true);
  });
}
ExprId ExprArena::max(std::span<const ExprId> args) { return build_max_min(*this, args, true); }
ExprId ExprArena::min(ExprId a, ExprId b) {
  return memoized(kMemoMin, a, b.value, [&] {
    const ExprId v[2] = {a, b};
    return build_max_min(*this, v, false);
  });
}
ExprId ExprArena::min(std::span<const ExprId> args) { return build_max_min(*this, args, false); }

// ---- relations ------------------------------------------------------------------

ExprId ExprArena::relation_memoized(ExprKind k, ExprId x, ExprId y) {
  return memoized(kMemoRelation + static_cast<uint32_t>(k), x, y.value, [&] { return relation_uncached(k, x, y); });
}

ExprId ExprArena::relation_uncached(ExprKind k, ExprId x, ExprId y) {
  if (is_number(x) && is_number(y)) {
    const double a = float_value(x), b = float_value(y);
    bool r = false;
    if (kind(x) == ExprKind::Integer && kind(y) == ExprKind::Integer) {
      r = integer_relation(k, payload(x), payload(y));
    } else {
      switch (k) {
        case ExprKind::Eq: r = a == b; break;
        case ExprKind::Ne: r = a != b; break;
        case ExprKind::Lt: r = a < b; break;
        case ExprKind::Le: r = a <= b; break;
        case ExprKind::Gt: r = a > b; break;
        case ExprKind::Ge: r = a >= b; break;
        default: break;
      }
    }
    return boolean(r);
  }
  if (is_bool_const(x) && is_bool_const(y) && (k == ExprKind::Eq || k == ExprKind::Ne))
    return boolean((x == y) == (k == ExprKind::Eq));
  if (x == y) return boolean(k == ExprKind::Eq || k == ExprKind::Le || k == ExprKind::Ge);
  if (!is_boolean(x) && !is_boolean(y)) {
    const FactBounds d = difference_bounds(*this, x, y);  // bounds of x - y
    switch (k) {
      case ExprKind::Eq:
      case ExprKind::Ne:
        if (d.lo > 0 || d.hi < 0) return boolean(k == ExprKind::Ne);
        // SymPy's Eq asks (x - y).is_zero, which its parity rules answer: an odd difference of
        // integers is not zero (Eq(2*a*b, 1) is False for integer a, b)
        if (is_integer(x) && is_integer(y)) {
          const int px = parity(x);
          if (px >= 0 && px + parity(y) == 1) return boolean(k == ExprKind::Ne);
        }
        break;
      case ExprKind::Lt:
        if (d.hi < 0) return true_id_;
        if (d.lo >= 0) return false_id_;
        break;
      case ExprKind::Le:
        if (d.hi <= 0) return true_id_;
        if (d.lo > 0) return false_id_;
        break;
      case ExprKind::Gt:
        if (d.lo > 0) return true_id_;
        if (d.hi <= 0) return false_id_;
        break;
      case ExprKind::Ge:
        if (d.lo >= 0) return true_id_;
        if (d.hi < 0) return false_id_;
        break;
      default: break;
    }
  }
  const ExprId ops[2] = {x, y};
  return make_raw(k, ops);
}


// ---- And / Or / Not -----------------------------------------------------------------

namespace {

ExprId build_junction(ExprArena& a, std::span<const ExprId> input, bool is_and) {
  const ExprKind self = is_and ? ExprKind::And : ExprKind::Or;
  const ExprId absorbing = is_and ? a.false_() : a.true_();
  const ExprId identity = is_and ? a.true_() : a.false_();
  InlineVec<ExprId, 8> args;
  bool absorbed = false;
  auto take = [&](auto& rec, ExprId e) -> void {
    if (a.kind(e) == self) {
      for (ExprId s : a.operands(e)) rec(rec, s);
      return;
    }
    if (e == absorbing) absorbed = true;
    if (e == identity) return;
    if (std::find(args.begin(), args.end(), e) == args.end()) args.push_back(e);
  };
  for (ExprId e : input) take(take, e);
  if (absorbed) return absorbing;
  // x and not x
  for (ExprId x : args)
    if (a.is_relation(x) || a.kind(x) == ExprKind::Not) {
      const ExprId nx = a.logical_not(x);
      if (std::find(args.begin(), args.end(), nx) != args.end()) return absorbing;
    }
  if (args.empty()) return identity;
  if (args.size() == 1) return args[0];
  // stored in SymPy's ordered() order (node count, then default_sort_key)
  std::sort(args.begin(), args.end(), [&](ExprId x, ExprId y) { return ordered_compare(a, x, y) < 0; });
  return a.make_raw(self, args);
}

}  // namespace

ExprId ExprArena::logical_and(std::span<const ExprId> args) { return build_junction(*this, args, true); }
ExprId ExprArena::logical_and(ExprId a, ExprId b) {
  return memoized(kMemoAnd, a, b.value, [&] {
    const ExprId v[2] = {a, b};
    return build_junction(*this, v, true);
  });
}
ExprId ExprArena::logical_or(std::span<const ExprId> args) { return build_junction(*this, args, false); }
ExprId ExprArena::logical_or(ExprId a, ExprId b) {
  return memoized(kMemoOr, a, b.value, [&] {
    const ExprId v[2] = {a, b};
    return build_junction(*this, v, false);
  });
}

ExprId ExprArena::logical_not(ExprId e) {
  return memoized(kMemoNot, e, 0, [&] { return logical_not_uncached(e); });
}

ExprId ExprArena::logical_not_uncached(ExprId e) {
  if (e == true_id_) return false_id_;
  if (e == false_id_) return true_id_;
  if (is_relation(e)) {
    const ExprId ops[2] = {operand(e, 0), operand(e, 1)};
    return make_raw(negate_relation(kind(e)), ops);
  }
  if (kind(e) == ExprKind::Not) return operand(e, 0);
  const ExprId ops[1] = {e};
  return make_raw(ExprKind::Not, ops);
}

// ---- Piecewise / conditionals ---------------------------------------------------------

ExprId ExprArena::piecewise(std::span<const ExprId> pairs) {
  std::vector<ExprId> out;
  for (size_t i = 0; i + 1 < pairs.size(); i += 2) {
    const ExprId value = pairs[i], cond = pairs[i + 1];
    if (cond == false_id_) continue;
    out.push_back(value);
    out.push_back(cond);
    if (cond == true_id_) break;
  }
  if (out.empty()) throw_error(ErrorKind::Value, "Piecewise with no true condition");
  if (out.size() == 2 && out[1] == true_id_) return out[0];
  if (out[1] == true_id_) return out[0];
  bool same = true;
  for (size_t i = 2; i < out.size(); i += 2) same = same && out[i] == out[0];
  if (same && out.back() == true_id_) return out[0];
  return make_raw(ExprKind::Piecewise, out);
}

ExprId ExprArena::sym_ite(ExprId c, ExprId t, ExprId f) {
  if (c == true_id_) return t;
  if (c == false_id_) return f;
  const ExprId pairs[4] = {t, c, f, true_id_};
  return piecewise(pairs);
}

ExprId ExprArena::bool_to_int(ExprId c) { return sym_ite(c, one_id_, zero_id_); }

// ---- float <-> int, opaque functions ------------------------------------------------------

namespace {

ExprId int_of_double(ExprArena& a, double v) {
  if (std::isnan(v)) return a.floating(v);
  if (std::isinf(v)) return a.int_infinity(v > 0);
  if (v >= 9.2233720368547758e18 || v < -9.2233720368547758e18) throw_error(ErrorKind::Overflow, "float to int overflow");
  return a.integer(static_cast<int64_t>(v));
}

}  // namespace

ExprId ExprArena::to_float(ExprId a) {
  if (is_number(a)) return floating(float_value(a));
  if (kind(a) == ExprKind::ToFloat || (facts(a) & kFactFloat)) return a;
  const ExprId ops[1] = {a};
  return make_raw(ExprKind::ToFloat, ops);
}

ExprId ExprArena::int_true_div(ExprId a, ExprId b) {
  if (is_number(a) && is_number(b)) {
    if (float_value(b) == 0.0) throw_error(ErrorKind::ZeroDivision, "division by zero");
    return floating(float_value(a) / float_value(b));
  }
  const ExprId ops[2] = {a, b};
  return make_raw(ExprKind::IntTrueDiv, ops);
}

ExprId ExprArena::float_true_div(ExprId a, ExprId b) {
  if (is_number(a) && is_number(b)) {
    if (float_value(b) == 0.0) throw_error(ErrorKind::ZeroDivision, "division by zero");
    return floating(float_value(a) / float_value(b));
  }
  const ExprId ops[2] = {a, b};
  return make_raw(ExprKind::FloatTrueDiv, ops);
}

ExprId ExprArena::float_pow(ExprId a, ExprId b) {
  if (is_number(a) && is_number(b)) return floating(std::pow(float_value(a), float_value(b)));
  const ExprId ops[2] = {a, b};
  return make_raw(ExprKind::FloatPow, ops);
}

ExprId ExprArena::trunc_to_int(ExprId a) {
  if (is_number(a)) return int_of_double(*this, std::trunc(float_value(a)));
  if (is_integer(a)) return a;
  const ExprId ops[1] = {a};
  return make_raw(ExprKind::TruncToInt, ops);
}
ExprId ExprArena::floor_to_int(ExprId a) {
  if (is_number(a)) return int_of_double(*this, std::floor(float_value(a)));
  if (is_integer(a)) return a;
  const ExprId ops[1] = {a};
  return make_raw(ExprKind::FloorToInt, ops);
}
ExprId ExprArena::ceil_to_int(ExprId a) {
  if (is_number(a)) return int_of_double(*this, std::ceil(float_value(a)));
  if (is_integer(a)) return a;
  const ExprId ops[1] = {a};
  return make_raw(ExprKind::CeilToInt, ops);
}
ExprId ExprArena::round_to_int(ExprId a) {
  if (is_number(a)) return int_of_double(*this, std::nearbyint(float_value(a)));  // round half to even
  if (is_integer(a)) return a;
  const ExprId ops[1] = {a};
  return make_raw(ExprKind::RoundToInt, ops);
}

double apply_opaque(OpaqueFn fn, double x) {
  switch (fn) {
    case OpaqueFn::Sqrt: return std::sqrt(x);
    case OpaqueFn::Log2: return std::log2(x);
    case OpaqueFn::Exp: return std::exp(x);
    case OpaqueFn::Log: return std::log(x);
    case OpaqueFn::Sin: return std::sin(x);
    case OpaqueFn::Cos: return std::cos(x);
    case OpaqueFn::Tan: return std::tan(x);
    case OpaqueFn::Sinh: return std::sinh(x);
    case OpaqueFn::Cosh: return std::cosh(x);
    case OpaqueFn::Tanh: return std::tanh(x);
    case OpaqueFn::Asin: return std::asin(x);
    case OpaqueFn::Acos: return std::acos(x);
    case OpaqueFn::Atan: return std::atan(x);
  }
  return x;
}

ExprId ExprArena::opaque_unary(OpaqueFn fn, ExprId a) {
  if (is_number(a)) return floating(apply_opaque(fn, float_value(a)));
  const ExprId ops[1] = {a};
  return make_raw(ExprKind::OpaqueUnary, ops, static_cast<int64_t>(fn));
}

// ---- bitwise, layout indicator ---------------------------------------------------------

ExprId ExprArena::bitwise_and(ExprId a, ExprId b) {
  if (kind(a) == ExprKind::Integer && kind(b) == ExprKind::Integer) return integer(payload(a) & payload(b));
  const ExprId ops[2] = {a, b};
  return make_raw(ExprKind::BitwiseAnd, ops);
}
ExprId ExprArena::bitwise_or(ExprId a, ExprId b) {
  if (kind(a) == ExprKind::Integer && kind(b) == ExprKind::Integer) return integer(payload(a) | payload(b));
  const ExprId ops[2] = {a, b};
  return make_raw(ExprKind::BitwiseOr, ops);
}

// PyTorch's eval_is_non_overlapping_and_dense: some permutation of the dims (a stable
// sort by stride) is contiguous, size-1 dims ignored. Python integers do not overflow: an
// expected stride beyond int64 can only be matched by no later dim.
bool non_overlapping_and_dense(std::span<const int64_t> sizes, std::span<const int64_t> strides) {
  const size_t n = sizes.size();
  if (n == 1) return strides[0] == 1 || sizes[0] < 2;
  constexpr size_t kInline = 16;
  size_t inline_perm[kInline];
  std::vector<size_t> heap_perm;
  size_t* perm = inline_perm;
  if (n > kInline) {
    heap_perm.resize(n);
    perm = heap_perm.data();
  }
  // stable insertion sort by stride (ranks are small)
  for (size_t i = 0; i < n; ++i) {
    size_t j = i;
    while (j > 0 && strides[perm[j - 1]] > strides[i]) {
      perm[j] = perm[j - 1];
      --j;
    }
    perm[j] = i;
  }
  int64_t expected = 1;
  bool beyond = false;  // expected stride no longer fits in int64
  for (size_t k = 0; k < n; ++k) {
    const size_t i = perm[k];
    if (sizes[i] == 1) continue;
    if (beyond || strides[i] != expected) return false;
    beyond = __builtin_mul_overflow(expected, sizes[i], &expected);
  }
  return true;
}

ExprId ExprArena::is_non_overlapping_and_dense(std::span<const ExprId> sizes, std::span<const ExprId> strides) {
  const size_t n = sizes.size();
  auto all_int = [&](std::span<const ExprId> v) {
    return std::all_of(v.begin(), v.end(), [&](ExprId e) { return kind(e) == ExprKind::Integer; });
  };
  if (n == 1 && ((kind(strides[0]) == ExprKind::Integer && payload(strides[0]) == 1) ||
                 (kind(sizes[0]) == ExprKind::Integer && payload(sizes[0]) < 2)))
    return one_id_;
  if (all_int(strides)) {
    // all sizes but the one with the largest stride known: that size does not matter
    size_t largest = 0;
    for (size_t i = 1; i < n; ++i)
      if (payload(strides[i]) >= payload(strides[largest])) largest = i;  // last of the largest (stable sort)
    bool others_known = true;
    for (size_t i = 0; i < n; ++i) others_known = others_known && (i == largest || kind(sizes[i]) == ExprKind::Integer);
    if (others_known && n > 0) {
      std::vector<int64_t> sz(n), st(n);
      for (size_t i = 0; i < n; ++i) {
        sz[i] = kind(sizes[i]) == ExprKind::Integer ? payload(sizes[i]) : 42;  // arbitrary, as PyTorch
        st[i] = payload(strides[i]);
      }
      return integer(non_overlapping_and_dense(sz, st) ? 1 : 0);
    }
  }
  std::vector<ExprId> ops(sizes.begin(), sizes.end());
  ops.insert(ops.end(), strides.begin(), strides.end());
  return make_raw(ExprKind::IsNonOverlappingAndDenseIndicator, ops);
}

// ---- rebuild --------------------------------------------------------------------------

ExprId ExprArena::rebuild(ExprKind k, std::span<const ExprId> o, int64_t payload) {
  switch (k) {
    case ExprKind::Integer:
    case ExprKind::Float:
    case ExprKind::IntInfinity:
    case ExprKind::True:
    case ExprKind::False:
    case ExprKind::Symbol: return make_raw(k, o, payload);
    case ExprKind::Add: return add(o);
    case ExprKind::Mul: return mul(o);
    case ExprKind::Pow:
      if (kind(o[1]) != ExprKind::Integer) return pow_by_natural(o[0], o[1]);
      return pow(o[0], this->payload(o[1]));
    case ExprKind::PowByNatural: return pow_by_natural(o[0], o[1]);
    case ExprKind::FloorDiv: return floordiv(o[0], o[1]);
    case ExprKind::CleanDiv: return clean_div(o[0], o[1]);
    case ExprKind::Mod: return mod(o[0], o[1]);
    case ExprKind::PythonMod: return python_mod(o[0], o[1]);
    case ExprKind::ModularIndexing: return modular_indexing(o[0], o[1], o[2]);
    case ExprKind::Max: return max(o);
    case ExprKind::Min: return min(o);
    case ExprKind::Piecewise: return piecewise(o);
    case ExprKind::BitwiseAnd: return bitwise_and(o[0], o[1]);
    case ExprKind::BitwiseOr: return bitwise_or(o[0], o[1]);
    case ExprKind::IsNonOverlappingAndDenseIndicator:
      return is_non_overlapping_and_dense(o.subspan(0, o.size() / 2), o.subspan(o.size() / 2));
    case ExprKind::ToFloat: return to_float(o[0]);
    case ExprKind::IntTrueDiv: return int_true_div(o[0], o[1]);
    case ExprKind::FloatTrueDiv: return float_true_div(o[0], o[1]);
    case ExprKind::FloatPow: return float_pow(o[0], o[1]);
    case ExprKind::TruncToInt: return trunc_to_int(o[0]);
    case ExprKind::FloorToInt: return floor_to_int(o[0]);
    case ExprKind::CeilToInt: return ceil_to_int(o[0]);
    case ExprKind::RoundToInt: return round_to_int(o[0]);
    case ExprKind::OpaqueUnary: return opaque_unary(static_cast<OpaqueFn>(payload), o[0]);
    case ExprKind::Eq:
    case ExprKind::Ne:
    case ExprKind::Lt:
    case ExprKind::Le:
    case ExprKind::Gt:
    case ExprKind::Ge: return relation(k, o[0], o[1]);
    case ExprKind::And: return logical_and(o);
    case ExprKind::Or: return logical_or(o);
    case ExprKind::Not: return logical_not(o[0]);
  }
  return make_raw(k, o, payload);
}

}  // namespace symshape
