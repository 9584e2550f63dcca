// produce_guards' constraint phases (F.7) over the ShapeEnv of one propagation, the solver
// (F.8) and the hint checks (F.9).
#include "spec/spec_check.h"

#include <fmt/format.h>

#include <algorithm>

#include "expr/evaluate.h"
#include "expr/printer.h"
#include "prop/propagate.h"
#include "shape_env/shape_env.h"
#include "spec/dim_constraints.h"
#include "spec/export_tensor_meta.h"
#include "spec/spec_error.h"
#include "spec/spec_leaves.h"
#include "spec/suggested_fixes.h"

namespace symshape::spec {
namespace {

// A StrictMinMaxConstraint (named Dim) or a RelaxedUnspecConstraint (Dim.DYNAMIC).
struct Constraint {
  enum class Kind : uint8_t { None, Strict, Relaxed } kind = Kind::None;
  int64_t lo = 0;
  std::optional<int64_t> hi;  // nullopt: int_oo
  bool operator==(const Constraint&) const = default;
};

struct Tracked {
  uint32_t placeholder, dim;
  std::string source, debug;  // debug: the Dim name, or the source when there is none
  ExprId value;               // after replacements (a forced constant stays the symbol: export)
  bool created_constant;      // the size was a constant from the start (static or 0/1)
  Constraint c;
  HintKind hint = HintKind::Static;
  bool hinted = false;
  ExprId declared;  // a derived dim: fn(root), the relation its Dim declares
  // The size over its root Dim as the spec declares it (EqualityConstraint's _rewrite): a
  // named Dim is its root's canonical symbol, a derived dim fn(that symbol); none otherwise.
  ExprId canon;
};

// The accepted examples in the order the check tries them: those whose spec'd dims are all
// >= 2 first (a 0/1 size is specialised by the example, not by the graph: C.4).
std::vector<uint32_t> candidate_examples(const Graph& g) {
  auto spec_dims_ge2 = [&](uint32_t ex) {
    for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
      std::span<const SpecDim> dims = g.spec_dims(PlaceholderId(p));
      std::span<const int64_t> sz = g.example(ex).input_sizes(PlaceholderId(p));
      for (uint32_t d = 0; d < dims.size() && d < sz.size(); ++d)
        if (dims[d].sym.valid() && sz[d] < 2) return false;
    }
    return true;
  };
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < g.num_examples(); ++i)
    if (g.example(i).ok() && spec_dims_ge2(i)) out.push_back(i);
  for (uint32_t i = 0; i < g.num_examples(); ++i)
    if (g.example(i).ok() && !spec_dims_ge2(i)) out.push_back(i);
  return out;
}

std::string bound_str(std::optional<int64_t> v) { return v ? std::to_string(*v) : "None"; }

class Checker {
 public:
  Checker(const Graph& g, const DynamicShapes* spec, ShapeEnv& env, Propagator& prop, SpecCheckResult& r)
      : g_(g), spec_(spec), env_(env), ar_(env.arena()), prop_(prop), r_(r) {}

  void run() {
    track();
    phase0();
    phase1();
    phase2();
    phase3();
    solve();
    // export raises produce_guards' error before it compares the hints with the trace
    if (r_.violations.empty() && r_.forced.empty() && r_.solver_error.empty()) hints();
    if (r_.ok()) exported_ranges();
  }

