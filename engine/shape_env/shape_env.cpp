// ShapeEnv (semantics.md C): construction and reset, per-symbol state.
// The rest of the class is split by concern, as docs/shape_env.md lists: symbols.cpp
// (symbol creation), replacements.cpp (replacements, ranges, what an equality teaches),
// static_eval.cpp (simplify, bound, maybe_evaluate_static), hints.cpp (hints of backed,
// unbacked and OBLIVIOUS_SIZE symbols), guards.cpp (evaluate_expr, guards, axioms),
// runtime_asserts.cpp (deferred runtime asserts, unbacked bindings), produce_guards.cpp.
#include "shape_env/shape_env.h"

namespace symshape {

ShapeEnv::ShapeEnv(ShapeEnvSettings settings) : settings_(settings) { reset(); }

void ShapeEnv::reset() {
  arena_.clear();
  sources_.clear();
  symbols_.clear();
  val_to_var_.clear();
  used_numbers_.clear();
  guards_.clear();
  runtime_asserts_.clear();
  divisible_.clear();
  axioms_.clear();
  pending_unbacked_.clear();
  replaced_mask_ = 0;
  unbacked_counter_ = unbacked_float_counter_ = sequential_counter_ = backed_count_ = 0;
  suppress_depth_ = 0;
  ignored_after_freeze_ = 0;
  range_version_ = 0;
  replace_version_ = 0;
  simplify_version_ = 0;
  simplify_cache_version_ = 0;
  frozen_ = runtime_asserts_frozen_ = false;
  static_cache_version_ = 0;
  for (auto& m : static_memo_) m.clear();
  evaluate_cache_.clear();
  canonical_memo_.clear();
  as_floordiv_memo_.clear();
  if (sides_memo_.empty() || ++sides_generation_ == 0) {
    sides_memo_.assign(4096, SidesEntry{});
    sides_generation_ = 1;
  }
  for (auto& m : simplify_memo_) m.clear();
  range_memo_[0].clear();
  range_memo_[1].clear();
  replace_memo_.clear();
  shift_symbols_.clear();
  shift_origin_.clear();
  shift_memo_[0].clear();
  shift_memo_[1].clear();
  fold_memo_[0].clear();
  fold_memo_[1].clear();
  memo_enabled_ = true;
}

ShapeEnv::SymbolState& ShapeEnv::state(ExprId sym) {
  const uint32_t s = arena_.symbol_id(sym).index();
  if (s >= symbols_.size()) symbols_.resize(s + 1);
  return symbols_[s];
}

const ShapeEnv::SymbolState& ShapeEnv::state(ExprId sym) const {
  static const SymbolState kEmpty;
  const uint32_t s = arena_.symbol_id(sym).index();
  return s < symbols_.size() ? symbols_[s] : kEmpty;
}

// ---- per-symbol state -----------------------------------------------------------------

bool ShapeEnv::is_backed(ExprId sym) const { return state(sym).hint || state(sym).float_hint; }
std::optional<int64_t> ShapeEnv::hint(ExprId sym) const { return state(sym).hint; }
const ValueRange& ShapeEnv::range(ExprId sym) const { return state(sym).range; }
bool ShapeEnv::is_size_like(ExprId sym) const { return state(sym).size_like; }
bool ShapeEnv::is_unbacked(ExprId sym) const { return state(sym).unbacked; }
bool ShapeEnv::is_unbacked_input(ExprId sym) const { return state(sym).unbacked_input; }
const std::vector<SourceId>& ShapeEnv::symbol_sources(ExprId sym) const { return state(sym).sources; }
ExprId ShapeEnv::replacement(ExprId sym) const { return state(sym).replacement; }
void ShapeEnv::add_source(ExprId sym, SourceId source) {
  if (arena_.kind(sym) == ExprKind::Symbol) state(sym).sources.push_back(source);
}
uint32_t ShapeEnv::guard_count(ExprId sym) const { return state(sym).guard_count; }
void ShapeEnv::set_unbacked_var_to_val(ExprId sym, int64_t value) {
  state(sym).unbacked_value = value;
  bump_version();
}

}  // namespace symshape
