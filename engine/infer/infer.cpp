#include "infer/infer.h"

#include <fmt/format.h>

#include <memory>
#include <unordered_map>

#include "core/error.h"
#include "expr/evaluate.h"
#include "expr/printer.h"
#include "prop/propagate.h"
#include "shape_env/shape_env.h"

namespace symshape::infer {

const char* infer_status_name(InferStatus s) {
  switch (s) {
    case InferStatus::Valid: return "valid";
    case InferStatus::Unsatisfiable: return "unsatisfiable";
    case InferStatus::NotASizeCheck: return "not-a-size-check";
    case InferStatus::BudgetExhausted: return "budget-exhausted";
  }
  return "?";
}

namespace {

// One inference trace kept alive: its predicates are expressions of its arena.
struct Trace {
  ShapeEnv env{ShapeEnvSettings{.specialize_zero_one = false, .duck_shape = false}};
  std::vector<int32_t> unknown_of_symbol;  // by SymbolId; -1: not an input size
  std::vector<std::string> source_of_symbol;

  int32_t unknown(ExprId sym) const {
    const uint32_t s = env.arena().symbol_id(sym).index();
    return s < unknown_of_symbol.size() ? unknown_of_symbol[s] : -1;
  }
};

// Evaluates `e` of trace `t` with every input symbol bound to its unknown's value.
std::optional<int64_t> eval_at(const Trace& t, ExprId e, std::span<const int64_t> values) {
  Bindings b;
  for (uint32_t s = 0; s < t.unknown_of_symbol.size(); ++s)
    if (t.unknown_of_symbol[s] >= 0) b.set(SymbolId(s), values[size_t(t.unknown_of_symbol[s])]);
  try {
    const auto v = try_evaluate(t.env.arena(), e, b);
    if (!v || v->kind == Scalar::Kind::Float) return std::nullopt;
    return v->i;
  } catch (const Error&) {
    return std::nullopt;  // overflow, division by zero: not a solution
  }
}

PredicateKind classify(const ExprArena& ar, ExprId cond, CheckKind tag, ExprId& mod) {
  mod = ExprId();
  switch (ar.kind(cond)) {
    case ExprKind::Eq: {
      for (int side = 0; side < 2; ++side) {
        const ExprId a = ar.operand(cond, side), b = ar.operand(cond, 1 - side);
        if ((ar.kind(a) == ExprKind::Mod || ar.kind(a) == ExprKind::PythonMod) && b == ar.zero()) {
          mod = a;
          return PredicateKind::Divides;
        }
      }
      return tag == CheckKind::SumEq ? PredicateKind::SumEq : PredicateKind::Eq;
    }
    case ExprKind::Le:
    case ExprKind::Lt:
    case ExprKind::Ge:
    case ExprKind::Gt: return PredicateKind::Le;
    default: return PredicateKind::Other;
  }
}

// And(a, b, ...) -> its conjuncts (bmm's check is two equalities at once).
void conjuncts(const ExprArena& ar, ExprId c, std::vector<ExprId>& out) {
  if (ar.kind(c) == ExprKind::And) {
    for (ExprId op : ar.operands(c)) conjuncts(ar, op, out);
    return;
  }
  out.push_back(c);
}

struct Driver {
  Driver(const Graph& graph, const RuleTable& rule_table, const InferOptions& options)
      : g(graph), rules(rule_table), opt(options) {}
  const Graph& g;
  const RuleTable& rules;
  const InferOptions& opt;
  UnknownLayout layout;
  std::vector<int64_t> example;
  std::vector<std::unique_ptr<Trace>> traces;
  std::vector<SolverPredicate> preds;
  std::unordered_map<std::string, uint32_t> seen;  // node + text -> index of the constraint
  // Constraints set aside after a conflict: a check learned under one trace's branches may
  // not hold under another's (a chunk's piece sizes at one size), so the latest conflicting
  // one is suspended and the sizes re-traced; if it fails again, the conflict is real.
  std::vector<uint8_t> suspended;
  std::vector<uint32_t> pending_conflict;  // the conflict that suspended something
  bool conflict_confirmed = false;
  std::string data_dependent;            // the first failing check over unbacked sizes
  InferResult r;

  std::vector<std::vector<int64_t>> sizes_of(std::span<const int64_t> values) const {
    std::vector<std::vector<int64_t>> out;
    for (const auto& dims : layout.of) {
      auto& s = out.emplace_back();
      for (uint32_t u : dims) s.push_back(values[u]);
    }
    return out;
  }