 private:
  // Phase 0's traversal: every input size with its source, Dim name and constraint.
  void track() {
    SpecLeaves leaves;
    if (spec_) leaves = spec_leaves(g_, *spec_);
    for (uint32_t p = 0; p < g_.num_placeholders(); ++p) {
      const PlaceholderId ph(p);
      const ValId v = prop_.node_values()[g_.placeholder_node(ph).index()];
      if (prop_.values().kind(v) != ValKind::Tensor) continue;
      std::span<const ExprId> sizes = prop_.values().sizes(prop_.values().as_tensor(v));
      std::span<const SpecDim> dims = g_.spec_dims(ph);
      for (uint32_t d = 0; d < sizes.size(); ++d) {
        Tracked t{p, d, fmt::format("L['{}'].size()[{}]", g_.node_name(g_.placeholder_node(ph)), d), {}, sizes[d],
                  ar_.kind(sizes[d]) != ExprKind::Symbol, {}, HintKind::Static, false, ExprId(), ExprId()};
        if (d < dims.size() && dims[d].sym.valid() && !g_.sym_name(dims[d].sym).empty())
          t.canon = ar_.add(ar_.mul(ar_.integer(fn_of(ph, d).mul), canonical_root(g_.sym_name(dims[d].sym))),
                            ar_.integer(fn_of(ph, d).add));
        t.debug = t.source;
        const SpecDimFn fn = g_.spec_dim_fn(ph, d);
        if (d < dims.size() && dims[d].sym.valid() && !fn.identity()) {
          // a derived Dim (`dx + 1`): its own strict range [fn(min), fn(max)], named as
          // PyTorch prints it; the root's expression (a phantom root's too) is constrained
          const SymId root = dims[d].sym;
          const DimRef ref{make_dim(g_.sym_name(root), g_.sym_min(root), g_.sym_max(root)), LinearFn{fn.mul, fn.add}};
          t.debug = dim_name(ref);
          t.c = {Constraint::Kind::Strict, dim_min(ref), dim_max(ref)};
          source_to_debug_.emplace_back(t.source, t.debug);
          // the root as the guards left it: `dx - 1` replaces the larger-hinted root by the
          // derived size + 1 (no root symbol then, and no phantom)
          ExprId r = prop_.spec_symbol(root);
          if (r.valid()) r = env_.simplify(env_.replace(r));
          if (r.valid()) {
            t.declared = env_.simplify(env_.replace(ar_.add(ar_.mul(ar_.integer(fn.mul), r), ar_.integer(fn.add))));
            if (ar_.kind(r) == ExprKind::Symbol && std::find(roots_.begin(), roots_.end(), r) == roots_.end()) {
              roots_.push_back(r);
              root_names_.emplace_back(g_.sym_name(root));
            }
          }
        } else if (d < dims.size() && dims[d].sym.valid()) {
          const std::string name(g_.sym_name(dims[d].sym));
          if (!name.empty()) {
            t.debug = name;
            t.c = {Constraint::Kind::Strict, g_.sym_min(dims[d].sym), g_.sym_max(dims[d].sym)};
            source_to_debug_.emplace_back(t.source, name);
          } else {
            t.hinted = true;
            t.hint = HintKind::Auto;
            if (const SpecNode* n = spec_ ? leaves.leaf(*spec_, p, d) : nullptr; n && n->kind == NodeKind::Hint)
              t.hint = HintKind(n->value);
            if (t.hint == HintKind::Dynamic) t.c.kind = Constraint::Kind::Relaxed;
          }
        }
        if (!t.created_constant) {
          const ExprId now = env_.simplify(env_.replace(t.value));
          // A named Dim the guards replaced by a constant is that constant, as produce_guards'
          // track_symint sees it, and phase 0 reports the specialisation: torch.export 2.x's
          // ShapeEnv takes constant replacements (prefer_deferred_runtime_asserts_over_guards
          // defaults to False, so `_set_replacement` does not refuse them); so is a Dim.DYNAMIC
          // hint (a RelaxedUnspecConstraint). A Dim.AUTO dim keeps its symbol pinned to the
          // constant, for the F.9 hint check's range.
          if (ar_.is_integer_const(now) && t.c.kind == Constraint::Kind::None)
            pinned_.emplace_back(t.value, ar_.int_value(now));
          else t.value = now;
        }
        if (ar_.kind(t.value) == ExprKind::Symbol) {
          auto it = std::find(symbols_.begin(), symbols_.end(), t.value);
          if (it == symbols_.end()) {
            symbols_.push_back(t.value);
            first_source_.push_back(tracked_.size());
            constraints_.emplace_back();
            it = symbols_.end() - 1;
          }
          // symbol_to_constraints: a RelaxedUnspecConstraint (Dim.DYNAMIC) is not one of them
          std::vector<Constraint>& cs = constraints_[size_t(it - symbols_.begin())];
          if (t.c.kind == Constraint::Kind::Strict && std::find(cs.begin(), cs.end(), t.c) == cs.end())
            cs.push_back(t.c);
        }
        tracked_.push_back(std::move(t));
      }
    }
    std::vector<DimSymbol> ds;
    // Phantom roots (no input dim is their bare symbol) come first, named by their Dim, as
    // produce_guards puts export's phantom symbols first; they carry no constraint.
    for (size_t i = 0; i < roots_.size(); ++i)
      if (symbol_index(roots_[i]) < 0)
        ds.push_back({roots_[i], env_.hint(roots_[i]).value_or(0), root_names_[i], "", false});
    for (size_t i = 0; i < symbols_.size(); ++i) {
      const Tracked& t = tracked_[first_source_[i]];
      ds.push_back({symbols_[i], env_.hint(symbols_[i]).value_or(0), t.source, t.debug == t.source ? "" : t.debug,
                    !constraints_[i].empty()});
    }
    beyond_dc_.emplace(ar_, ds);
    beyond_dc_->solve_facts_export_drops(true);
    dc_.emplace(ar_, std::move(ds));
  }
  // Every fact goes to export's solver and to the one beyond it; export's says whether it
  // is trivial.
  bool add_fact(ExprId fact) {
    beyond_dc_->add(fact);
    return dc_->add(fact);
  }
  void add_equality(const std::string& source, ExprId value) {
    beyond_dc_->add_equality(source, value);
    dc_->add_equality(source, value);
  }

