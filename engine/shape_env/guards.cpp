// ShapeEnv guarding (semantics.md C.7, C.15): evaluate_expr and the guard_* questions,
// recording a guard, the axioms it implies, the data-dependent error.
#include "shape_env/shape_env.h"

#include <fmt/core.h>

#include "core/error.h"
#include "expr/canonical.h"
#include "expr/printer.h"
#include "shape_env/symbol_list.h"

namespace symshape {

// ---- guarding -----------------------------------------------------------------------------

void ShapeEnv::raise_data_dependent(ExprId e, bool integer_valued, std::string_view location) {
  std::string size_like;
  for (uint32_t i = 0; i < symbols_.size(); ++i)
    if (symbols_[i].size_like) {
      if (!size_like.empty()) size_like += ", ";
      size_like += arena_.symbol_info(SymbolId(i)).name;
    }
  const std::string hinted = to_str(arena_, substitute_hints(e)), unhinted = to_str(arena_, e);
  std::string msg;
  if (integer_valued) {
    msg = fmt::format("Could not extract specialized integer from data-dependent expression {} (unhinted: {}).  "
                      "(Size-like symbols: {})\n\n",
                      hinted, unhinted, size_like.empty() ? "none" : size_like);
  } else {
    msg = fmt::format("Could not guard on data-dependent expression {} (unhinted: {}).  (Size-like symbols: {})\n\n"
                      "consider using data-dependent friendly APIs such as guard_or_false, guard_or_true and "
                      "statically_known_true",
                      hinted, unhinted, size_like.empty() ? "none" : size_like);
  }
  msg += fmt::format("Caused by: {}\nFor more information, run with TORCH_LOGS=\"dynamic\"\n",
                     location.empty() ? "(unknown)" : location);
  throw_error(ErrorKind::DataDependent, std::move(msg));
}

// ---- axioms: what a guard or runtime assert implies (C.7 step 7) ---------------------------

void ShapeEnv::add_axioms(ExprId g) {
  auto put = [&](ExprId r, bool v) {
    if (!arena_.is_constant(r)) axioms_.set(canonical(r), v);
  };
  auto imply = [&](ExprId r) {
    put(r, true);
    put(arena_.logical_not(r), false);
  };
  // get_implications: a conjunction is one axiom (And -> True), not one per conjunct, so a
  // conjunct asked alone later (pool2d_shape_check's sym_and(W' >= 1, H' >= 1), then
  // check_shape_forward's W' >= 1) is a guard of its own, as in PyTorch
  const ExprId r = simplify(g);
  imply(r);
  if (arena_.is_relation(r)) {
    const ExprId a = arena_.operand(r, 0), b = arena_.operand(r, 1);
    switch (arena_.kind(r)) {
      case ExprKind::Eq:
        imply(arena_.eq(b, a));
        imply(arena_.le(a, b));
        imply(arena_.ge(a, b));
        break;
      // get_implications dispatches on SymPy's class of the simplified guard: StrictLessThan
      // and LessThan only, so a `>` / `>=` guard implies nothing beyond itself and its
      // negation (`X >= 1` leaves `X > 0` undecided: timm resnetaa50's conv then records
      // `X > 0 or Y > 0`, as PyTorch does)
      case ExprKind::Lt:
        imply(arena_.le(a, b));
        imply(arena_.ne(a, b));
        if (arena_.is_integer(a) && arena_.is_integer(b)) imply(arena_.le(a, arena_.sub(b, arena_.one())));
        break;
      case ExprKind::Le: imply(arena_.lt(a, arena_.add(b, arena_.one()))); break;
      default: break;
    }
  }
}

void ShapeEnv::resimplify_floordiv_axioms() {
  auto has_floordiv = [&](auto& self, ExprId n) -> bool {
    if (arena_.kind(n) == ExprKind::FloorDiv) return true;
    for (ExprId op : arena_.operands(n))
      if (self(self, op)) return true;
    return false;
  };
  std::vector<std::pair<ExprId, bool>> updated;
  for (uint32_t key : axioms_.keys()) {
    const ExprId k(key);
    if (!has_floordiv(has_floordiv, k)) continue;
    const ExprId s = canonicalize_bool(arena_, simplify(k));
    if (s != k && !arena_.is_constant(s)) updated.emplace_back(s, *axioms_.find(k));
  }
  for (auto& [k, v] : updated) axioms_.insert(k, v);
}

// ---- recording and evaluate_expr --------------------------------------------------------

void ShapeEnv::record_guard(ExprId g, bool size_oblivious) {
  if (frozen_) ++ignored_after_freeze_;
  maybe_guard_rel(g);
  guards_.push_back({g, size_oblivious});
  add_axioms(g);
  SymbolList syms;
  arena_.free_symbols(g, syms);
  for (ExprId s : syms) ++state(s).guard_count;
}

ExprId ShapeEnv::evaluate_expr(ExprId e, bool size_oblivious, std::optional<bool> fallback, std::string_view location) {
  if (arena_.is_constant(e)) return e;
  const uint8_t flags = EvaluateCache::flags(size_oblivious, fallback, guards_suppressed());
  if (auto v = evaluate_cache_.find(e, flags)) return *v;
  const ExprId v = evaluate_expr_uncached(e, size_oblivious, fallback, location);  // a raise is not remembered
  evaluate_cache_.insert(e, flags, v);
  return v;
}

ExprId ShapeEnv::evaluate_expr_uncached(ExprId e, bool size_oblivious, std::optional<bool> fallback,
                                        std::string_view location) {
  if (auto s = maybe_evaluate_static_as(e, size_oblivious, false, size_oblivious ? kEvaluateExprOblivious : kEvaluateExpr))
    return *s;
  ExprId x = replace(e);
  bool oblivious = false;  // decided by OBLIVIOUS_SIZE example values: a plain guard
  if (contains_unbacked_without_hint(x)) {
    if (auto s = maybe_evaluate_static(x, size_oblivious, /*unbacked_only=*/true)) return *s;
    if (fallback) return arena_.boolean(*fallback);
    if (!oblivious_hint(x)) raise_data_dependent(x, !arena_.is_boolean(x), location);
    oblivious = true;
  } else if (fallback && (arena_.facts(x) & kFactHasUnbacked)) {
    return arena_.boolean(*fallback);  // the default wins over real-tensor values (C.7 step 3)
  }
  const ExprId value = hint_value(x);
  ExprId g;
  if (arena_.is_boolean(x)) g = value == arena_.true_() ? x : arena_.logical_not(x);
  else g = arena_.eq(x, value);
  if (guards_suppressed() || arena_.is_constant(g)) return value;
  // a guard on a value only known from real tensors becomes a runtime assert
  if (!oblivious && (arena_.facts(x) & kFactHasUnbacked)) {
    defer_runtime_assert(g, location);
    return value;
  }
  record_guard(g, size_oblivious);
  return value;
}

bool ShapeEnv::guard_bool(ExprId cond, std::string_view location) {
  return evaluate_expr(cond, false, {}, location) == arena_.true_();
}

int64_t ShapeEnv::guard_int(ExprId e, std::string_view location) {
  ExprId v = evaluate_expr(e, false, {}, location);
  if (arena_.kind(v) != ExprKind::Integer) throw_error(ErrorKind::Internal, "guard_int on a non-integer expression");
  return arena_.int_value(v);
}

double ShapeEnv::guard_float(ExprId e, std::string_view location) {
  ExprId v = evaluate_expr(e, false, {}, location);
  if (!arena_.is_number(v)) throw_error(ErrorKind::Internal, "guard_float on a non-numeric expression");
  return arena_.kind(v) == ExprKind::Integer ? static_cast<double>(arena_.int_value(v)) : arena_.float_value(v);
}

bool ShapeEnv::guard_or_false(ExprId cond) { return evaluate_expr(cond, false, false) == arena_.true_(); }
bool ShapeEnv::guard_or_true(ExprId cond) { return evaluate_expr(cond, false, true) == arena_.true_(); }
bool ShapeEnv::guard_size_oblivious(ExprId cond) { return evaluate_expr(cond, true) == arena_.true_(); }

std::string ShapeEnv::format_guards() const {
  std::string out;
  for (const Guard& g : guards_) out += fmt::format(" - {}\n", to_str(arena_, g.expr));
  return out;
}

}  // namespace symshape