  // Runs one inference trace at `values`; returns the number of new constraints; `failed`
  // receives the number of requirements that failed.
  int trace(std::span<const int64_t> values, PropStatus& status, size_t& failed) {
    auto t = std::make_unique<Trace>();
    Propagator prop(g, rules);
    // torch.export's tracing settings (no conv backend-selection guards): the spec printed
    // from these traces is for export, and those guards never reject a size eager runs
    prop.set_reference_host(kExportTracingHost);
    prop.set_input_policy(InputPolicy::Automatic);
    std::vector<std::vector<uint8_t>> mask;
    for (uint32_t p = 0; p < g.num_placeholders(); ++p) mask.emplace_back(g.placeholder_rank(PlaceholderId(p)), 1);
    prop.set_dynamic_mask(std::move(mask));
    std::vector<FailedCheck> log;
    prop.set_failed_checks(&log);
    const auto sizes = sizes_of(values);
    std::vector<std::span<const int64_t>> spans(sizes.begin(), sizes.end());
    status = prop.run(t->env, spans);
    failed = log.size();

    const ExprArena& ar = t->env.arena();
    t->unknown_of_symbol.assign(ar.symbol_count(), -1);
    t->source_of_symbol.assign(ar.symbol_count(), "");
    for (size_t i = 0; i < prop.input_sources().size(); ++i) {
      const InputSource& src = prop.input_sources()[i];
      const ExprId v = prop.tracked_inputs()[i].value;
      if (src.kind != SourceKind::Size || ar.kind(v) != ExprKind::Symbol) continue;
      const uint32_t s = ar.symbol_id(v).index();
      t->unknown_of_symbol[s] = int32_t(layout.of[src.placeholder][src.dim]);
      t->source_of_symbol[s] = t->env.sources().name(src.source);
    }
    const uint32_t index = uint32_t(traces.size());
    const Trace& tr = *t;
    traces.push_back(std::move(t));

    int added = 0;
    std::vector<ExprId> parts;
    for (const FailedCheck& fc : log) {
      parts.clear();
      conjuncts(ar, fc.cond, parts);
      for (ExprId c : parts) {
        // only what fails at these sizes, and only over input sizes (no unbacked symbols)
        std::vector<ExprId> syms;
        ar.free_symbols(c, syms);
        bool inputs_only = true;
        std::vector<uint32_t> unknowns;
        for (ExprId s : syms) {
          const int32_t u = tr.unknown(s);
          if (u < 0) inputs_only = false;
          else if (std::find(unknowns.begin(), unknowns.end(), uint32_t(u)) == unknowns.end()) unknowns.push_back(uint32_t(u));
        }
        if (!inputs_only) {  // over data-dependent sizes: nothing the input sizes can fix
          if (data_dependent.empty())
            data_dependent = fmt::format("{}: {} (over data-dependent sizes)", g.node_name(fc.node), to_str(ar, c));
          continue;
        }
        const auto now = eval_at(tr, c, values);
        if (now && *now != 0) continue;
        const std::string text = to_guard_str(ar, c, [&](ExprId s) { return tr.source_of_symbol[ar.symbol_id(s).index()]; });
        const std::string node(g.node_name(fc.node));
        const auto [it, fresh] = seen.emplace(node + "\n" + text, uint32_t(preds.size()));
        if (!fresh) {
          if (suspended[it->second]) conflict_confirmed = true;
          continue;
        }
        ExprId mod;
        const PredicateKind kind = classify(ar, c, fc.kind, mod);
        add_predicate(tr, c, kind, mod, std::move(unknowns));
        r.constraints.push_back({kind, node, text, index});
        suspended.push_back(0);
        ++added;
      }
    }
    return added;
  }

  void add_predicate(const Trace& tr, ExprId c, PredicateKind kind, ExprId mod, std::vector<uint32_t> unknowns) {
    const ExprArena& ar = tr.env.arena();
    SolverPredicate p;
    p.kind = kind;
    p.unknowns = std::move(unknowns);
    const Trace* t = &tr;
    p.holds = [t, c](std::span<const int64_t> v) { return eval_at(*t, c, v); };
    if (kind == PredicateKind::Eq || kind == PredicateKind::SumEq) {
      const ExprId a = ar.operand(c, 0), b = ar.operand(c, 1);
      p.difference = [t, a, b](std::span<const int64_t> v) -> std::optional<int64_t> {
        const auto x = eval_at(*t, a, v), y = eval_at(*t, b, v);
        if (!x || !y) return std::nullopt;
        return *x - *y;
      };
      if (ar.kind(a) == ExprKind::Symbol && ar.kind(b) == ExprKind::Symbol && tr.unknown(a) >= 0 && tr.unknown(b) >= 0)
        p.unify = std::make_pair(uint32_t(tr.unknown(a)), uint32_t(tr.unknown(b)));
    }
    if (kind == PredicateKind::Divides) {
      const ExprId e = ar.operand(mod, 0), k = ar.operand(mod, 1);
      p.dividend = [t, e](std::span<const int64_t> v) { return eval_at(*t, e, v); };
      p.divisor = [t, k](std::span<const int64_t> v) { return eval_at(*t, k, v); };
    }
    preds.push_back(std::move(p));
  }