  SpecDimFn fn_of(PlaceholderId ph, uint32_t d) const { return g_.spec_dim_fn(ph, d); }
  // A free symbol standing for root Dim `name` in the declared relations (not an identifier,
  // so never one of the ShapeEnv's symbols).
  ExprId canonical_root(std::string_view name) {
    return ar_.symbol(fmt::format("{}@root", name), SymbolKind::Free, kFactInteger | kFactPositive);
  }
  // EqualityConstraint.is_derived: `t` is its value over `other`'s symbol `sym`, and that is
  // what the spec declares of both (`x = y + 1` where y is `dx - 1` and x is `dx`).
  bool declared_relation(const Tracked& t, const Tracked& other, ExprId sym) {
    if (!t.canon.valid() || !other.canon.valid()) return false;
    const ExprId mapped = ar_.expand(ar_.substitute(t.value, std::span<const ExprId>(&sym, 1),
                                                    std::span<const ExprId>(&other.canon, 1)));
    return mapped == ar_.expand(t.canon);
  }

  int symbol_index(ExprId s) const {
    auto it = std::find(symbols_.begin(), symbols_.end(), s);
    return it == symbols_.end() ? -1 : int(it - symbols_.begin());
  }
  std::string guard_str(ExprId e) const {
    return to_guard_str(ar_, e, [&](ExprId sym) -> std::string {
      const int i = symbol_index(sym);
      return i >= 0 ? tracked_[first_source_[size_t(i)]].source : std::string(ar_.symbol_name(sym));
    });
  }  // (a phantom root prints as its symbol, which is named by its Dim: its ConstantSource)
  // `dx = L['x'].size()[0] in the specified range 3 <= dx <= 16` (bounds not tighter than
  // the default [2, oo] omitted).
  std::string var_with_range(const Tracked& t, const Constraint& c) const {
    std::string out = fmt::format("{} = {} in the specified range", t.debug, t.source);
    const bool lo = c.lo > 2, hi = c.hi.has_value();
    if (lo && hi) out += fmt::format(" {} <= {} <= {}", c.lo, t.debug, *c.hi);
    else if (hi) out += fmt::format(" {} <= {}", t.debug, *c.hi);
    else if (lo) out += fmt::format(" {} <= {}", c.lo, t.debug);
    return out;
  }
  void violate(ViolationKind k, const Tracked& t, std::string msg, std::string cause, std::string other = {}) {
    r_.violations.push_back({k, t.debug, std::move(msg), std::move(cause), t.placeholder, t.dim, std::move(other)});
  }

  // A size traced to a constant: a named Dim's range must be that constant alone, and a
  // Dim.DYNAMIC hint may only be 0/1-specialised. (PyTorch's other phase-0 check, an
  // expression over a symbol with no range, cannot arise: every input symbol has one.)
  void phase0() {
    for (const Tracked& t : tracked_) {
      if (t.c.kind == Constraint::Kind::None || !ar_.is_integer_const(t.value)) continue;
      const int64_t v = ar_.int_value(t.value);
      if (t.c.kind == Constraint::Kind::Strict && t.c.lo == v && t.c.hi == std::optional<int64_t>(v)) continue;
      if (t.c.kind == Constraint::Kind::Relaxed && (v == 0 || v == 1)) continue;
      violate(ViolationKind::Specialized, t,
              fmt::format("You marked {} as dynamic but your code specialized it to be a constant ({}). If you're "
                          "using mark_dynamic, either remove it or use maybe_mark_dynamic. If you're using "
                          "Dim.DYNAMIC, replace it with either Dim.STATIC or Dim.AUTO.",
                          t.debug, v),
              fmt::format("{} == {}", t.source, v));
    }
  }

