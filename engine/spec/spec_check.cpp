// Reads the ShapeEnv after one propagation: each named spec symbol's replacement (a constant:
// specialised; another expression: a relation) and its range (narrowed by guards).
#include "spec/spec_check.h"

#include <fmt/format.h>

#include "expr/printer.h"
#include "prop/propagate.h"
#include "shape_env/shape_env.h"

namespace symshape::spec {

SpecCheckResult check_spec(const Graph& g, const RuleTable& rules) {
  SpecCheckResult r;
  // The first accepted example whose spec'd dims are all >= 2 (a 0/1 size is specialised
  // by the example, not by the graph: C.4), else the first accepted one.
  auto spec_dims_ge2 = [&](uint32_t ex) {
    for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
      std::span<const SpecDim> dims = g.spec_dims(PlaceholderId(p));
      std::span<const int64_t> sz = g.example(ex).input_sizes(PlaceholderId(p));
      for (uint32_t d = 0; d < dims.size() && d < sz.size(); ++d)
        if (dims[d].sym.valid() && sz[d] < 2) return false;
    }
    return true;
  };
  uint32_t e = g.num_examples();
  for (uint32_t i = 0; i < g.num_examples() && e == g.num_examples(); ++i)
    if (g.example(i).ok() && spec_dims_ge2(i)) e = i;
  for (uint32_t i = 0; i < g.num_examples() && e == g.num_examples(); ++i)
    if (g.example(i).ok()) e = i;
  if (e == g.num_examples()) {
    r.error = "the graph has no example PyTorch accepted to propagate";
    return r;
  }
  r.example = e;
  ShapeEnv env;
  Propagator prop(g, rules);
  std::vector<std::span<const int64_t>> sizes;
  for (uint32_t p = 0; p < g.num_placeholders(); ++p) sizes.push_back(g.example(e).input_sizes(PlaceholderId(p)));
  const PropStatus st = prop.run(env, sizes);
  if (!st.ok) {
    r.error = fmt::format("example {} does not propagate under the spec: {}", e, st.message);
    return r;
  }
  r.checked = true;
  std::vector<uint32_t> seen;  // SymIds reported or checked
  ExprArena& ar = env.arena();
  for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
    const PlaceholderId ph(p);
    std::span<const SpecDim> dims = g.spec_dims(ph);
    const ValId v = prop.node_values()[g.placeholder_node(ph).index()];
    if (prop.values().kind(v) != ValKind::Tensor) continue;
    std::span<const ExprId> tsizes = prop.values().sizes(prop.values().as_tensor(v));
    for (uint32_t d = 0; d < dims.size() && d < tsizes.size(); ++d) {
      if (!dims[d].sym.valid()) continue;
      const uint32_t s = dims[d].sym.index();
      if (std::find(seen.begin(), seen.end(), s) != seen.end()) continue;
      seen.push_back(s);
      const std::string name(g.sym_name(dims[d].sym));
      if (name.empty()) continue;  // AUTO / DYNAMIC hints: never reported
      const std::string src = fmt::format("L['{}'].size()[{}]", g.node_name(g.placeholder_node(ph)), d);
      const ExprId sym = tsizes[d];
      if (ar.kind(sym) != ExprKind::Symbol) {  // specialised at creation (0/1 example)
        r.violations.push_back({ViolationKind::Specialized, name,
                                fmt::format("- solving the guards generated for {} = {} resulted in a specialized value "
                                            "of {}.", name, src, to_str(ar, sym)),
                                fmt::format("{} = {}", name, to_str(ar, sym)), 0, std::nullopt});
        continue;
      }
      const ExprId now = env.simplify(env.replace(sym));
      if (ar.is_integer_const(now)) {
        r.violations.push_back({ViolationKind::Specialized, name,
                                fmt::format("- solving the guards generated for {} = {} resulted in a specialized value "
                                            "of {}.", name, src, ar.int_value(now)),
                                fmt::format("{} = {}", name, ar.int_value(now)), 0, std::nullopt});
        continue;
      }
      if (now != sym) {
        const std::string rhs = to_str(ar, now);
        const bool equal = ar.kind(now) == ExprKind::Symbol;
        r.violations.push_back(
            {ViolationKind::Related, name,
             equal ? fmt::format("- The values of {} = {} and {} must always be equal.", name, src, rhs)
                   : fmt::format("- The values of {} = {} must always be related to the values of {} by {} = {}.", name,
                                 src, rhs, name, rhs),
             fmt::format("{} = {}", name, rhs), 0, std::nullopt});
        continue;
      }
      const ValueRange& range = env.range(sym);
      // The spec range as export checks it: intersected with the default [2, oo].
      const int64_t lo = std::max<int64_t>(g.sym_min(dims[d].sym), 2);
      const std::optional<int64_t> hi = g.sym_max(dims[d].sym);
      const bool lo_narrowed = range.lo.is_finite() && range.lo.i > lo;
      const bool hi_narrowed = range.hi.is_finite() && (!hi || range.hi.i < *hi);
      if (!lo_narrowed && !hi_narrowed) continue;
      const int64_t new_lo = lo_narrowed ? range.lo.i : g.sym_min(dims[d].sym);
      std::string fix = fmt::format("{} = Dim('{}', min={}", name, name, new_lo);
      if (range.hi.is_finite()) fix += fmt::format(", max={}", range.hi.i);
      fix += ")";
      r.violations.push_back({ViolationKind::Narrowed, name,
                              fmt::format("- Not all values of {} = {} in the specified range satisfy the generated "
                                          "guards: the graph accepts [{}, {}].",
                                          name, src, range.lo.is_finite() ? std::to_string(range.lo.i) : "-oo",
                                          range.hi.is_finite() ? std::to_string(range.hi.i) : "oo"),
                              fix, new_lo,
                              range.hi.is_finite() ? std::optional<int64_t>(range.hi.i) : std::nullopt});
    }
  }
  return r;
}

std::string format_violations(const SpecCheckResult& r) {
  if (r.violations.empty()) return "";
  std::string names;
  for (const Violation& v : r.violations) names += (names.empty() ? "" : ", ") + v.dim;
  std::string out = fmt::format("Constraints violated ({})! For more information, run with TORCH_LOGS=\"+dynamic\".\n", names);
  for (const Violation& v : r.violations) out += "  " + v.message + "\n";
  out += "\nSuggested fixes:\n";
  for (const Violation& v : r.violations) out += "  " + v.fix + "\n";
  return out;
}

}  // namespace symshape::spec
