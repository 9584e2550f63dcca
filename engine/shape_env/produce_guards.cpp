// produce_guards (semantics.md C.11): the guard predicate of a trace, in four phases
// (input equalities, recorded guards, symbol ranges, float NaN checks), both as Python
// text and as expressions a batch evaluator can run; plus bind_symbols.
#include <fmt/core.h>

#include <algorithm>

#include "core/error.h"
#include "expr/printer.h"
#include "shape_env/shape_env.h"

namespace symshape {

std::string ShapeEnv::guard_text(ExprId e, const std::unordered_map<uint32_t, SourceId>& symbol_source) {
  return to_guard_str(arena_, e, [&](ExprId sym) -> std::string {
    auto it = symbol_source.find(sym.value);
    if (it == symbol_source.end()) {
      std::string known;
      for (auto& [s, src] : symbol_source) known += (known.empty() ? "" : ", ") + sources_.name(src);
      throw_error(ErrorKind::Internal, fmt::format("{} (for {}) not in {{{}}}", arena_.symbol_name(sym),
                                                   to_str(arena_, e), known));
    }
    return sources_.name(it->second);
  });
}

// PyTorch's produce_guards drops a guard that `_maybe_evaluate_static(expr, axioms=())`
// decides, then prints `simplify(expr)`. Both simplify with every axiom of the run (its
// Max(1, b) fold asks `b >= 1`: a stride `Max(1, W // ceil(W/2))` guarded before
// `1 < W // ceil(W/2)` prints without the Max); only the decision itself ignores them.
std::vector<ExprId> ShapeEnv::undecided_guards() {
  std::vector<ExprId> seen;
  static_without_axioms_ = true;
  memo_enabled_ = false;
  for (const Guard& g : guards_) {
    if (maybe_evaluate_static(g.expr, g.size_oblivious)) continue;
    const ExprId s = simplify(g.expr);
    if (std::find(seen.begin(), seen.end(), s) != seen.end()) continue;
    seen.push_back(s);
  }
  static_without_axioms_ = false;
  memo_enabled_ = true;
  return seen;
}

ShapeEnv::ProducedGuards ShapeEnv::produce_guards(std::span<const TrackedInput> inputs,
                                                  const ProduceGuardsOptions& options) {
  ProducedGuards out;
  // Phase 0: traversal; the first source of each bare symbol names it.
  std::unordered_map<uint32_t, SourceId> symbol_source;
  std::vector<ExprId> symbol_order;
  std::vector<std::pair<SourceId, ExprId>> queued;
  for (const TrackedInput& in : inputs) {
    const ExprId v = replace(in.value);
    if (arena_.kind(v) == ExprKind::Symbol && !symbol_source.count(v.value)) {
      symbol_source.emplace(v.value, in.source);
      symbol_order.push_back(v);
      out.bound_symbols.push_back(v);
      out.bound_sources.push_back(in.source);
    }
    queued.emplace_back(in.source, v);
  }
  auto emit = [&](ExprId e, std::string text) {
    out.exprs.push_back(e);
    out.text.push_back(std::move(text));
  };
  // Phase 1: input equalities.
  if (!options.simplified) {
    for (auto& [source, v] : queued) {
      if (arena_.kind(v) == ExprKind::Symbol && symbol_source.at(v.value) == source) continue;
      if (options.ignore_static && sources_.is_tensor_property(source) && arena_.is_number(v)) continue;
      out.source_equalities.emplace_back(source, v);
      out.text.push_back(fmt::format("{} == {}", sources_.name(source), guard_text(v, symbol_source)));
      out.exprs.push_back(ExprId());  // checked through source_equalities
    }
  }
  // Phase 2: recorded guards not decided by ranges alone.
  for (ExprId s : undecided_guards()) emit(s, guard_text(s, symbol_source));
  // Phase 3: ranges of the bound symbols.
  for (ExprId sym : symbol_order) {
    const SymbolState& st = state(sym);
    if (arena_.facts(sym) & kFactFloat) continue;
    std::vector<ExprId> parts;
    const ExtNum default_lo = arena_.is_positive(sym) ? ExtNum::of(settings_.specialize_zero_one ? 2 : 0)
                                                       : ExtNum::int_oo(-1);
    if (st.range.lo.kind == ExtNum::Kind::Int && (!options.simplified || !(st.range.lo == default_lo)))
      parts.push_back(arena_.le(arena_.integer(st.range.lo.i), sym));
    if (st.range.hi.kind == ExtNum::Kind::Int) parts.push_back(arena_.le(sym, arena_.integer(st.range.hi.i)));
    if (parts.empty()) continue;
    std::string text;
    for (ExprId p : parts) text += (text.empty() ? "" : " and ") + guard_text(p, symbol_source);
    emit(arena_.logical_and(parts), std::move(text));
  }
  // Phase 4: floats are not NaN.
  for (ExprId sym : symbol_order) {
    if (!(arena_.facts(sym) & kFactFloat)) continue;
    out.float_not_nan.push_back(sym);
    out.text.push_back(fmt::format("not math.isnan({})", sources_.name(symbol_source.at(sym.value))));
    out.exprs.push_back(ExprId());
  }
  return out;
}

std::vector<std::pair<ExprId, int64_t>> ShapeEnv::bind_symbols(std::span<const TrackedInput> inputs,
                                                               std::span<const int64_t> values) const {
  std::vector<std::pair<ExprId, int64_t>> out;
  for (size_t i = 0; i < inputs.size() && i < values.size(); ++i) {
    ExprId v = inputs[i].value;
    int64_t val = values[i];
    if (arena_.kind(v) == ExprKind::Mul && arena_.operands(v).size() == 2 &&
        arena_.kind(arena_.operand(v, 0)) == ExprKind::Integer && arena_.int_value(arena_.operand(v, 0)) == -1) {
      v = arena_.operand(v, 1);
      val = -val;
    }
    if (arena_.kind(v) != ExprKind::Symbol) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](auto& p) { return p.first == v; });
    if (it != out.end()) {
      if (it->second != val)
        throw_error(ErrorKind::Internal, fmt::format("bind_symbols: {} bound to both {} and {}", arena_.symbol_name(v),
                                                     it->second, val));
      continue;
    }
    out.emplace_back(v, val);
  }
  return out;
}

}  // namespace symshape