  void phase1() {
    for (size_t k = 0; k < tracked_.size(); ++k) {
      const Tracked& t = tracked_[k];
      const int own = symbol_index(t.value);
      if (own >= 0 && first_source_[size_t(own)] == k) continue;
      add_equality(t.source, t.value);
      // any source over a symbol a named Dim constrains: a hint's too (Dim.AUTO, Dim.DYNAMIC)
      if (t.declared.valid() && t.declared == t.value) continue;  // the derived Dim's own relation
      std::vector<ExprId> free;
      ar_.free_symbols(t.value, free);
      if (free.size() != 1) continue;
      const int i = symbol_index(free[0]);
      if (i < 0 || constraints_[size_t(i)].empty()) continue;
      const Tracked& other = tracked_[first_source_[size_t(i)]];
      if (declared_relation(t, other, free[0])) continue;
      if (ar_.kind(t.value) == ExprKind::Symbol) {
        // EqualityConstraint.is_equal: a hinted source (relaxed_sources) may equal anything
        if (t.hinted || other.hinted) continue;
        if (t.debug == other.debug) continue;  // one Dim used twice: declared equal
        violate(ViolationKind::Related, t,
                fmt::format("The values of {} = {} and {} = {} must always be equal.", t.debug, t.source, other.debug,
                            other.source),
                fmt::format("{} == {}", t.source, other.source), other.debug);
        continue;
      }
      // sympy's str of the expression with the symbol renamed to the other Dim's name.
      const ExprId as_name = ar_.symbol(other.debug, SymbolKind::Free, kFactInteger | kFactPositive);
      const std::string rel = to_str(ar_, ar_.substitute(t.value, std::span<const ExprId>(&free[0], 1),
                                                         std::span<const ExprId>(&as_name, 1)));
      violate(ViolationKind::Related, t,
              fmt::format("The values of {} = {} must always be related to the values of {} = {} by {} = {}.", t.debug,
                          t.source, other.debug, other.source, t.debug, rel),
              fmt::format("{} == {}", t.source, guard_str(t.value)), other.debug);
    }
  }

  void phase2() {
    for (ExprId g : env_.undecided_guards()) {
      std::vector<ExprId> free;
      ar_.free_symbols(g, free);
      const bool on_dim = std::any_of(free.begin(), free.end(), [&](ExprId s) { return symbol_index(s) >= 0; });
      const bool trivial = on_dim && add_fact(g);
      if (trivial || free.size() != 1) continue;
      const int i = symbol_index(free[0]);
      if (i < 0) continue;
      const Tracked& t = tracked_[first_source_[size_t(i)]];
      const std::string text = guard_str(g);
      for (const Constraint& c : constraints_[size_t(i)])
        if (c.kind == Constraint::Kind::Strict) {
          violate(ViolationKind::Guard, t,
                  fmt::format("Not all values of {} satisfy the generated guard {}.", var_with_range(t, c), text), text);
          lower_bound_from_guard(g, free[0], std::max<int64_t>(c.lo, 2), t.source);
        }
    }
    for (const RuntimeAssert& ra : env_.runtime_asserts())
      if (!(ar_.facts(ra.expr) & kFactHasUnbacked)) add_fact(ra.expr);
  }

  // Beyond PyTorch: DimConstraints drops a guard it cannot solve (`Ne`, non-linear), so
  // export suggests no fix for it. The guard holds at the example; the smallest min under
  // which it holds at every value up to the example becomes a range result (the corrected
  // spec is re-checked, so a min that does not decide the guard is caught there).
  void lower_bound_from_guard(ExprId guard, ExprId sym, int64_t lo, const std::string& source) {
    const int64_t hint = env_.hint(sym).value_or(lo);
    constexpr int64_t kMaxScan = 1 << 16;
    Bindings b;
    std::optional<int64_t> last_failing;
    for (int64_t v = lo; v < hint && v - lo < kMaxScan; ++v) {
      b.set(ar_.symbol_id(sym), v);
      try {
        if (!evaluate_bool(ar_, guard, b)) last_failing = v;
      } catch (const Error&) {
        last_failing = v;  // undefined there (division by zero, ...): not a valid size
      }
    }
    if (last_failing) extra_results_.emplace_back(*last_failing + 1, source);
  }

  ValueRange range_of(ExprId sym) const {
    for (const auto& [s, v] : pinned_)
      if (s == sym) return ValueRange::wrap(v);
    return env_.range(sym);
  }

