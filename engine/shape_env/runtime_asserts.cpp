// ShapeEnv runtime asserts and unbacked bindings (semantics.md C.10, C.12): checks deferred
// to run time (torch._check on unbacked values) and the binding sites of fresh unbacked
// symbols among an op's outputs.
#include "shape_env/shape_env.h"

#include <fmt/core.h>

#include "core/error.h"
#include "expr/canonical.h"
#include "expr/printer.h"
#include "shape_env/symbol_list.h"

namespace symshape {

// ---- runtime asserts ------------------------------------------------------------------------

void ShapeEnv::defer_runtime_assert(ExprId cond, std::string_view message) {
  if (guards_suppressed()) return;
  maybe_guard_rel(cond);
  // The assert is stored as given (canonicalised, not simplified): a replacement it just
  // caused (u0 -> 0) must not make it vanish, it is still checked at runtime.
  ExprId c = canonicalize_bool(arena_, cond);
  if (c == arena_.true_()) return;
  // stored under the unbacked symbol with the largest numeric suffix
  SymbolList syms;
  arena_.free_symbols(c, syms);
  ExprId key;
  int64_t best = -1;
  for (ExprId s : syms) {
    if (!state(s).unbacked) continue;
    std::string_view n = arena_.symbol_name(s);
    int64_t num = 0;
    for (char ch : n)
      if (ch >= '0' && ch <= '9') num = num * 10 + (ch - '0');
    if (num > best) {
      best = num;
      key = s;
    }
  }
  for (const RuntimeAssert& ra : runtime_asserts_)
    if (ra.expr == c) return;
  runtime_asserts_.push_back({c, key, std::string(message)});
  add_axioms(c);
  bump_version_counter();  // num_deferred_runtime_asserts grew
}

bool ShapeEnv::guard_or_defer_runtime_assert(ExprId cond, std::string_view message) {
  if (auto s = maybe_evaluate_static(cond)) return *s == arena_.true_();
  ExprId x = replace(cond);
  const bool unbacked = contains_unbacked_without_hint(x) || (arena_.facts(x) & kFactHasUnbacked);
  if (!unbacked && !settings_.prefer_deferred_runtime_asserts_over_guards) return guard_bool(cond, message);
  defer_runtime_assert(cond, message);
  return true;
}

bool ShapeEnv::expect_true(ExprId cond, std::string_view message) { return guard_or_defer_runtime_assert(cond, message); }

std::vector<ExprId> ShapeEnv::runtime_asserts_for(ExprId key) const {
  std::vector<ExprId> out;
  for (const RuntimeAssert& ra : runtime_asserts_)
    if (ra.key == key) out.push_back(ra.expr);
  return out;
}

// ---- unbacked bindings -------------------------------------------------------------------

std::vector<ShapeEnv::UnbackedBinding> ShapeEnv::compute_unbacked_bindings(std::span<const ExprId> outputs) {
  std::vector<UnbackedBinding> out;
  if (pending_unbacked_.empty()) return out;
  std::vector<ExprId> pending;
  pending.swap(pending_unbacked_);  // cleared even when a symbol is missing, as PyTorch does
  for (ExprId u : pending) {
    bool found = false;
    for (uint32_t i = 0; i < outputs.size() && !found; ++i) {
      const ExprId v = outputs[i];
      if (v == u) {
        out.push_back({u, i, BindingKind::Direct, ExprId()});
        found = true;
      } else if (arena_.kind(v) == ExprKind::Mul && arena_.operands(v).size() == 2 && arena_.operand(v, 1) == u) {
        const ExprId c = arena_.operand(v, 0);
        if (arena_.kind(c) == ExprKind::Integer || (arena_.kind(c) == ExprKind::Symbol && is_backed(c))) {
          out.push_back({u, i, BindingKind::DivideByCoefficient, c});
          found = true;
        }
      } else if (arena_.kind(v) == ExprKind::Eq && arena_.operand(v, 0) == u && arena_.operand(v, 1) == arena_.one()) {
        out.push_back({u, i, BindingKind::BoolToInt, ExprId()});
        found = true;
      }
    }
    if (found) continue;
    std::string names, values;
    for (ExprId p : pending) {
      bool bound_already = false;
      for (const UnbackedBinding& b : out) bound_already |= b.symbol == p;
      if (!bound_already) names += (names.empty() ? "" : ", ") + std::string(arena_.symbol_name(p));
    }
    for (ExprId v : outputs) values += (values.empty() ? "" : ", ") + to_str(arena_, v);
    throw_error(ErrorKind::Internal,
                fmt::format("Pending unbacked symbols {{{}}} not in returned outputs ({}) .\n"
                            "Did you accidentally call new_dynamic_size() or item() more times than you needed to "
                            "in your fake implementation?",
                            names, values));
  }
  return out;
}

}  // namespace symshape
