// bound(expr): abstract interpretation of an expression DAG over value ranges
// (semantics.md B.2, PyTorch's bound_sympy). One forward sweep over the reachable nodes
// in id order, so shared sub-expressions are bounded once.
#include "expr/bound.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

#include "expr/expr_walk.h"

namespace symshape {

ValueRange default_symbol_range(const ExprArena& arena, SymbolId s) {
  const uint8_t f = arena.symbol_info(s).facts;
  if (f & kFactInteger) {
    if (f & kFactPositive) return {ExtNum::of(1), ExtNum::int_oo()};
    if (f & kFactNonNegative) return {ExtNum::of(0), ExtNum::int_oo()};
    return ValueRange::unknown_int();
  }
  return ValueRange::unknown();
}

namespace {

ExtNum to_int_ext(double v, double (*round)(double)) {
  if (std::isnan(v)) return ExtNum::nan();
  if (std::isinf(v)) return ExtNum::int_oo(v > 0 ? 1 : -1);
  const double r = round(v);
  if (r >= 9223372036854775808.0) return ExtNum::int_oo(1);
  if (r < -9223372036854775808.0) return ExtNum::int_oo(-1);
  return ExtNum::of(static_cast<int64_t>(r));
}

double round_half_even(double v) { return std::nearbyint(v); }

// float -> int conversions are increasing maps; +-oo saturate to +-int_oo
ValueRange to_int_range(const ValueRange& x, double (*round)(double)) {
  const ExtNum lo = to_int_ext(x.lo.as_double(), round), hi = to_int_ext(x.hi.as_double(), round);
  if (lo.is_nan() || hi.is_nan()) return ValueRange::unknown_int();
  return {lo, hi};
}

ValueRange to_float_range(const ValueRange& x) {
  if (x.is_bool) return {ExtNum::real(static_cast<double>(x.lo.i)), ExtNum::real(static_cast<double>(x.hi.i))};
  return {ExtNum::real(x.lo.as_double()), ExtNum::real(x.hi.as_double())};
}

ValueRange increasing_real(const ValueRange& x, double (*fn)(double)) {
  const ExtNum lo = ExtNum::real(fn(x.lo.as_double())), hi = ExtNum::real(fn(x.hi.as_double()));
  if (lo.is_nan() || hi.is_nan()) return ValueRange::unknown();
  return {lo, hi};
}

ValueRange as_int_range(const ValueRange& x) {
  return x.is_bool ? ValueRange(x.lo, x.hi) : x;
}

// Smallest power of two >= v (v > 0), or 0 when it does not fit.
int64_t next_pow2(int64_t v) {
  int64_t p = 1;
  while (p < v) {
    if (p > (std::numeric_limits<int64_t>::max() >> 1)) return 0;
    p <<= 1;
  }
  return p;
}

// a & b: for non-negative operands within [0, min(hi)]; a negative operand can clear
// at most the bits below its magnitude's next power of two.
ValueRange bitwise_and_range(ValueRange a, ValueRange b) {
  a = as_int_range(a);
  b = as_int_range(b);
  const ExtNum zero = ExtNum::of(0);
  if (a.lo >= zero && b.lo >= zero) return {zero, std::min(a.hi, b.hi)};
  if (a.lo >= zero) return {zero, a.hi};
  if (b.lo >= zero) return {zero, b.hi};
  const ExtNum lo = std::min(a.lo, b.lo);
  ExtNum l = ExtNum::int_oo(-1);
  if (lo.kind == ExtNum::Kind::Int && lo.i > std::numeric_limits<int64_t>::min()) {
    const int64_t p = next_pow2(-lo.i);
    if (p) l = ExtNum::of(-p);
  }
  return {l, std::max(a.hi, b.hi)};
}

// a | b: for non-negative operands within [max(lo), next power of two of max(hi), minus 1].
ValueRange bitwise_or_range(ValueRange a, ValueRange b) {
  a = as_int_range(a);
  b = as_int_range(b);
  const ExtNum zero = ExtNum::of(0);
  if (a.lo >= zero && b.lo >= zero) {
    const ExtNum hi = std::max(a.hi, b.hi);
    ExtNum h = ExtNum::int_oo(1);
    if (hi.kind == ExtNum::Kind::Int) {
      const int64_t p = next_pow2(hi.i + 1 > hi.i ? hi.i + 1 : hi.i);
      if (p) h = ExtNum::of(p - 1);
    }
    return {std::max(a.lo, b.lo), h};
  }
  return {std::min(a.lo, b.lo), std::max(std::max(a.hi, b.hi), ExtNum::of(-1))};
}

// Range of a Mod/PythonMod node, evaluated with Python semantics (the sign of the divisor).
// PyTorch bounds these with vr::mod's C truncation rule, which is unsound when the dividend
// can be negative (PythonMod(-5, 3) = 1, outside the C rule's [-2, 0]). Both agree whenever
// the dividend has the divisor's sign, and then vr::mod is used unchanged; otherwise the
// result is the divisor's side of zero.
ValueRange python_mod_range(const ValueRange& x, const ValueRange& y) {
  const ExtNum zero = ExtNum::of(0);
  if (y.lo > zero) {
    if (x.lo >= zero) return vr::mod(x, y);
    return ValueRange(zero, vr::add(y, ValueRange::wrap(-1)).hi);  // [0, max(y) - 1]
  }
  if (y.hi < zero) {
    if (x.hi <= zero) return vr::mod(x, y);
    return ValueRange(vr::add(y, ValueRange::wrap(1)).lo, zero);
  }
  return vr::mod(x, y);  // a divisor range containing 0: unknown
}

// Python's remainder taken at its word: the result lies strictly between 0 and the divisor,
// and never past a dividend of the divisor's sign (`x % y` for x in [0, 100], y in [2, 100]
// is [0, 99], where PyTorch's rule says [-99, 99]).
ValueRange sharp_python_mod_range(const ValueRange& x, const ValueRange& y) {
  ValueRange r = python_mod_range(x, y);
  const ExtNum zero = ExtNum::of(0);
  if (y.lo > zero) {
    r = r & ValueRange(zero, vr::add(y, ValueRange::wrap(-1)).hi);
    if (x.lo >= zero) r = r & ValueRange(zero, x.hi);
  } else if (y.hi < zero) {
    r = r & ValueRange(vr::add(y, ValueRange::wrap(1)).lo, zero);
    if (x.hi <= zero) r = r & ValueRange(x.lo, zero);
  }
  return r;
}

ValueRange opaque_range(OpaqueFn fn, const ValueRange& x) {
  const ExtNum zero = ExtNum::of(0);
  switch (fn) {
    case OpaqueFn::Exp: return increasing_real(x, [](double v) { return std::exp(v); });
    case OpaqueFn::Log:
      if (x.lo <= zero) return ValueRange::unknown();
      return increasing_real(x, [](double v) { return std::log(v); });
    case OpaqueFn::Log2:
      if (x.lo <= zero) return ValueRange::unknown();
      return increasing_real(x, [](double v) { return std::log2(v); });
    case OpaqueFn::Sqrt:
      if (x.lo < zero) return ValueRange::unknown();
      return increasing_real(x, [](double v) { return std::sqrt(v); });
    default: return ValueRange::unknown();
  }
}

}  // namespace

static ValueRange node_range(const ExprArena& arena, ExprId e, std::span<const ValueRange> in,
                      const SymbolRangeFn* symbol_fn, std::span<const ValueRange> symbol_ranges, bool sharp_mod) {
  const auto ops = arena.operands(e);
  auto op = [&](size_t i) -> const ValueRange& { return in[i]; };
  switch (arena.kind(e)) {
    case ExprKind::Integer: return ValueRange::wrap(arena.payload(e));
    case ExprKind::Float: {
      const ExtNum v = ExtNum::real(arena.float_value(e));
      return v.is_nan() ? ValueRange::unknown() : ValueRange(v, v);
    }
    case ExprKind::IntInfinity: {
      const ExtNum v = ExtNum::int_oo(arena.payload(e) > 0 ? 1 : -1);
      return {v, v};
    }
    case ExprKind::True: return ValueRange::boolean(true);
    case ExprKind::False: return ValueRange::boolean(false);
    case ExprKind::Symbol: {
      const SymbolId s = arena.symbol_id(e);
      if (symbol_fn) return (*symbol_fn)(s);
      if (s.index() < symbol_ranges.size()) return symbol_ranges[s.index()];
      return default_symbol_range(arena, s);
    }
    case ExprKind::Add: {
      ValueRange r = op(0);
      for (size_t i = 1; i < ops.size(); ++i) r = vr::add(r, op(i));
      return r;
    }
    case ExprKind::Mul: {
      ValueRange r = op(0);
      for (size_t i = 1; i < ops.size(); ++i) r = vr::mul(r, op(i));
      return r;
    }
    case ExprKind::Pow:
    case ExprKind::PowByNatural: return vr::pow_by_natural(op(0), op(1));
    case ExprKind::FloorDiv:
    case ExprKind::CleanDiv: {
      ValueRange r = vr::floordiv(op(0), op(1));
      // Floor of a negative quotient is at most -1 (PyTorch's corner rule says 0 for a
      // divisor unbounded above): `(-11) // (a + 1)` for a >= 1 is [-6, -1].
      const ExtNum zero = ExtNum::of(0);
      const ExtNum minus_one = ExtNum::of(-1);
      if (sharp_mod && ((op(0).hi < zero && op(1).lo > zero) || (op(0).lo > zero && op(1).hi < zero)) &&
          r.lo <= minus_one && r.hi > minus_one)
        r = ValueRange(r.lo, minus_one);
      return r;
    }
    case ExprKind::Mod:
    case ExprKind::PythonMod: return sharp_mod ? sharp_python_mod_range(op(0), op(1)) : python_mod_range(op(0), op(1));
    case ExprKind::ModularIndexing: {
      const ValueRange q = vr::floordiv(op(0), op(1));
      return sharp_mod ? sharp_python_mod_range(q, op(2)) : python_mod_range(q, op(2));
    }
    case ExprKind::Max:
    case ExprKind::Min: {
      const bool is_max = arena.kind(e) == ExprKind::Max;
      ValueRange r = op(0);
      for (size_t i = 1; i < ops.size(); ++i) r = is_max ? vr::max(r, op(i)) : vr::min(r, op(i));
      return r;
    }
    case ExprKind::Piecewise: {
      // union of the branches whose condition may hold
      bool any = false;
      ValueRange r;
      for (size_t i = 0; i + 1 < ops.size(); i += 2) {
        if (op(i + 1).known_false()) continue;
        r = any ? (r | op(i)) : op(i);
        any = true;
      }
      return any ? r : ValueRange::unknown();
    }
    case ExprKind::BitwiseAnd: return bitwise_and_range(op(0), op(1));
    case ExprKind::BitwiseOr: return bitwise_or_range(op(0), op(1));
    case ExprKind::IsNonOverlappingAndDenseIndicator: return ValueRange::unknown();
    case ExprKind::ToFloat: return to_float_range(op(0));
    case ExprKind::IntTrueDiv:
    case ExprKind::FloatTrueDiv: return vr::truediv(op(0), op(1));
    case ExprKind::FloatPow:
      if (op(0).is_singleton() && op(1).is_singleton()) {
        const ExtNum v = ExtNum::real(std::pow(op(0).lo.as_double(), op(1).lo.as_double()));
        if (!v.is_nan()) return {v, v};
      }
      return ValueRange::unknown();
    case ExprKind::TruncToInt: return to_int_range(op(0), [](double v) { return std::trunc(v); });
    case ExprKind::FloorToInt: return to_int_range(op(0), [](double v) { return std::floor(v); });
    case ExprKind::CeilToInt: return to_int_range(op(0), [](double v) { return std::ceil(v); });
    case ExprKind::RoundToInt: return to_int_range(op(0), round_half_even);
    case ExprKind::OpaqueUnary: return opaque_range(static_cast<OpaqueFn>(arena.payload(e)), op(0));
    case ExprKind::Eq: return vr::eq(op(0), op(1));
    case ExprKind::Ne: return vr::ne(op(0), op(1));
    case ExprKind::Lt: return vr::lt(op(0), op(1));
    case ExprKind::Le: return vr::le(op(0), op(1));
    case ExprKind::Gt: return vr::gt(op(0), op(1));
    case ExprKind::Ge: return vr::ge(op(0), op(1));
    case ExprKind::And: {
      ValueRange r = op(0);
      for (size_t i = 1; i < ops.size(); ++i) r = vr::logical_and(r, op(i));
      return r;
    }
    case ExprKind::Or: {
      ValueRange r = op(0);
      for (size_t i = 1; i < ops.size(); ++i) r = vr::logical_or(r, op(i));
      return r;
    }
    case ExprKind::Not: return vr::logical_not(op(0));
  }
  return ValueRange::unknown();
}

namespace {

ValueRange bound_impl(const ExprArena& arena, ExprId root, const SymbolRangeFn* symbol_fn,
                      std::span<const ValueRange> symbol_ranges, bool sharp_mod = false) {
  // Leaves are answered directly: the common query is a symbol or a constant.
  const ExprKind k = arena.kind(root);
  if (arena.operands(root).empty() || k == ExprKind::Symbol) {
    static const std::vector<ValueRange> none;
    return node_range(arena, root, none, symbol_fn, symbol_ranges, sharp_mod);
  }
  // One scratch set per nesting level: a symbol callback may itself call bound().
  struct Scratch {
    DagWalk walk;
    std::vector<ValueRange> ranges, args;
  };
  thread_local std::deque<Scratch> pool;  // deque: growing keeps outer frames' references valid
  thread_local size_t depth = 0;
  if (pool.size() <= depth) pool.emplace_back();
  Scratch& s = pool[depth];
  struct DepthGuard {
    size_t& d;
    explicit DepthGuard(size_t& x) : d(x) { ++d; }
    ~DepthGuard() { --d; }
  } guard(depth);
  const ExprId roots[1] = {root};
  s.walk.collect(arena, roots);
  const std::span<const ExprId> nodes = s.walk.nodes();
  s.ranges.resize(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ExprId e = nodes[i];
    s.args.clear();
    for (ExprId o : arena.operands(e)) s.args.push_back(s.ranges[s.walk.position(o)]);
    s.ranges[i] = node_range(arena, e, s.args, symbol_fn, symbol_ranges, sharp_mod);
  }
  return s.ranges.back();
}

}  // namespace

ValueRange bound_node(const ExprArena& arena, ExprId e, std::span<const ValueRange> operand_ranges) {
  return node_range(arena, e, operand_ranges, nullptr, {}, false);
}

ValueRange bound(const ExprArena& arena, ExprId e, std::span<const ValueRange> symbol_ranges) {
  return bound_impl(arena, e, nullptr, symbol_ranges);
}

ValueRange sharp_bound(const ExprArena& arena, ExprId e, std::span<const ValueRange> symbol_ranges) {
  return bound_impl(arena, e, nullptr, symbol_ranges, true);
}

ValueRange bound(const ExprArena& arena, ExprId e, const SymbolRangeFn& symbol_range) {
  if (!symbol_range) return bound_impl(arena, e, nullptr, {});
  return bound_impl(arena, e, &symbol_range, {});
}

}  // namespace symshape