  void phase3() {
    for (size_t i = 0; i < symbols_.size(); ++i) {
      const ExprId sym = symbols_[i];
      const ValueRange r = range_of(sym);
      const bool lo_finite = r.lo.kind == ExtNum::Kind::Int, hi_finite = r.hi.kind == ExtNum::Kind::Int;
      if (lo_finite) add_fact(ar_.ge(sym, ar_.integer(r.lo.i)));
      if (hi_finite) add_fact(ar_.le(sym, ar_.integer(r.hi.i)));
      const Tracked& t = tracked_[first_source_[i]];
      for (const Constraint& c : constraints_[i]) {
        if (c.kind != Constraint::Kind::Strict) continue;
        const int64_t lo = std::max<int64_t>(c.lo, 2);  // the spec range ∩ [2, oo]
        const bool inside = (!lo_finite || lo >= r.lo.i) && (!hi_finite || (c.hi && *c.hi <= r.hi.i));
        if (inside) continue;
        // PyTorch prints `And(Le(lower, s), Le(s, upper))` whole: an unbounded upper is
        // int_oo, which `Le` leaves unevaluated and prints as `IntInfinity()`
        // (a range reaching here is bounded on at least one side)
        std::string guard = lo_finite ? fmt::format("{} <= {} and ", r.lo.i, t.source) : std::string();
        guard += fmt::format("{} <= {}", t.source, hi_finite ? std::to_string(r.hi.i) : std::string("IntInfinity()"));
        violate(ViolationKind::Narrowed, t,
                fmt::format("Not all values of {} satisfy the generated guard {}", var_with_range(t, c), guard), guard);
      }
    }
  }

  void solve() {
    try {
      dc_->solve();
    } catch (const Error& e) {  // inconsistencies (ValueError), or a rational overflow
      r_.solver_error = e.what();
      return;
    }
    r_.forced = dc_->forced_specializations();
    const SolverResults sr{dc_->static_results(), dc_->dynamic_results(), source_to_debug_, r_.forced};
    static const DynamicShapes kNoSpec;
    const DynamicShapes& spec = spec_ ? *spec_ : kNoSpec;
    r_.fixes = prettify_results(sr, spec);  // export's own suggestion
    // Beyond PyTorch, reported apart: the facts export's solver drops solved too, and the
    // dropped guards' mins
    try {
      beyond_dc_->solve();
    } catch (const Error&) {
      return;  // nothing beyond export's then
    }
    SolverResults beyond{beyond_dc_->static_results(), beyond_dc_->dynamic_results(), source_to_debug_,
                         beyond_dc_->forced_specializations()};
    // a later result overrides an earlier one (PyTorch's _process_suggested_fixes), so a
    // guard's min only joins when the solver's own results do not already bound the source
    // at least as high (convnext_tiny: `64 <= W` from `(W // 32) > 1` beats the `32 <= W` of
    // its `1 % (768*(W // 32)) != 0`, as export's suggestion min=64)
    for (const auto& [lo, source] : extra_results_) {
      bool weaker = false;
      for (const std::string& d : beyond.dynamic_results) {
        const std::string tail = " <= " + source;
        if (d.size() > tail.size() && d.compare(d.size() - tail.size(), tail.size(), tail) == 0) {
          const std::string num = d.substr(0, d.size() - tail.size());
          if (!num.empty() && num.find_first_not_of("0123456789") == std::string::npos && std::stoll(num) >= lo)
            weaker = true;
        }
        // pinned to a constant (a derived dim's `source == 16*_h` is a relation, not a pin)
        if (d.rfind(source + " == ", 0) == 0) {
          const std::string rhs = d.substr(source.size() + 4);
          if (!rhs.empty() && rhs.find_first_not_of("-0123456789") == std::string::npos) weaker = true;
        }
      }
      if (!weaker) beyond.dynamic_results.push_back(fmt::format("{} <= {}", lo, source));
    }
    if (beyond.static_results != sr.static_results || beyond.dynamic_results != sr.dynamic_results)
      r_.fixes_beyond = prettify_results(beyond, spec);
  }