  void run(std::span<const std::span<const int64_t>> sizes) {
    std::vector<uint32_t> ranks;
    for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
      const uint32_t rank = g.placeholder_rank(PlaceholderId(p));
      const std::string_view name = g.node_name(g.placeholder_node(PlaceholderId(p)));
      if (p >= sizes.size()) throw_error(ErrorKind::BadInput, fmt::format("no sizes given for input {}", name));
      if (sizes[p].size() != rank)
        throw_error(ErrorKind::BadInput,
                    fmt::format("input {} has rank {} but {} sizes were given", name, rank, sizes[p].size()));
      for (int64_t s : sizes[p])
        if (s < 0) throw_error(ErrorKind::BadInput, fmt::format("input {} has a negative size {}", name, s));
      ranks.push_back(rank);
    }
    if (sizes.size() != g.num_placeholders())
      throw_error(ErrorKind::BadInput, fmt::format("{} inputs given, the graph has {}", sizes.size(), g.num_placeholders()));
    layout = layout_unknowns(ranks, opt.shared_batch);
    example.assign(layout.count, 0);
    std::vector<uint8_t> set(layout.count, 0);
    for (uint32_t p = 0; p < ranks.size(); ++p)
      for (uint32_t d = 0; d < ranks[p]; ++d) {
        const uint32_t u = layout.of[p][d];
        // a shared batch takes the first input's size; E.6's domain is >= 1 (size symbols
        // are positive in the arena, so a 0 would decide every check statically): 0 -> 1
        if (!set[u]) example[u] = std::max<int64_t>(sizes[p][d], 1), set[u] = 1;
      }
    r.unknowns = layout.count;
    r.budget = opt.max_traces ? opt.max_traces : std::max(2u, layout.default_budget());

    std::vector<int64_t> values = example;
    while (r.traces < r.budget) {
      PropStatus st;
      size_t failed = 0;
      const int added = trace(values, st, failed);
      ++r.traces;
      r.sizes = sizes_of(values);
      if (st.ok && failed == 0) {
        r.status = InferStatus::Valid;
        for (size_t i = 0; i < suspended.size(); ++i) r.constraints[i].set_aside = suspended[i] != 0;
        return;
      }
      if (conflict_confirmed) {
        r.status = InferStatus::Unsatisfiable;
        r.conflict = pending_conflict;
        return;
      }
      if (added == 0) {
        // nothing new to learn: the trace stopped at a failure that is no size requirement,
        // or it completed with the same checks failing again (the last solution did not make
        // them hold: the budget would only repeat it)
        r.status = st.ok && data_dependent.empty() ? InferStatus::BudgetExhausted : InferStatus::NotASizeCheck;
        r.error = !st.ok ? st.message : !data_dependent.empty() ? data_dependent : "the same checks failed again";
        return;
      }
      SolveResult s;
      for (;;) {
        std::vector<SolverPredicate> active;
        std::vector<uint32_t> index_of;  // active -> constraint index
        for (uint32_t i = 0; i < preds.size(); ++i)
          if (!suspended[i]) active.push_back(preds[i]), index_of.push_back(i);
        s = solve(example, active);
        if (s.ok) break;
        std::vector<uint32_t> conflict;
        for (uint32_t i : s.conflict) conflict.push_back(index_of[i]);
        if (conflict.size() < 2 || !pending_conflict.empty()) {  // one suspension per run
          r.status = InferStatus::Unsatisfiable;
          r.conflict = conflict;
          return;
        }
        pending_conflict = conflict;
        suspended[conflict.back()] = 1;  // the latest learned (trace, then graph order)
      }
      values = s.values;
    }
    r.sizes = sizes_of(values);
    r.status = InferStatus::BudgetExhausted;
  }
};

}  // namespace

InferResult infer_shapes(const Graph& graph, const RuleTable& rules, std::span<const std::span<const int64_t>> sizes,
                         const InferOptions& options) {
  Driver d(graph, rules, options);
  d.run(sizes);
  if (d.r.status == InferStatus::Valid && options.derive_spec) {
    std::vector<std::span<const int64_t>> spans(d.r.sizes.begin(), d.r.sizes.end());
    DerivedSpecs specs = derive_spec(graph, rules, spans);
    d.r.spec = std::move(specs.spec);
    d.r.spec_note = std::move(specs.spec_note);
    d.r.validity = std::move(specs.validity);
    d.r.validity_note = std::move(specs.validity_note);
  }
  return std::move(d.r);
}

}  // namespace symshape::infer
