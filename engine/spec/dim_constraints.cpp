// DimConstraints: univariate linear facts per symbol (after the % / // rewrite with example
// values), congruences combined by generalised CRT, equalities solved first and substituted
// into the parked multivariate facts, then ranges; results printed over sources.
#include "spec/dim_constraints.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "core/error.h"
#include "expr/evaluate.h"
#include "expr/expr_walk.h"
#include "expr/printer.h"
#include "spec/spec_error.h"

namespace symshape::spec {
namespace {

__extension__ typedef __int128 i128;  // exact products of two int64

int64_t checked(i128 v) {
  if (v > INT64_MAX || v < INT64_MIN) throw_error(ErrorKind::Overflow, "DimConstraints: rational overflow");
  return int64_t(v);
}

// Python's floor division and modulo on int64.
int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t py_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

int64_t floor_of(Rational r) { return floor_div(r.num, r.den); }
int64_t ceil_of(Rational r) { return -floor_div(-r.num, r.den); }

// DimConstraints._has_unsupported_sympy_function: the solver drops a fact that mentions any
// function of torch.utils._sympy.functions but Mod, PythonMod and FloorDiv. CleanDiv is one:
// produce_guards simplifies `x // 4` to CleanDiv once `x % 4 == 0` is known, so export drops
// `x // 4 == 1` instead of solving it to a specialisation (`x = 4*_x`, not `x = 4`).
bool has_unsupported_function(const ExprArena& arena, ExprId fact) {
  std::vector<ExprId> nodes;
  reachable_nodes(arena, std::span<const ExprId>(&fact, 1), nodes);
  return std::any_of(nodes.begin(), nodes.end(), [&](ExprId e) {
    switch (arena.kind(e)) {
      case ExprKind::PowByNatural:
      case ExprKind::CleanDiv:
      case ExprKind::ModularIndexing:
      case ExprKind::Max:
      case ExprKind::Min:
      case ExprKind::BitwiseAnd:
      case ExprKind::BitwiseOr:
      case ExprKind::IsNonOverlappingAndDenseIndicator:
      case ExprKind::ToFloat:
      case ExprKind::IntTrueDiv:
      case ExprKind::FloatTrueDiv:
      case ExprKind::FloatPow:
      case ExprKind::TruncToInt:
      case ExprKind::FloorToInt:
      case ExprKind::CeilToInt:
      case ExprKind::RoundToInt:
      case ExprKind::OpaqueUnary: return true;
      default: return false;
    }
  });
}

}  // namespace

Rational Rational::of(int64_t n, int64_t d) {
  if (d == 0) throw_error(ErrorKind::Value, "DimConstraints: division by zero");
  if (d < 0) {
    n = checked(-i128(n));
    d = checked(-i128(d));
  }
  const int64_t g = std::gcd(n, d);
  return g > 1 ? Rational{n / g, d / g} : Rational{n, d};
}
Rational operator+(Rational a, Rational b) {
  return Rational::of(checked(i128(a.num) * b.den + i128(b.num) * a.den), checked(i128(a.den) * b.den));
}
Rational operator-(Rational a, Rational b) { return a + Rational{checked(-i128(b.num)), b.den}; }
Rational operator*(Rational a, Rational b) {
  return Rational::of(checked(i128(a.num) * b.num), checked(i128(a.den) * b.den));
}
Rational operator/(Rational a, Rational b) {
  return Rational::of(checked(i128(a.num) * b.den), checked(i128(a.den) * b.num));
}

DimConstraints::DimConstraints(ExprArena& arena, std::vector<DimSymbol> symbols)
    : arena_(arena), symbols_(std::move(symbols)), per_(symbols_.size()) {}

int DimConstraints::index_of(ExprId symbol) const {
  for (size_t i = 0; i < symbols_.size(); ++i)
    if (symbols_[i].symbol == symbol) return int(i);
  return -1;
}

std::string DimConstraints::print(ExprId e) const {
  return to_guard_str(arena_, e, [&](ExprId sym) -> std::string {
    const int i = index_of(sym);
    return i >= 0 ? symbols_[size_t(i)].source : std::string(arena_.symbol_name(sym));
  });
}

std::optional<bool> DimConstraints::evaluate_at_hints(ExprId fact) const {
  Bindings b;
  for (const DimSymbol& s : symbols_) b.set(arena_.symbol_id(s.symbol), s.hint);
  try {
    const std::optional<Scalar> v = try_evaluate(arena_, fact, b);
    if (!v) return std::nullopt;
    return v->i != 0;
  } catch (const Error&) {
    return std::nullopt;
  }
}

void DimConstraints::add_congruence_for(int s, Linear base, int64_t divisor) {
  // sympy folds `(base) % d` to 0 when every coefficient is a multiple of d.
  const Rational d = Rational::of(divisor);
  if (base.a == Rational::of(0)) return;  // a constant base: checked at the example already
  if ((base.a / d).is_integer() && (base.b / d).is_integer()) return;
  std::vector<Congruence>& cs = per_[size_t(s)].congruences;
  const Congruence c{base, divisor};
  if (std::find(cs.begin(), cs.end(), c) == cs.end()) cs.push_back(c);
}

void DimConstraints::add_congruence(ExprId symbol, Linear base, int64_t divisor) {
  const int s = index_of(symbol);
  if (s < 0) throw_error(ErrorKind::Value, "DimConstraints: unknown symbol");
  add_congruence_for(s, base, divisor);
}

std::optional<Linear> DimConstraints::linearize(ExprId e, int s) {
  const ExprId sym = symbols_[size_t(s)].symbol;
  switch (arena_.kind(e)) {
    case ExprKind::Integer: return Linear{Rational::of(0), Rational::of(arena_.int_value(e))};
    case ExprKind::Symbol:
      if (e != sym) return std::nullopt;
      return Linear{Rational::of(1), Rational::of(0)};
    case ExprKind::Add: {
      Linear sum{Rational::of(0), Rational::of(0)};
      for (ExprId op : arena_.operands(e)) {
        const std::optional<Linear> t = linearize(op, s);
        if (!t) return std::nullopt;
        sum = {sum.a + t->a, sum.b + t->b};
      }
      return sum;
    }
    case ExprKind::Mul: {
      Linear prod{Rational::of(0), Rational::of(1)};
      for (ExprId op : arena_.operands(e)) {
        const std::optional<Linear> t = linearize(op, s);
        if (!t) return std::nullopt;
        if (!(prod.a == Rational::of(0)) && !(t->a == Rational::of(0))) return std::nullopt;  // s*s
        prod = {prod.a * t->b + t->a * prod.b, prod.b * t->b};
      }
      return prod;
    }
    case ExprKind::FloorDiv:
    case ExprKind::CleanDiv:
    case ExprKind::Mod:
    case ExprKind::PythonMod: {
      // Evaluate `base % d` at the example value (k), record `(base - k) % d == 0`, then
      // replace `base % d` by k and `base // d` by (base - k) / d.
      const std::optional<Linear> base = linearize(arena_.operand(e, 0), s);
      const std::optional<Linear> div = linearize(arena_.operand(e, 1), s);
      if (!base || !div) return std::nullopt;
      const bool is_mod = arena_.kind(e) == ExprKind::Mod || arena_.kind(e) == ExprKind::PythonMod;
      if (!(div->a == Rational::of(0))) return by_symbolic_divisor(*base, *div, s, is_mod);
      if (!div->b.is_integer() || div->b.num == 0) return std::nullopt;
      const int64_t d = div->b.num;
      const Rational at_hint = base->a * Rational::of(symbols_[size_t(s)].hint) + base->b;
      if (!at_hint.is_integer()) return std::nullopt;
      const int64_t k = py_mod(at_hint.num, d);
      const Linear shifted{base->a, base->b - Rational::of(k)};
      add_congruence_for(s, shifted, d);
      if (is_mod) return Linear{Rational::of(0), Rational::of(k)};
      return Linear{shifted.a / Rational::of(d), shifted.b / Rational::of(d)};
    }
    default: return std::nullopt;
  }
}

// `base % div` / `base // div` with a divisor of the symbol too (the view helper's `accum %
// length`): the same rewrite with k = base % div at the example. SymPy's Mod(base - k, div) is
// 0 when base - k is an integer multiple c of div, so there is no congruence and `base // div`
// is the constant c; any other base leaves a Mod of two polynomials, which is not linear.
std::optional<Linear> DimConstraints::by_symbolic_divisor(Linear base, Linear div, int s, bool is_mod) {
  const Rational hint = Rational::of(symbols_[size_t(s)].hint);
  const Rational base_at = base.a * hint + base.b, div_at = div.a * hint + div.b;
  if (!base_at.is_integer() || !div_at.is_integer() || div_at.num == 0) return std::nullopt;
  const int64_t k = py_mod(base_at.num, div_at.num);
  const Linear shifted{base.a, base.b - Rational::of(k)};
  const Rational c = shifted.a / div.a;  // div.a != 0
  if (!(shifted.b == c * div.b) || !c.is_integer()) return std::nullopt;
  return is_mod ? Linear{Rational::of(0), Rational::of(k)} : Linear{Rational::of(0), c};
}

bool DimConstraints::add(ExprId fact) {
  if (arena_.kind(fact) == ExprKind::True) return true;
  if (evaluate_at_hints(fact) == std::optional<bool>(false))
    inconsistencies_.push_back(fmt::format("{} is inconsistent!", print(fact)));
  const ExprKind k = arena_.kind(fact);
  Rel rel;
  switch (k) {
    case ExprKind::Eq: rel = Rel::Eq; break;
    case ExprKind::Le: rel = Rel::Le; break;
    case ExprKind::Lt: rel = Rel::Lt; break;
    case ExprKind::Ge: rel = Rel::Ge; break;
    case ExprKind::Gt: rel = Rel::Gt; break;
    default: return false;  // Ne, And, Or, ...: nothing useful to solve
  }
  if (!solve_dropped_functions_ && has_unsupported_function(arena_, fact)) return false;
  std::vector<ExprId> free;
  arena_.free_symbols(fact, free);
  if (free.empty()) return false;
  if (free.size() > 1) {
    if (std::find(multivariate_.begin(), multivariate_.end(), fact) == multivariate_.end())
      multivariate_.push_back(fact);
    return false;
  }
  const int s = index_of(free[0]);
  if (s < 0) return false;
  PerSymbol& ps = per_[size_t(s)];
  const size_t before = ps.congruences.size();
  std::optional<Linear> lhs, rhs;
  try {
    lhs = linearize(arena_.operand(fact, 0), s);
    rhs = linearize(arena_.operand(fact, 1), s);
  } catch (const Error&) {  // overflow in the rationals: keep it out of the solver
    return false;
  }
  if (!lhs || !rhs) return false;  // not linear: left to the range guard text
  const Linear diff{lhs->a - rhs->a, lhs->b - rhs->b};
  if (diff.a == Rational::of(0)) {
    const Rational c = diff.b;
    const bool holds = rel == Rel::Eq   ? c.num == 0
                       : rel == Rel::Le ? c.num <= 0
                       : rel == Rel::Lt ? c.num < 0
                       : rel == Rel::Ge ? c.num >= 0
                                        : c.num > 0;
    if (holds) return before == ps.congruences.size();
    inconsistencies_.push_back(fmt::format("{}, obtained by rewriting with congruences, is inconsistent!", print(fact)));
    return false;
  }
  if (rel == Rel::Eq) ps.has_equality = true;
  ps.facts.push_back({rel, diff});
  ps.has_facts = true;
  return false;
}

void DimConstraints::add_equality(std::string source, ExprId expr) {
  if (arena_.is_integer_const(expr)) {
    add_result(static_results_, fmt::format("{} == {}", source, arena_.int_value(expr)));
    return;
  }
  equivalences_.emplace_back(std::move(source), expr);
}

void DimConstraints::add_result(std::vector<std::string>& to, std::string s) {
  if (std::find(to.begin(), to.end(), s) == to.end()) to.push_back(std::move(s));
}

void DimConstraints::raise_inconsistencies() {
  if (inconsistencies_.empty()) return;
  std::string msg;
  for (const std::string& m : inconsistencies_) msg += (msg.empty() ? "" : "\n") + m;
  inconsistencies_.clear();
  throw_spec(PyException::ValueError, "The following inconsistencies were found:\n" + msg);
}

ExprId DimConstraints::substitute(ExprId e, ExprId symbol, int64_t value) {
  const ExprId v = arena_.integer(value);
  return arena_.substitute(e, std::span<const ExprId>(&symbol, 1), std::span<const ExprId>(&v, 1));
}

std::vector<ReducedCongruence> DimConstraints::reduce_congruences() const {
  std::vector<ReducedCongruence> out;
  for (size_t s = 0; s < per_.size(); ++s) {
    // base = d*t solved for s: s = (d/a)*t - b/a; an integer modulus and remainder give
    // s = r (mod m). Combine pairwise (moduli need not be coprime).
    bool any = false;
    int64_t r = 0, m = 1;
    for (const Congruence& c : per_[s].congruences) {
      const Rational mod = Rational::of(c.divisor) / c.base.a;
      const Rational rem = Rational::of(0) - c.base.b / c.base.a;
      if (!mod.is_integer() || !rem.is_integer() || mod.num == 0) continue;
      const int64_t mi = mod.num < 0 ? -mod.num : mod.num;
      const int64_t ri = py_mod(rem.num, mi);
      if (!any) {
        r = ri, m = mi, any = true;
        continue;
      }
      // x = r (mod m), x = ri (mod mi): solvable iff g | (ri - r).
      const int64_t g = std::gcd(m, mi);
      if ((ri - r) % g != 0) throw_spec(PyException::ValueError, "The following inconsistencies were found:\n"
                                                                 "congruences without a common solution");
      const int64_t l = checked(i128(m / g) * mi);
      // r + m*t = ri (mod mi)  ->  t = ((ri - r)/g) * inv(m/g mod mi/g)  (mod mi/g)
      const int64_t mg = m / g, mig = mi / g;
      int64_t inv = 1;
      if (mig > 1) {  // modular inverse by extended Euclid
        int64_t a0 = py_mod(mg, mig), b0 = mig, x0 = 1, x1 = 0;
        while (b0) {
          const int64_t q = a0 / b0;
          std::tie(a0, b0) = std::make_pair(b0, a0 - q * b0);
          std::tie(x0, x1) = std::make_pair(x1, x0 - q * x1);
        }
        inv = py_mod(x0, mig);
      }
      const int64_t t = mig > 1 ? py_mod(checked(i128(py_mod((ri - r) / g, mig)) * inv), mig) : 0;
      r = py_mod(checked(i128(r) + i128(m) * t), l);
      m = l;
    }
    if (any) out.push_back({symbols_[s].symbol, py_mod(-r, m), m});
  }
  return out;
}

void DimConstraints::solve() {
  raise_inconsistencies();
  // Symbols with an equality first: each becomes a static result and a substitution that
  // may turn parked multivariate facts univariate.
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t s = 0; s < per_.size(); ++s) {
      PerSymbol& ps = per_[s];
      if (!ps.has_equality || ps.solved) continue;
      progress = true;
      ps.solved = true;
      std::optional<Rational> value;
      for (const Fact& f : ps.facts)
        if (f.rel == Rel::Eq && !value) value = Rational::of(0) - f.lhs.b / f.lhs.a;
      for (const Fact& f : ps.facts) {
        const Rational at = f.lhs.a * *value + f.lhs.b;
        const bool ok = f.rel == Rel::Eq   ? at.num == 0
                        : f.rel == Rel::Le ? at.num <= 0
                        : f.rel == Rel::Lt ? at.num < 0
                        : f.rel == Rel::Ge ? at.num >= 0
                                           : at.num > 0;
        if (!ok || !value->is_integer())
          throw_spec(PyException::ValueError,
                     fmt::format("The following inconsistencies were found:\nno integer value of {} satisfies its "
                                 "guards",
                                 symbols_[s].source));
      }
      ps.value = value->num;
      add_result(static_results_, fmt::format("{} == {}", symbols_[s].source, ps.value));
      std::vector<ExprId> parked;
      parked.swap(multivariate_);
      for (ExprId e : parked) add(substitute(e, symbols_[s].symbol, ps.value));
      raise_inconsistencies();
    }
  }
  // Congruences: the supported form (s + a) % m gives s = m*_name - a.
  for (const ReducedCongruence& c : reduce_congruences()) {
    const int s = index_of(c.symbol);
    const PerSymbol& ps = per_[size_t(s)];
    if (ps.solved && py_mod(ps.value + c.offset, c.modulus) == 0) continue;
    const DimSymbol& d = symbols_[size_t(s)];
    const std::string tmp = "_" + (d.debug_name.empty() ? d.source : d.debug_name);
    std::string rhs = fmt::format("{}*{}", c.modulus, tmp);
    if (c.offset != 0) rhs += fmt::format(" - {}", c.offset);
    add_result(dynamic_results_, fmt::format("{} == {}", d.source, rhs));
  }
  // Remaining symbols: linear inequalities reduced to an integer range.
  for (size_t s = 0; s < per_.size(); ++s) {
    const PerSymbol& ps = per_[s];
    if (ps.solved || !ps.has_facts) continue;
    std::optional<int64_t> lo, hi;
    for (const Fact& f : ps.facts) {
      // a*s + b rel 0  ->  s rel' x with x = -b/a (the relation flips for a < 0).
      const Rational x = Rational::of(0) - f.lhs.b / f.lhs.a;
      Rel rel = f.rel;
      if (f.lhs.a.num < 0) rel = rel == Rel::Le ? Rel::Ge : rel == Rel::Lt ? Rel::Gt : rel == Rel::Ge ? Rel::Le : Rel::Lt;
      if (rel == Rel::Ge) lo = std::max(lo.value_or(INT64_MIN), ceil_of(x));
      if (rel == Rel::Gt) lo = std::max(lo.value_or(INT64_MIN), floor_of(x) + 1);
      if (rel == Rel::Le) hi = std::min(hi.value_or(INT64_MAX), floor_of(x));
      if (rel == Rel::Lt) hi = std::min(hi.value_or(INT64_MAX), ceil_of(x) - 1);
    }
    const std::string& src = symbols_[s].source;
    if (lo && hi && *lo > *hi)
      throw_spec(PyException::ValueError,
                 fmt::format("The following inconsistencies were found:\n{} <= {} <= {} is empty", *lo, src, *hi));
    if (lo && hi && *lo == *hi) {
      add_result(dynamic_results_, fmt::format("{} == {}", src, *lo));
      continue;
    }
    if (lo) add_result(dynamic_results_, fmt::format("{} <= {}", *lo, src));
    if (hi) add_result(dynamic_results_, fmt::format("{} <= {}", src, *hi));
  }
  // Input equalities: numbers after substitution are specialisations, the rest relations.
  std::vector<std::pair<std::string, ExprId>> eqs;
  eqs.swap(equivalences_);
  for (auto& [source, e] : eqs) {
    ExprId v = e;
    for (size_t s = 0; s < per_.size(); ++s)
      if (per_[s].solved) v = substitute(v, symbols_[s].symbol, per_[s].value);
    add_equality(source, v);
  }
  for (const auto& [source, e] : equivalences_) add_result(dynamic_results_, fmt::format("{} == {}", source, print(e)));
}

std::vector<std::pair<std::string, int64_t>> DimConstraints::forced_specializations() const {
  std::vector<std::pair<std::string, int64_t>> out;
  for (size_t s = 0; s < per_.size(); ++s) {
    if (!per_[s].solved || !symbols_[s].marked_dynamic) continue;
    const DimSymbol& d = symbols_[s];
    out.emplace_back(d.debug_name.empty() ? d.source : fmt::format("{} = {}", d.debug_name, d.source), per_[s].value);
  }
  return out;
}

}  // namespace symshape::spec