  void hints() {
    SpecLeaves leaves;
    if (spec_) leaves = spec_leaves(g_, *spec_);
    for (const Tracked& t : tracked_) {
      if (!t.hinted) continue;
      const std::string where =
          fmt::format("inputs{}.shape[{}]", t.placeholder < leaves.path.size() ? leaves.path[t.placeholder]
                                                                               : fmt::format("[{}]", t.placeholder),
                      t.dim);
      std::optional<int64_t> spec01, stat;
      int64_t lo = 0;
      std::optional<int64_t> hi;
      if (t.created_constant) spec01 = ar_.int_value(t.value);
      else if (ar_.kind(t.value) != ExprKind::Symbol) {
        const ValueRange b = env_.bound(t.value);
        lo = b.lo.kind == ExtNum::Kind::Int ? b.lo.i : 0;
        if (b.hi.kind == ExtNum::Kind::Int) hi = b.hi.i;
      } else {
        const ValueRange b = range_of(t.value);
        if (b.is_singleton() && b.lo.kind == ExtNum::Kind::Int) stat = b.lo.i;
        lo = b.lo.kind == ExtNum::Kind::Int ? b.lo.i : 0;
        if (b.hi.kind == ExtNum::Kind::Int) hi = b.hi.i;
      }
      std::string msg = hint_conflict(make_hint(t.hint), where, spec01, stat, lo, hi);
      if (!msg.empty()) r_.hint_conflicts.push_back({t.placeholder, t.dim, std::move(msg)});
    }
  }

  // make_constraints: each spec'd size's expression gets the meet of its Dims' own ranges (a
  // hinted size: the ShapeEnv's bound of it); a symbol no size is alone gets its var_to_range.
  // A Dim leaf's range is then its expression over its symbol's range (linear: a*s + b).
  void exported_ranges() {
    std::vector<std::pair<ExprId, std::pair<int64_t, std::optional<int64_t>>>> keyed;
    auto meet = [&](ExprId e, int64_t lo, std::optional<int64_t> hi) {
      auto it = std::find_if(keyed.begin(), keyed.end(), [&](const auto& k) { return k.first == e; });
      if (it == keyed.end()) {
        keyed.push_back({e, {std::max<int64_t>(lo, 0), hi}});
        return;
      }
      it->second.first = std::max(it->second.first, lo);
      if (hi) it->second.second = it->second.second ? std::min(*it->second.second, *hi) : *hi;
    };
    for (const Tracked& t : tracked_) {
      if (ar_.is_integer_const(t.value) || (t.c.kind != Constraint::Kind::Strict && !t.hinted)) continue;
      if (t.c.kind == Constraint::Kind::Strict) {
        meet(t.value, t.c.lo, t.c.hi);
        continue;
      }
      const ValueRange b = env_.bound(t.value);
      meet(t.value, b.lo.kind == ExtNum::Kind::Int ? b.lo.i : 0,
           b.hi.kind == ExtNum::Kind::Int ? std::optional<int64_t>(b.hi.i) : std::nullopt);
    }
    for (const Tracked& t : tracked_) {
      if (t.c.kind != Constraint::Kind::Strict) continue;
      ExportedRange out;
      out.placeholder = t.placeholder, out.axis = t.dim;
      if (ar_.is_integer_const(t.value)) {
        out.is_static = true;
        out.lo = ar_.int_value(t.value);
        r_.ranges.push_back(out);
        continue;
      }
      std::vector<ExprId> free;
      ar_.free_symbols(t.value, free);
      if (free.size() != 1) continue;
      const ExprId sym = free[0];
      int64_t lo = 0;
      std::optional<int64_t> hi;
      auto it = std::find_if(keyed.begin(), keyed.end(), [&](const auto& k) { return k.first == sym; });
      if (it != keyed.end()) {
        lo = it->second.first, hi = it->second.second;
      } else {
        const ValueRange v = env_.range(sym);
        lo = v.lo.kind == ExtNum::Kind::Int ? v.lo.i : 0;
        if (v.hi.kind == ExtNum::Kind::Int) hi = v.hi.i;
      }
      Bindings b;
      try {
        b.set(ar_.symbol_id(sym), 0);
        const int64_t at0 = evaluate_int(ar_, t.value, b);
        b.set(ar_.symbol_id(sym), 1);
        const int64_t slope = evaluate_int(ar_, t.value, b) - at0;
        out.lo = slope * lo + at0;
        if (hi) out.hi = slope * *hi + at0;
      } catch (const Error&) {
        continue;  // not a size of its symbol's range (overflow): no range to report
      }
      r_.ranges.push_back(out);
    }
  }

