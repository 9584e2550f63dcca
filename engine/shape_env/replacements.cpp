// ShapeEnv replacements and ranges (semantics.md C.6, C.7 step 6): the replacement table
// and replace(), range updates, and what a guarded relation teaches (maybe_guard_rel:
// refined ranges, a replacement, a divisibility fact).
#include "shape_env/shape_env.h"

#include <algorithm>
#include <unordered_map>

#include "core/checked_math.h"
#include "expr/canonical.h"
#include "shape_env/symbol_list.h"

namespace symshape {

// ---- replacements ----------------------------------------------------------------------

ExprId ShapeEnv::find(ExprId sym) {
  SymbolState& st = state(sym);
  if (!st.replacement.valid()) return sym;
  ExprId target = st.replacement;
  if (arena_.symbol_mask(target) & replaced_mask_) {
    ExprId resolved = replace(target);
    state(sym).replacement = resolved;  // path compression
    target = resolved;
  }
  return target;
}

ExprId ShapeEnv::replace(ExprId e) {
  if ((arena_.symbol_mask(e) & replaced_mask_) == 0) return e;
  const uint64_t stamp = replace_version_ + 1;
  if (e.index() < replace_memo_.size() && replace_memo_[e.index()].stamp == stamp)
    return replace_memo_[e.index()].value;
  const ExprId r = replace_uncached(e);
  if (replace_memo_.size() <= e.index()) replace_memo_.resize(arena_.size() + arena_.size() / 2 + 64);
  replace_memo_[e.index()] = {r, stamp};
  return r;
}

ExprId ShapeEnv::replace_uncached(ExprId e) {
  SymbolList syms, values;
  arena_.free_symbols(e, syms);
  SymbolList from;
  for (ExprId s : syms) {
    if (!state(s).replacement.valid()) continue;
    from.push_back(s);
    values.push_back(find(s));
  }
  if (from.empty()) return e;
  return arena_.substitute(e, from, values);
}

void ShapeEnv::set_replacement(ExprId a, ExprId tgt) {
  tgt = replace(tgt);
  if (tgt == a || arena_.contains(tgt, a)) return;
  if (state(a).replacement.valid()) return;
  if (settings_.prefer_deferred_runtime_asserts_over_guards) {
    // export keeps symbols: only x, k*x, x + c, k*x + c over one symbol
    SymbolList fs;
    arena_.free_symbols(tgt, fs);
    if (fs.size() != 1) return;
  }
  ValueRange ra = state(a).range;
  ValueRange rt = bound(tgt);
  if (!rt.issubset(ra)) {
    // back-propagate into the single symbol of a linear target: tgt = k*b + c
    SymbolList fs;
    arena_.free_symbols(tgt, fs);
    if (fs.size() == 1 && !state(fs[0]).replacement.valid()) {
      const ExprId b = fs[0];
      const ExprId zero = arena_.zero();
      const ExprId c = arena_.substitute(tgt, std::span<const ExprId>(&b, 1), std::span<const ExprId>(&zero, 1));
      const ExprId kb = arena_.sub(tgt, c);
      auto [k, rest] = arena_.split_coefficient(kb);
      if (rest == b && k > 0 && arena_.kind(c) == ExprKind::Integer) {
        const int64_t cc = arena_.int_value(c);
        ExtNum lo = ExtNum::int_oo(-1), hi = ExtNum::int_oo(1);
        if (ra.lo.kind == ExtNum::Kind::Int) lo = ExtNum::of(-floor_div(-(ra.lo.i - cc), k));  // ceil
        if (ra.hi.kind == ExtNum::Kind::Int) hi = ExtNum::of(floor_div(ra.hi.i - cc, k));
        if (lo <= hi) update_range(b, ValueRange(lo, hi) & state(b).range);
        rt = bound(tgt);
      }
    }
    ra = ra.lo <= rt.hi && rt.lo <= ra.hi ? (ra & rt) : ra;
    update_range(a, ra);
    if (!bound(tgt).issubset(state(a).range)) return;
  } else {
    // a's range narrows to what the target can take
    if (state(a).range.lo < rt.lo || rt.hi < state(a).range.hi) update_range(a, state(a).range & rt);
  }
  SymbolState& st = state(a);
  if (!st.replacement.valid()) bump_version_counter();  // len(replacements) grew
  st.replacement = tgt;
  ++replace_version_;
  if (arena_.kind(tgt) == ExprKind::Symbol && st.size_like) state(tgt).size_like = true;
  replaced_mask_ |= arena_.symbol_mask(a);
  bump_version();
}

void ShapeEnv::update_range(ExprId sym, const ValueRange& r) {
  SymbolState& st = state(sym);
  ValueRange nr = r;
  if (st.size_like && nr.hi < ExtNum::of(2) && nr.hi.is_finite()) nr = ValueRange(nr.lo, ExtNum::of(2));
  if (nr.lo == st.range.lo && nr.hi == st.range.hi) return;
  st.range = nr;
  bump_version();
}

void ShapeEnv::constrain_range(ExprId sym, ExtNum lo, ExtNum hi) {
  update_range(sym, state(sym).range & ValueRange(lo, hi));
}

void ShapeEnv::constrain_range_for_size(ExprId sym, std::optional<int64_t> min, std::optional<int64_t> max) {
  SymbolState& st = state(sym);
  st.size_like = true;
  ValueRange r(ExtNum::of(min.value_or(0)), max ? ExtNum::of(*max) : ExtNum::int_oo());
  update_range(sym, st.range & r);
  bump_version();
}

// ---- what a relation teaches ------------------------------------------------------------

void ShapeEnv::refine_ranges(ExprId rel) {
  // simplified first, as _refine_ranges does: Max(1, W//32) > 1 solves only once the
  // ranges have folded the Max
  rel = simplify(rel);
  if (!arena_.is_relation(rel)) return;
  SymbolList syms;
  arena_.free_symbols(rel, syms);
  for (ExprId x : syms) {
    if (!arena_.is_integer(x)) continue;
    auto sol = try_solve(arena_, rel, x);
    if (!sol) continue;
    const ValueRange r = bound(sol->rhs);
    ValueRange cur = state(x).range;
    ExtNum lo = cur.lo, hi = cur.hi;
    const ExprKind op = sol->op;
    // `<=`, not `<`: for a strict relation an equal bound still gains one (x > y, y >= 2
    // gives x >= 3), as current PyTorch does.
    if ((op == ExprKind::Eq || op == ExprKind::Ge || op == ExprKind::Gt) && lo <= r.lo && r.lo.is_int()) {
      lo = r.lo;
      if (op == ExprKind::Gt && lo.kind == ExtNum::Kind::Int) lo = ExtNum::of(lo.i + 1);
    }
    if ((op == ExprKind::Eq || op == ExprKind::Le || op == ExprKind::Lt) && r.hi <= hi && r.hi.is_int()) {
      hi = r.hi;
      if (op == ExprKind::Lt && hi.kind == ExtNum::Kind::Int) hi = ExtNum::of(hi.i - 1);
    }
    if (hi < lo) continue;  // contradiction with what the hint says: leave it to the guard
    // _refine_ranges clears _maybe_evaluate_static's cache when it refines a range
    if (lo != cur.lo || hi != cur.hi) ++static_cache_version_;
    update_range(x, ValueRange(lo, hi));
    const ValueRange& nr = state(x).range;
    if (nr.is_singleton() && nr.lo.kind == ExtNum::Kind::Int) set_replacement(x, arena_.integer(nr.lo.i));
  }
}

void ShapeEnv::maybe_guard_rel(ExprId g) {
  if (arena_.kind(g) == ExprKind::And) {
    std::vector<ExprId> conj(arena_.operands(g).begin(), arena_.operands(g).end());
    for (ExprId c : conj) maybe_guard_rel(c);
    return;
  }
  if (!arena_.is_relation(g) || arena_.kind(g) == ExprKind::Ne) return;
  SymbolList syms;
  arena_.free_symbols(g, syms);
  if (syms.size() > 5 || syms.empty()) return;
  refine_ranges(g);
  if (arena_.kind(g) != ExprKind::Eq) return;
  g = replace(g);
  if (arena_.is_constant(g)) return;
  // atoms
  // The atoms in a preorder walk of the tree: any floor division, and the last Mod visited.
  // Each node's answer is kept, so a DAG of shared sub-expressions is not walked as a tree.
  bool has_floordiv = false;
  std::unordered_map<uint32_t, ExprId> last_mod;  // node -> last Mod of its subtree (or none)
  auto scan = [&](auto& self, ExprId n) -> ExprId {
    if (auto it = last_mod.find(n.value); it != last_mod.end()) return it->second;
    const ExprKind k = arena_.kind(n);
    ExprId last = k == ExprKind::Mod || k == ExprKind::PythonMod ? n : ExprId{};
    if ((k == ExprKind::FloorDiv || k == ExprKind::CleanDiv) && arena_.operand(n, 1) != arena_.one())
      has_floordiv = true;
    for (ExprId op : arena_.operands(n))
      if (const ExprId m = self(self, op); m.valid()) last = m;
    last_mod.emplace(n.value, last);
    return last;
  };
  const ExprId mod_atom = scan(scan, g);
  const bool has_mod = mod_atom.valid();
  if (has_mod) {
    // Eq(Mod(p, q), 0) -> p divisible by q
    auto sol = try_solve(arena_, g, mod_atom, false);
    if (sol && sol->op == ExprKind::Eq && sol->rhs == arena_.zero()) {
      if (!known_divisible(mod_atom)) {
        // kept with CleanDiv spelled FloorDiv: both name the same value
        divisible_.push_back(as_floordiv(mod_atom));
        bump_version_counter();
        bump_divisible_version();
        resimplify_floordiv_axioms();
      }
    }
    return;
  }
  if (has_floordiv) return;
  syms.clear();
  arena_.free_symbols(g, syms);
  // Which symbol is eliminated: the largest key (only-ephemeral-sources, hint, name).
  auto key_less = [&](ExprId a, ExprId b) {
    const SymbolState &sa = state(a), &sb = state(b);
    auto eph = [&](const SymbolState& s) {
      return !s.sources.empty() && std::all_of(s.sources.begin(), s.sources.end(),
                                               [&](SourceId src) { return sources_.is_ephemeral(src); });
    };
    const bool ea = eph(sa), eb = eph(sb);
    if (ea != eb) return ea < eb;
    const bool ia = !sa.hint || !arena_.is_positive(a), ib = !sb.hint || !arena_.is_positive(b);
    if (ia != ib) return ia < ib;
    if (!ia && *sa.hint != *sb.hint) return *sa.hint < *sb.hint;
    return arena_.symbol_name(a) < arena_.symbol_name(b);
  };
  std::sort(syms.begin(), syms.end(), [&](ExprId a, ExprId b) { return key_less(b, a); });
  const ExprId lhs = arena_.operand(g, 0), rhs = arena_.operand(g, 1);
  auto has_unbacked_non_input = [&](ExprId e) {
    SymbolList fs;
    arena_.free_symbols(e, fs);
    for (ExprId s : fs)
      if (state(s).unbacked && !state(s).unbacked_input) return true;
    return false;
  };
  // trivial: a lone unbacked symbol equal to something without (non-input) unbacked symbols
  for (int side = 0; side < 2; ++side) {
    ExprId a = side == 0 ? lhs : rhs, b = side == 0 ? rhs : lhs;
    if (arena_.kind(a) == ExprKind::Symbol && state(a).unbacked && !has_unbacked_non_input(b)) {
      set_replacement(a, b);
      return;
    }
  }
  for (ExprId x : syms) {
    auto sol = try_solve(arena_, g, x, false);
    if (!sol || sol->op != ExprKind::Eq) return;
    // accept only an exact integral solution without unbacked symbols
    ExprId back = arena_.expand(arena_.substitute(arena_.sub(lhs, rhs), std::span<const ExprId>(&x, 1),
                                                  std::span<const ExprId>(&sol->rhs, 1)));
    if (back != arena_.zero()) return;
    if (arena_.facts(sol->rhs) & kFactHasUnbacked) return;
    if (!arena_.is_integer(sol->rhs)) return;
    set_replacement(x, sol->rhs);
    return;  // only the first symbol of the sorted list is tried
  }
}

}  // namespace symshape
