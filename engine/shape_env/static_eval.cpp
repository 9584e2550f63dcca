// ShapeEnv static evaluation (semantics.md C.5, C.9): symbol ranges, bound(), simplify(),
// divisibility lookups, axioms, and maybe_evaluate_static with its memo.
#include "shape_env/shape_env.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unordered_set>
#include <utility>

#include "expr/bound.h"
#include "expr/canonical.h"
#include "expr/inline_vec.h"
#include "shape_env/symbol_list.h"

namespace symshape {

// ---- queries ---------------------------------------------------------------------------

ValueRange ShapeEnv::symbol_range(SymbolId s, bool size_oblivious) const {
  if (s.index() >= symbols_.size()) return default_symbol_range(arena_, s);
  const SymbolState& st = symbols_[s.index()];
  if (st.range.lo == ExtNum::int_oo(-1) && st.range.hi == ExtNum::int_oo(1) && !st.unbacked && !st.hint)
    return default_symbol_range(arena_, s);
  if (size_oblivious && st.size_like) {
    ExtNum lo = std::max(st.range.lo, ExtNum::of(2));
    ExtNum hi = std::min(st.range.hi, ExtNum::of(int64_t{1} << 48));
    if (hi.is_finite() && ExtNum::of(hi.i - 1) >= lo) hi = ExtNum::of(hi.i - 1);
    if (hi < lo) return st.range;
    return ValueRange(lo, hi);
  }
  return st.range;
}

// bound() over the DAG with per-node memo: propagation asks about many expressions that
// share sub-expressions (every layout question on one tensor mentions the same sizes),
// so only nodes not yet bounded in this version are computed.
ValueRange ShapeEnv::bound(ExprId e, bool size_oblivious) {
  auto leaf_range = [&](ExprId n) {
    if (arena_.kind(n) == ExprKind::Symbol) {
      const SymbolId sid = arena_.symbol_id(n);
      // a lower-bound shift stand-in x' (x = x' + lo - 1) ranges over [1, hi - lo + 1]
      if (sid.index() < shift_origin_.size() && shift_origin_[sid.index()].valid()) {
        const ValueRange rs = symbol_range(arena_.symbol_id(shift_origin_[sid.index()]), size_oblivious);
        const ExtNum hi = rs.hi.kind == ExtNum::Kind::Int ? ExtNum::of(rs.hi.i - rs.lo.i + 1) : rs.hi;
        return ValueRange(ExtNum::of(1), hi);
      }
      return symbol_range(sid, size_oblivious);
    }
    return bound_node(arena_, n, {});
  };
  if (arena_.operands(e).empty()) return leaf_range(e);
  std::vector<RangeMemo>& memo = range_memo_[size_oblivious ? 1 : 0];
  if (memo.size() < arena_.size()) memo.resize(arena_.size() + arena_.size() / 2 + 64);
  const uint64_t stamp = range_version_ + 1;
  if (memo[e.index()].stamp == stamp) return memo[e.index()].range;
  bound_stack_.clear();
  bound_stack_.push_back(e);
  while (!bound_stack_.empty()) {
    const ExprId n = bound_stack_.back();
    if (memo[n.index()].stamp == stamp) {
      bound_stack_.pop_back();
      continue;
    }
    bool ready = true;
    for (ExprId o : arena_.operands(n))
      if (!arena_.operands(o).empty() && memo[o.index()].stamp != stamp) {
        bound_stack_.push_back(o);
        ready = false;
      }
    if (!ready) continue;
    bound_args_.clear();
    for (ExprId o : arena_.operands(n))
      bound_args_.push_back(arena_.operands(o).empty() ? leaf_range(o) : memo[o.index()].range);
    memo[n.index()] = {bound_node(arena_, n, bound_args_), stamp};
    bound_stack_.pop_back();
  }
  return memo[e.index()].range;
}

// The positive stand-in x' of symbol x in the lower-bound shift (x = x' + lo - 1): one
// per symbol and arena, so repeated shifts neither format a name nor intern it again.
ExprId ShapeEnv::shift_symbol(ExprId s) {
  const uint32_t i = arena_.symbol_id(s).index();
  if (shift_symbols_.size() <= i) shift_symbols_.resize(i + 1 + i / 2 + 8);
  ExprId& fresh = shift_symbols_[i];
  if (!fresh.valid()) {
    const ExprId f = arena_.symbol(fmt::format("_shift_{}", arena_.symbol_name(s)), SymbolKind::Free,
                                   kFactInteger | kFactPositive | kFactNonNegative);
    shift_symbols_[i] = f;  // (the reference may have moved if the arena grew)
    const uint32_t fi = arena_.symbol_id(f).index();
    if (shift_origin_.size() <= fi) shift_origin_.resize(fi + 1 + fi / 2 + 8);
    shift_origin_[fi] = s;
    return f;
  }
  return fresh;
}

ExprId ShapeEnv::shifted(ExprId n, bool size_oblivious) {
  if (arena_.symbol_mask(n) == 0) return n;
  if (arena_.kind(n) == ExprKind::Symbol) {
    const ValueRange rs = bound(n, size_oblivious);
    if (rs.lo.kind != ExtNum::Kind::Int) return n;
    return arena_.add(shift_symbol(n), arena_.integer(rs.lo.i - 1));
  }
  std::vector<ShiftMemo>& memo = shift_memo_[size_oblivious ? 1 : 0];
  const uint64_t stamp = range_version_ + 1;
  if (n.index() < memo.size() && memo[n.index()].stamp == stamp) return memo[n.index()].value;
  InlineVec<ExprId, 8> ops;
  bool changed = false;
  for (ExprId op : arena_.operands(n)) {
    const ExprId r = shifted(op, size_oblivious);
    changed |= r != op;
    ops.push_back(r);
  }
  const ExprId r = changed ? arena_.rebuild(arena_.kind(n), std::span<const ExprId>(ops), arena_.payload(n)) : n;
  if (memo.size() <= n.index()) memo.resize(arena_.size() + arena_.size() / 2 + 64);
  memo[n.index()] = {r, stamp};
  return r;
}

ExprId ShapeEnv::simplify(ExprId e, bool size_oblivious) { return simplify_as(e, size_oblivious, kBareSimplify); }

ExprId ShapeEnv::simplify_as(ExprId e, bool size_oblivious, SimplifyCall call) {
  if (arena_.is_constant(e) || arena_.kind(e) == ExprKind::Symbol) return replace(e);
  // memo by ExprId, kept as PyTorch's _lru_cache keeps it: until the count of replacements,
  // divisibility facts or deferred runtime asserts grows (simplify_cache_version_). A
  // size-oblivious simplify folds no Max, so only replacements and divisibility reach it.
  std::vector<SimplifyMemo>& memo = simplify_memo_[call];
  if (!size_oblivious) {
    if (memo.size() <= e.index()) memo.resize(arena_.size() + arena_.size() / 2 + 64);
    const SimplifyMemo& slot = memo[e.index()];
    if (slot.version == simplify_cache_version_ && slot.value.valid()) return slot.value;
  }
  const ExprId result = simplify_uncached(e, size_oblivious);
  if (!size_oblivious) memo[e.index()] = {result, simplify_cache_version_};  // sized above
  return result;
}

ExprId ShapeEnv::simplify_uncached(ExprId e, bool size_oblivious) {
  ExprId x = arena_.expand(replace(e));
  if (arena_.is_constant(x) || arena_.kind(x) == ExprKind::Symbol) return x;
  const ExprId f = fold(x, size_oblivious);
  // PyTorch's simplify safe_expands after replacing a FloorDiv by a CleanDiv (CleanDiv is a
  // FloorDiv, so one already exact counts too): a Max(1, (1 + Q)*P) folded before it is
  // distributed then, `96*P*Q + 96*P` rather than `96*(P*Q + P)`
  if (!fold_memo_[size_oblivious ? 1 : 0][x.index()].exact_division) return f;
  return expand_after_exact_division(f);
}

ExprId ShapeEnv::expand_after_exact_division(ExprId folded) {
  const ExprId y = arena_.expand(folded);
  if (y == folded) return y;
  // `new_pows.issubset(pows)`: an expansion that creates a power is not taken
  // (a rare path: only questions over an exact division reach it)
  std::vector<ExprId> before, after;
  std::unordered_set<uint32_t> seen;
  auto pows = [&](auto& self, ExprId n, std::vector<ExprId>& out) -> void {
    if (!seen.insert(n.index()).second) return;
    if (arena_.kind(n) == ExprKind::Pow) out.push_back(n);
    for (ExprId op : arena_.operands(n)) self(self, op, out);
  };
  pows(pows, y, after);
  if (after.empty()) return y;
  seen.clear();
  pows(pows, folded, before);
  for (ExprId p : after)
    if (std::find(before.begin(), before.end(), p) == before.end()) return folded;
  return y;
}

// Max(c, b) / Min(c, b) with c in {0, 1}: decided with the (size-oblivious) bound of b;
// TruncToInt of an IntTrueDiv; FloorDiv by a known divisor.
ExprId ShapeEnv::fold(ExprId n, bool size_oblivious) {
  if (arena_.is_constant(n) || arena_.kind(n) == ExprKind::Symbol) return n;
  std::vector<FoldMemo>& memo = fold_memo_[size_oblivious ? 1 : 0];
  if (n.index() < memo.size() && memo[n.index()].version == simplify_version_) return memo[n.index()].value;
  bool exact_division = false;
  // operands are copied only once one of them changed: most simplify calls change
  // nothing, and this runs for every node of every question
  const std::span<const ExprId> in = arena_.operands(n);
  InlineVec<ExprId, 8> ops;
  bool changed = false;
  for (size_t i = 0; i < in.size(); ++i) {
    const ExprId r = fold(in[i], size_oblivious);
    if (!arena_.is_constant(in[i]) && arena_.kind(in[i]) != ExprKind::Symbol)
      exact_division |= memo[in[i].index()].exact_division;
    if (r != in[i] && !changed) {
      changed = true;
      for (size_t j = 0; j < i; ++j) ops.push_back(in[j]);
    }
    if (changed) ops.push_back(r);
  }
  const ExprId m = changed ? arena_.rebuild(arena_.kind(n), std::span<const ExprId>(ops), arena_.payload(n)) : n;
  const ExprId result = [&]() -> ExprId {
    const ExprKind k = arena_.kind(m);
    if ((k == ExprKind::Max || k == ExprKind::Min) && arena_.operands(m).size() == 2) {
      ExprId c = arena_.operand(m, 0), b = arena_.operand(m, 1);
      if (arena_.kind(c) == ExprKind::Integer && (arena_.int_value(c) == 0 || arena_.int_value(c) == 1)) {
        const ValueRange rb = bound(b, size_oblivious);
        if (rb.lo >= ExtNum::of(arena_.int_value(c))) return k == ExprKind::Max ? b : c;
        // PyTorch asks _maybe_evaluate_static(b >= c): the axioms too (`1 < H // 2` guarded
        // earlier makes Max(1, H // 2) fold); the answer is memoised as PyTorch's caches keep
        // it, until simplify_version_ moves (shape_env.h)
        if (!size_oblivious) {
          const bool without = std::exchange(static_without_axioms_, false);  // simplify's own query
          const auto known = maybe_evaluate_static(arena_.ge(b, c));
          static_without_axioms_ = without;
          if (known && *known == arena_.true_()) return k == ExprKind::Max ? b : c;
        }
      }
    }
    if (k == ExprKind::TruncToInt && arena_.kind(arena_.operand(m, 0)) == ExprKind::IntTrueDiv) {
      ExprId div = arena_.operand(m, 0);
      ExprId a = arena_.operand(div, 0), b = arena_.operand(div, 1);
      if (arena_.mod(a, b) == arena_.zero()) return arena_.clean_div(a, b);
      return arena_.floordiv(a, b);
    }
    if (k == ExprKind::FloorDiv) {
      ExprId a = arena_.operand(m, 0), b = arena_.operand(m, 1);
      // FloorDiv(a, FloorDiv(a, d)) -> d when both divisibilities are known
      if ((arena_.kind(b) == ExprKind::FloorDiv || arena_.kind(b) == ExprKind::CleanDiv) && arena_.operand(b, 0) == a) {
        const ExprId d = arena_.operand(b, 1);
        if (known_divisible(arena_.mod(a, b)) && known_divisible(arena_.mod(a, d))) {
          exact_division = true;
          return d;
        }
      }
      if (known_divisible(arena_.mod(a, b))) {
        exact_division = true;
        return arena_.clean_div(a, b);
      }
    }
    if (k == ExprKind::CleanDiv && known_divisible(arena_.mod(arena_.operand(m, 0), arena_.operand(m, 1))))
      exact_division = true;
    return m;
  }();
  if (memo.size() <= n.index()) memo.resize(arena_.size() + arena_.size() / 2 + 64);
  memo[n.index()] = {result, simplify_version_, exact_division};
  return result;
}

ExprId ShapeEnv::as_floordiv(ExprId e) {
  if (arena_.is_constant(e) || arena_.kind(e) == ExprKind::Symbol) return e;
  if (e.index() < as_floordiv_memo_.size() && as_floordiv_memo_[e.index()].valid()) return as_floordiv_memo_[e.index()];
  InlineVec<ExprId, 8> ops;
  bool changed = false;
  for (ExprId op : arena_.operands(e)) {
    ops.push_back(as_floordiv(op));
    changed |= ops.back() != op;
  }
  ExprId r = e;
  if (arena_.kind(e) == ExprKind::CleanDiv) r = arena_.floordiv(ops[0], ops[1]);
  else if (changed) r = arena_.rebuild(arena_.kind(e), std::span<const ExprId>(ops), arena_.payload(e));
  if (as_floordiv_memo_.size() <= e.index()) as_floordiv_memo_.resize(arena_.size() + arena_.size() / 2 + 64);
  as_floordiv_memo_[e.index()] = r;
  return r;
}

bool ShapeEnv::known_divisible(ExprId mod) {
  if (divisible_.empty()) return false;
  const ExprId m = as_floordiv(replace(mod));
  return std::find(divisible_.begin(), divisible_.end(), m) != divisible_.end();
}

ShapeEnv::SidesEntry& ShapeEnv::sides_slot(ExprId to, ExprId from) {
  const uint64_t h = (uint64_t{to.value} * 0x9e3779b97f4a7c15ull) ^ (uint64_t{from.value} * 0xff51afd7ed558ccdull);
  return sides_memo_[(h >> 40) & (sides_memo_.size() - 1)];
}

std::pair<ExprId, ExprId> ShapeEnv::relation_sides(ExprId to, ExprId from) {
  static const bool verify = std::getenv("SYMSHAPE_VERIFY_SIDES") != nullptr;
  SidesEntry& m = sides_slot(to, from);
  if (m.generation == sides_generation_ && m.to == to.value && m.from == from.value) {
    if (verify) {
      const ExprId ml = m.lhs, mr = m.rhs;
      const RelationSides s = canonical_relation_sides(arena_, arena_.sub(to, from));
      if (s.lhs != ml || s.rhs != mr) {
        std::fprintf(stderr, "SIDES MISMATCH\n");
        std::abort();
      }
    }
    return {m.lhs, m.rhs};
  }
  const ExprId d = arena_.sub(to, from);
  const RelationSides s = canonical_relation_sides(arena_, d);
  m = {to.value, from.value, sides_generation_, s.lhs, s.rhs};
  // An integer difference that is not a number gives its negation the same sides swapped
  // (every summand negated, the gcd unchanged, positive and negative summands trading
  // places), and the sides' own difference rhs - lhs is the reduced difference again: so
  // `b op a` and the negation of the canonical form are known from `a op b` without
  // building their differences.
  if (arena_.is_integer(d) && !arena_.is_constant(d)) {
    auto seed = [&](ExprId t, ExprId f, ExprId l, ExprId r) {
      SidesEntry& e = sides_slot(t, f);
      e = {t.value, f.value, sides_generation_, l, r};
    };
    seed(from, to, s.rhs, s.lhs);
    seed(s.rhs, s.lhs, s.lhs, s.rhs);
    seed(s.lhs, s.rhs, s.rhs, s.lhs);
  }
  return {s.lhs, s.rhs};
}

ExprId ShapeEnv::canonical(ExprId e) {
  if (canonical_memo_.size() <= e.index()) canonical_memo_.resize(arena_.size() + arena_.size() / 2 + 64);
  if (canonical_memo_[e.index()].valid()) return canonical_memo_[e.index()];
  ExprId c;
  if (arena_.is_relation(e) && !arena_.is_boolean(arena_.operand(e, 0)) && !arena_.is_boolean(arena_.operand(e, 1))) {
    // canonicalize_bool's relation rule, its sides through the memo
    const ExprKind k = arena_.kind(e);
    const auto [from, to] = canonical_relation_operands(k, arena_.operand(e, 0), arena_.operand(e, 1));
    const auto [lhs, rhs] = relation_sides(to, from);
    const ExprId ops[2] = {lhs, rhs};
    c = arena_.make_raw(canonical_relation_kind(k), ops);
  } else {
    c = canonicalize_bool(arena_, e);
  }
  if (canonical_memo_.size() <= e.index()) canonical_memo_.resize(arena_.size() + arena_.size() / 2 + 64);
  canonical_memo_[e.index()] = c;
  return c;
}

std::optional<ExprId> ShapeEnv::evaluate_with_axioms(ExprId e) {
  if (static_without_axioms_ || axioms_.empty() || !arena_.is_boolean(e)) return std::nullopt;
  if (auto v = axioms_.find(e)) return arena_.boolean(*v);
  ExprId c = canonical(e);
  if (auto v = axioms_.find(c)) return arena_.boolean(*v);
  // a relation whose negation is a known fact (`u0 > s` after `u0 <= s` was implied)
  if (arena_.is_relation(c)) {
    const ExprId n = canonical(arena_.logical_not(c));
    if (auto v = axioms_.find(n)) return arena_.boolean(!*v);
  }
  // Eq / Ne are symmetric: SymPy's axiom substitution matches `Ne(b, a)` to a recorded
  // `Ne(a, b)` (the relation's canonical form keeps the operand order)
  if (const ExprKind k = arena_.kind(e); k == ExprKind::Eq || k == ExprKind::Ne) {
    const ExprId a = arena_.operand(e, 0), b = arena_.operand(e, 1);
    const ExprId swapped = k == ExprKind::Eq ? arena_.eq(b, a) : arena_.ne(b, a);
    if (swapped != e) {
      if (auto v = axioms_.find(swapped)) return arena_.boolean(*v);
      if (auto v = axioms_.find(canonical(swapped))) return arena_.boolean(*v);
      if (auto v = axioms_.find(canonical(arena_.logical_not(canonical(swapped))))) return arena_.boolean(!*v);
    }
  }
  // _maybe_evaluate_static's `expr.xreplace(axioms)` replaces every operand of a junction
  // that is a known fact: one true operand decides an Or (`W == P or ...` after the guard
  // `W == P`), one false operand an And, and a junction of known operands is decided.
  if (const ExprKind k = arena_.kind(c); k == ExprKind::And || k == ExprKind::Or) {
    const bool absorbing = k == ExprKind::Or;
    bool all_known = true;
    for (ExprId x : arena_.operands(c)) {
      const auto v = evaluate_with_axioms(x);
      if (!v) {
        all_known = false;
        continue;
      }
      if ((*v == arena_.true_()) == absorbing) return arena_.boolean(absorbing);
    }
    if (all_known) return arena_.boolean(!absorbing);
  }
  return std::nullopt;
}

std::optional<ExprId> ShapeEnv::decide_by_difference(ExprId rel, bool expand, bool size_oblivious) {
  if (!arena_.is_relation(rel) || !arena_.is_integer(arena_.operand(rel, 0)) ||
      !arena_.is_integer(arena_.operand(rel, 1)))
    return std::nullopt;
  ExprId d = arena_.sub(arena_.operand(rel, 0), arena_.operand(rel, 1));
  if (expand) d = arena_.expand(d);
  const ExtNum zero = ExtNum::of(0);
  auto decides = [&](const ValueRange& rd) -> std::optional<bool> {
    switch (arena_.kind(rel)) {
      case ExprKind::Eq:
      case ExprKind::Ne:
        if (rd.lo > zero || rd.hi < zero) return arena_.kind(rel) == ExprKind::Ne;
        if (rd.is_singleton() && rd.lo == zero) return arena_.kind(rel) == ExprKind::Eq;
        return std::nullopt;
      case ExprKind::Lt: if (rd.hi < zero) return true; if (rd.lo >= zero) return false; return std::nullopt;
      case ExprKind::Le: if (rd.hi <= zero) return true; if (rd.lo > zero) return false; return std::nullopt;
      case ExprKind::Gt: if (rd.lo > zero) return true; if (rd.hi <= zero) return false; return std::nullopt;
      case ExprKind::Ge: if (rd.lo >= zero) return true; if (rd.hi < zero) return false; return std::nullopt;
      default: return std::nullopt;
    }
  };
  // Interval arithmetic only, as PyTorch's bound_sympy: the tighter sum_bound (expr/sum_bound.h)
  // would decide `H + Max(0, 1 - H + 2*ceil(H/2)) >= 3` (TF-style 'same' padding), which
  // PyTorch guards, so the ShapeEnv leaves it to the decision procedures (equality.h).
  const std::optional<bool> v = decides(bound(d, size_oblivious));
  if (!v) return std::nullopt;
  return arena_.boolean(*v);
}

// _maybe_evaluate_static's canonicalize_bool_expr rebuilds `Eq` / `Ne` from the difference's
// sides with the gcd of its coefficients divided out, through SymPy, whose Eq asks (rhs -
// lhs).is_zero: an odd difference of integers is not zero. So `8 != 32*N` (4*N - 1) is
// decided there, where the raw sides (both even) decide nothing.
std::optional<ExprId> ShapeEnv::decide_by_reduced_parity(ExprId rel) {
  const ExprKind k = arena_.kind(rel);
  if (k != ExprKind::Eq && k != ExprKind::Ne) return std::nullopt;
  const ExprId l = arena_.operand(rel, 0), r = arena_.operand(rel, 1);
  if (!arena_.is_integer(l) || !arena_.is_integer(r)) return std::nullopt;
  const auto [from, to] = canonical_relation_operands(k, l, r);
  const auto [lhs, rhs] = relation_sides(to, from);
  const int pl = arena_.parity(lhs), pr = arena_.parity(rhs);
  if (pl < 0 || pr < 0 || (pl ^ pr) == 0) return std::nullopt;
  return arena_.boolean(k == ExprKind::Ne);
}

std::optional<ExprId> ShapeEnv::maybe_evaluate_static(ExprId e, bool size_oblivious, bool unbacked_only) {
  return maybe_evaluate_static_as(e, size_oblivious, unbacked_only, size_oblivious ? kEvaluateExprOblivious : kBareCall);
}

std::optional<ExprId> ShapeEnv::maybe_evaluate_static_as(ExprId e, bool size_oblivious, bool unbacked_only,
                                                         StaticCall call) {
  if (arena_.is_constant(e)) return e;
  const bool use_memo = memo_enabled_ && !unbacked_only;
  std::vector<StaticMemo>& memo = static_memo_[call];
  const uint64_t stamp = static_cache_version_ + 1;
  if (use_memo) {
    if (memo.size() < arena_.size()) memo.resize(arena_.size() + arena_.size() / 2 + 64);
    const StaticMemo& m = memo[e.index()];
    if (m.stamp == stamp) return m.value.valid() ? std::optional<ExprId>(m.value) : std::nullopt;
  }
  auto remember = [&, e](std::optional<ExprId> r) {
    if (use_memo) {
      if (memo.size() <= e.index()) memo.resize(arena_.size() + arena_.size() / 2 + 64);
      memo[e.index()] = {r ? *r : ExprId(), stamp};
    }
    return r;
  };
  ExprId x = simplify_as(e, size_oblivious, call == kEngineShortcut ? kShortcutSimplify : kStaticSimplify);
  if (arena_.is_constant(x)) return remember(x);
  if (!static_without_axioms_)
    if (auto v = axioms_.find(x)) return remember(arena_.boolean(*v));
  // size-oblivious ranges (sizes >= 2) are assumptions, not facts: the axioms come first there
  if (size_oblivious)
    if (auto a = evaluate_with_axioms(x)) return remember(*a);
  // PyTorch's _maybe_evaluate_static bounds only the expanded form (safe_expand): a product of
  // sums such as (A - 1)*(B - 1) != 1 stays undecided (and becomes a guard) even where the
  // factors' own ranges would decide it
  const ValueRange r = bound(arena_.expand(x), size_oblivious);
  if (r.is_singleton() && r.lo.is_finite()) {
    if (arena_.is_boolean(x)) return remember(arena_.boolean(r.lo.i != 0));
    if (r.lo.kind == ExtNum::Kind::Int) return remember(arena_.integer(r.lo.i));
  }
  // The axioms by canonical form after the ranges (PyTorch substitutes them first): every
  // axiom and every (not size-oblivious) range is a fact, so the order changes no answer,
  // only its cost; most questions the ranges decide would otherwise build a canonical form
  // for nothing.
  if (!size_oblivious)
    if (auto a = evaluate_with_axioms(x)) return remember(*a);
  // canonicalize_bool_expr's parity (PyTorch asks it first; a fact either way, so after the
  // cheaper ranges and axioms, whose canonical sides it then reuses)
  if (auto v = decide_by_reduced_parity(x)) return remember(*v);
  // A relation between integers is decided by the range of its expanded difference,
  // which cancels shared terms the two sides' separate ranges cannot see
  // (e.g. A*B + A + B + 1 > B + 1 becomes A*B + A > 0).
  if (auto v = decide_by_difference(x, true, size_oblivious)) return remember(*v);
  // Hand the lower bounds to the structure: x := x' + (lo - 1) with x' >= 1, expand, bound.
  SymbolList syms;
  arena_.free_symbols(x, syms);
  SymbolList from, to;
  for (ExprId s : syms) {
    const SymbolState& st = state(s);
    if (unbacked_only && !st.unbacked) continue;
    ValueRange rs = bound(s, size_oblivious);
    if (rs.lo.kind != ExtNum::Kind::Int) continue;
    const int64_t lo = rs.lo.i;
    const ExprId fresh = shift_symbol(s);
    from.push_back(s);
    to.push_back(arena_.add(fresh, arena_.integer(lo - 1)));
  }
  if (!from.empty() && !unbacked_only) {
    // the same substitution node by node through the shift memo, and bound() knows the
    // stand-ins' ranges: the sub-expressions questions share are shifted and bounded once.
    // Then _maybe_evaluate_static_worker bounds canonicalize_bool_expr(safe_expand(...)):
    // a relation's sides become one difference, so `144*B*C != C` (B >= 2, C >= 1) is
    // `143*C' + 144*B'*C' != 0`, which the bound decides and the sides' ranges cannot.
    // Bounding the expanded difference decides exactly what bounding the canonical sides
    // does (the gcd and the side each term lands on change no sign), without building them.
    const ExprId y = arena_.expand(shifted(x, size_oblivious));
    if (arena_.is_constant(y)) return remember(y);
    if (arena_.is_relation(y) && arena_.is_integer(arena_.operand(y, 0)) && arena_.is_integer(arena_.operand(y, 1))) {
      if (auto v = decide_by_difference(y, false, size_oblivious)) return remember(*v);
    } else {
      const ValueRange ry = bound(arena_.is_boolean(y) ? canonicalize_bool(arena_, y) : y, size_oblivious);
      if (ry.is_singleton() && ry.lo.is_finite()) {
        if (arena_.is_boolean(y)) return remember(arena_.boolean(ry.lo.i != 0));
        if (ry.lo.kind == ExtNum::Kind::Int) return remember(arena_.integer(ry.lo.i));
      }
    }
  } else if (!from.empty()) {
    ExprId y = canonicalize_bool(arena_, arena_.expand(arena_.substitute(x, from, to)));
    if (arena_.is_constant(y)) return remember(y);
    // the callback captures one pointer so std::function keeps it inline (no allocation)
    struct ShiftScope {
      ShapeEnv* env;
      const SymbolList* from;
      const SymbolList* to;
      bool size_oblivious;
    } scope{this, &from, &to, size_oblivious};
    const ValueRange ry = symshape::bound(arena_, y, [sc = &scope](SymbolId sid) -> ValueRange {
      ShapeEnv& self = *sc->env;
      ExprArena& ar = self.arena_;
      const SymbolList& from = *sc->from;
      const SymbolList& to = *sc->to;
      const bool size_oblivious = sc->size_oblivious;
      for (size_t i = 0; i < from.size(); ++i) {
        // to[i] is fresh + (lo - 1), or the bare fresh symbol when lo == 1 (no operands)
        const ExprId f = ar.kind(to[i]) == ExprKind::Add ? ar.operand(to[i], 1) : to[i];
        if (ar.symbol_id(f) == sid) {
          const ValueRange rs = self.bound(from[i], size_oblivious);
          const ExtNum hi = rs.hi.kind == ExtNum::Kind::Int ? ExtNum::of(rs.hi.i - rs.lo.i + 1) : rs.hi;
          return ValueRange(ExtNum::of(1), hi);
        }
      }
      if (sid.index() < self.symbols_.size()) return self.bound(ar.symbol_expr(sid), size_oblivious);
      return default_symbol_range(ar, sid);
    });
    if (ry.is_singleton() && ry.lo.is_finite()) {
      if (arena_.is_boolean(y)) return remember(arena_.boolean(ry.lo.i != 0));
      if (ry.lo.kind == ExtNum::Kind::Int) return remember(arena_.integer(ry.lo.i));
    }
  }
  return remember(std::nullopt);
}

bool ShapeEnv::statically_known_true(ExprId b) {
  auto r = maybe_evaluate_static(b);
  return r && *r == arena_.true_();
}

bool ShapeEnv::decided_true(ExprId b) {
  auto r = maybe_evaluate_static_as(b, false, false, kEngineShortcut);
  return r && *r == arena_.true_();
}

bool ShapeEnv::statically_known_false(ExprId b) {
  auto r = maybe_evaluate_static(b);
  return r && *r == arena_.false_();
}

}  // namespace symshape