  const Graph& g_;
  const DynamicShapes* spec_;
  ShapeEnv& env_;
  ExprArena& ar_;
  Propagator& prop_;
  SpecCheckResult& r_;
  std::vector<Tracked> tracked_;
  std::vector<ExprId> roots_;              // root symbols of derived dims
  std::vector<std::string> root_names_;    // ... their Dim names
  std::vector<ExprId> symbols_;                    // bare symbols, first-seen order
  std::vector<size_t> first_source_;               // per symbol: index into tracked_
  std::vector<std::vector<Constraint>> constraints_;  // per symbol
  std::vector<std::pair<ExprId, int64_t>> pinned_;    // symbols guards pinned to a constant
  std::vector<std::pair<std::string, std::string>> source_to_debug_;
  std::vector<std::pair<int64_t, std::string>> extra_results_;  // lower bounds from guards the solver drops
  std::optional<DimConstraints> dc_;         // export's solver
  std::optional<DimConstraints> beyond_dc_;  // the same facts, also those export's drops
};

}  // namespace

// _constrain_user_specified_dimhint_range: the traced range meets the hint's [min, max]
// (an empty meet is the range conflict), then a Dim.DYNAMIC left a single value is refused.
std::string hint_conflict(const DimHint& hint, const std::string& where, std::optional<int64_t> specialized_01,
                          std::optional<int64_t> static_value, int64_t lo, std::optional<int64_t> hi) {
  if (hint.kind == HintKind::Static) return "";
  if (const std::optional<int64_t> v = specialized_01 ? specialized_01 : static_value) lo = *v, hi = *v;
  const bool traced_single = hi && *hi == lo;
  const int64_t out_lo = std::max<int64_t>(lo, hint.min.value_or(0));
  std::optional<int64_t> out_hi = hi;
  if (hint.max) out_hi = out_hi ? std::min(*out_hi, *hint.max) : *hint.max;
  if (out_hi && out_lo > *out_hi)
    return fmt::format("- Received user-specified min/max range of [{}, {}], conflicting with the inferred min/max "
                       "range of [{}, {}], for {}.",
                       bound_str(hint.min), bound_str(hint.max), lo, hi ? std::to_string(*hi) : "int_oo", where);
  if (hint.kind != HintKind::Dynamic || !out_hi || *out_hi != out_lo) return "";  // Dim.AUTO: 0/1 only warns
  const std::string repr = fmt::format("Dim.DYNAMIC(min={}, max={})", bound_str(hint.min), bound_str(hint.max));
  if (traced_single && (lo == 0 || lo == 1))
    return fmt::format("- Received user-specified dim hint {}, but export 0/1 specialized due to hint of {} for "
                       "dimension {}.",
                       repr, lo, where);
  return fmt::format("- Received user-specified dim hint {}, but tracing inferred a static shape of {} for dimension "
                     "{}.",
                     repr, out_lo, where);
}

SpecCheckResult check_spec_at(const Graph& g, const RuleTable& rules, const DynamicShapes* spec,
                              std::span<const std::span<const int64_t>> sizes) {
  SpecCheckResult r;
  ShapeEnv env;
  Propagator prop(g, rules);
  prop.set_reference_host(kExportTracingHost);  // export traces with mkldnn off (prop/reference_host.h)
  ExportTensorMetaHook tensor_meta(g, prop, env);  // export traces: every output's tensor_meta
  prop.set_hooks(&tensor_meta);
  const PropStatus st = prop.run(env, sizes);
  if (!st.ok) {
    r.error = fmt::format("the inputs do not propagate under the spec: {}", st.message);
    return r;
  }
  r.checked = true;
  Checker(g, spec, env, prop, r).run();
  return r;
}

SpecCheckResult check_spec(const Graph& g, const RuleTable& rules, const DynamicShapes* spec) {
  // The first accepted example that fits the spec (a spec may rule some examples out).
  SpecCheckResult first_failure;
  for (uint32_t e : candidate_examples(g)) {
    std::vector<std::span<const int64_t>> sizes;
    for (uint32_t p = 0; p < g.num_placeholders(); ++p) sizes.push_back(g.example(e).input_sizes(PlaceholderId(p)));
    SpecCheckResult r = check_spec_at(g, rules, spec, sizes);
    r.example = e;
    if (r.checked) return r;
    if (first_failure.error.empty()) first_failure.error = fmt::format("example {}: {}", e, r.error);
  }
  if (first_failure.error.empty()) first_failure.error = "the graph has no example PyTorch accepted to propagate";
  else first_failure.error = "no accepted example fits the spec; " + first_failure.error;
  return first_failure;
}

std::string format_violations(const SpecCheckResult& r) {
  std::string out;
  if (!r.violations.empty()) {
    std::vector<std::string> names;
    for (const Violation& v : r.violations)
      if (std::find(names.begin(), names.end(), v.dim) == names.end()) names.push_back(v.dim);
    std::sort(names.begin(), names.end());
    std::string joined, lines;
    for (const std::string& n : names) joined += (joined.empty() ? "" : ", ") + n;
    for (const Violation& v : r.violations) lines += (lines.empty() ? "  - " : "\n  - ") + v.message;
    out = fmt::format("Constraints violated ({})! For more information, run with TORCH_LOGS=\"+dynamic\".\n{}", joined,
                      lines);
    out += r.fixes;
  } else if (!r.forced.empty()) {
    out = r.fixes;
  }
  if (!r.solver_error.empty()) out += (out.empty() ? "" : "\n") + r.solver_error;
  return out;
}

std::string format_beyond_pytorch_fixes(const SpecCheckResult& r) {
  if (r.fixes_beyond.empty() || r.violations.empty()) return "";
  const size_t at = r.fixes_beyond.find("Suggested fixes:");
  if (at == std::string::npos) return "";
  return "symshape's fixes, beyond PyTorch's (for the guards export's solver drops):" +
         r.fixes_beyond.substr(at + std::string("Suggested fixes:").size());
}

std::string exported_range_key(const Graph& g, const ExportedRange& e) {
  return fmt::format("{}[{}]", g.node_name(g.placeholder_node(PlaceholderId(e.placeholder))), e.axis);
}

std::string format_hint_conflicts(const SpecCheckResult& r) {
  if (r.hint_conflicts.empty()) return "";
  std::string out = "Found the following conflicts between user-specified ranges and inferred ranges from model "
                    "tracing:\n";
  for (size_t i = 0; i < r.hint_conflicts.size(); ++i) out += (i ? "\n" : "") + r.hint_conflicts[i].message;
  return out;
}

DynamicShapes corrected_spec(const Graph& g, const DynamicShapes& spec, const SpecCheckResult& r) {
  // the corrected spec takes symshape's fixes: it must pass the re-check, which export's
  // own suggestion does not where it drops a guard
  SpecCheckResult beyond = r;
  if (!r.fixes_beyond.empty()) beyond.fixes = r.fixes_beyond;
  std::string report = format_violations(beyond);
  // A hint related to a named Dim gets a fix keyed by its source (`L['x'].size()[0] = dy +
  // 1`), which PyTorch's refine refuses (neither a Dim of the spec nor a new root): the leaf
  // is named first, so the fix replaces it as it would a Dim's.
  DynamicShapes named = spec;
  const SpecLeaves before = spec_leaves(g, spec);
  for (const Violation& v : r.violations) {
    if (v.kind != ViolationKind::Related) continue;
    const SpecNode* leaf = before.leaf(spec, v.placeholder, v.axis);
    const std::string line = "\n  " + v.dim + " = ";
    if (!leaf || leaf->kind != NodeKind::Hint || report.find(line) == std::string::npos) continue;
    const std::string name = fmt::format("_hinted_{}_{}", v.placeholder, v.axis);
    named.roots.push_back({name, 0, 0, false});
    named.uses.push_back({uint32_t(named.roots.size() - 1), LinearFn{}});
    SpecNode& n = named.nodes[size_t(before.node[v.placeholder][v.axis])];
    n.kind = NodeKind::Dim;
    n.value = int64_t(named.uses.size() - 1);
    for (size_t at = report.find(line); at != std::string::npos; at = report.find(line, at + 1))
      report.replace(at, line.size(), "\n  " + name + " = ");
  }
  DynamicShapes out =
      report.find("Suggested fixes:") != std::string::npos ? refine_from_suggested_fixes(report, named) : spec;
  // A Dim.DYNAMIC hint the trace made static (a specialisation, or a hint conflict) follows
  // the advice: Dim.AUTO.
  std::vector<std::pair<uint32_t, uint32_t>> to_auto;
  for (const HintConflict& c : r.hint_conflicts) to_auto.emplace_back(c.placeholder, c.dim);
  for (const Violation& v : r.violations)
    if (v.kind == ViolationKind::Specialized) to_auto.emplace_back(v.placeholder, v.axis);
  if (to_auto.empty()) return out;
  const SpecLeaves leaves = spec_leaves(g, out);
  for (const auto& [p, d] : to_auto) {
    const SpecNode* leaf = leaves.leaf(out, p, d);
    if (leaf && leaf->kind == NodeKind::Hint && HintKind(leaf->value) == HintKind::Dynamic)
      out.nodes[size_t(leaves.node[p][d])].value = int64_t(HintKind::Auto);
  }
  return out;
}

}  // namespace symshape::spec
