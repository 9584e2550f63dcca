// The spec `symshape infer` prints: the validity spec narrowed to what export accepts.
// Validity (where eager's shape checks pass) spans several traces' branches, e.g. vgg's
// `(w // 32) != 1` holds at 224 but not at 32..63; torch.export traces once and raises a
// constraint violation for any Dim range wider than that trace's guards. So spec check runs at
// the sizes and its corrected spec (the "Suggested fixes:") is applied until it is clean.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <set>

#include "core/error.h"
#include "infer/check_at.h"
#include "infer/infer.h"
#include "infer/spec_table.h"

namespace symshape::infer {
namespace {

// Fixing rounds: each applies every suggested fix at once; chains of `!= 1` guards through
// strided layers need a few (each fix exposes the next guard's bound).
constexpr int kMaxRounds = 12;

// The Dim names spec check complains about: violations and forced specialisations
// ("dx = L['x'].size()[0]" -> dx).
std::set<std::string> offending_dims(const spec::SpecCheckResult& r) {
  std::set<std::string> names;
  for (const spec::Violation& v : r.violations) names.insert(v.dim);
  for (const auto& [debug, value] : r.forced) names.insert(debug.substr(0, debug.find(" = ")));
  return names;
}

// Every leaf of an offending Dim (or of its root) becomes the size it has at the sizes;
// returns the names made static (empty: nothing matched).
std::vector<std::string> make_static(Table& table, const std::set<std::string>& names) {
  std::set<std::string> roots;
  for (const auto& leaves : table)
    for (const Leaf& l : leaves)
      if (l.ref && (names.count(l.ref->root.name) || names.count(spec::dim_name(*l.ref)))) roots.insert(l.ref->root.name);
  std::vector<std::string> made;
  for (auto& leaves : table)
    for (Leaf& l : leaves)
      if (l.ref && roots.count(l.ref->root.name)) {
        made.push_back(spec::dim_name(*l.ref));
        l.ref.reset();
      }
  return made;
}

// A fix may widen a range (PyTorch's refine reads `Dim('batch', max=15)` as min 0): the spec
// stays inside validity, where eager runs (0/1 are specialised by the trace anyway).
spec::DynamicShapes within_validity(const Graph& graph, const spec::DynamicShapes& s, const spec::DynamicShapes& validity,
                                    std::span<const std::span<const int64_t>> sizes) {
  Table table = table_of(s, sizes);
  const Table wide = table_of(validity, sizes);
  std::map<std::string, spec::RootDim> valid;
  for (const auto& leaves : wide)
    for (const Leaf& l : leaves)
      if (l.ref && l.ref->fn.identity()) valid.emplace(l.ref->root.name, l.ref->root);
  for (auto& leaves : table)
    for (Leaf& l : leaves) {
      if (!l.ref || !l.ref->fn.identity() || !valid.count(l.ref->root.name)) continue;
      const spec::RootDim& v = valid.at(l.ref->root.name);
      spec::RootDim& r = l.ref->root;
      const int64_t lo = std::max(r.min, v.min);
      const std::optional<int64_t> hi = r.has_max && v.has_max ? std::min(r.max, v.max)
                                        : r.has_max            ? std::optional(r.max)
                                        : v.has_max            ? std::optional(v.max)
                                                               : std::nullopt;
      if (hi && *hi <= lo) l.ref.reset();  // one value left: the size itself
      else r = spec::make_dim(r.name, lo, hi);
    }
  return build_spec(graph, table);
}

}  // namespace

ExportSpec narrow_to_export(const Graph& graph, const RuleTable& rules, const spec::DynamicShapes& validity,
                            std::span<const std::span<const int64_t>> sizes) {
  ExportSpec out;
  spec::DynamicShapes spec = validity;
  int fix_rounds = 0;
  std::vector<std::string> static_notes;
  for (int round = 0; round < kMaxRounds; ++round) {
    std::string error;
    const auto r = check_at(graph, rules, spec, sizes, error);
    if (!r) {
      out.note = "no spec export accepts: " + error;
      return out;
    }
    if (r->ok()) {
      out.note = "spec check: no violation";
      if (fix_rounds) out.note += fmt::format(" (after {} round(s) of its suggested fixes)", fix_rounds);
      for (const std::string& s : static_notes) out.note += "; " + s;
      std::string why;
      if (!spec_admits(graph, spec, sizes, false, &why)) {  // by construction it does: say so if not
        out.note = "no spec export accepts: the checked spec does not admit the sizes: " + why;
        return out;
      }
      out.spec = std::move(spec);
      return out;
    }
    std::string why;
    try {
      spec::DynamicShapes next = within_validity(graph, spec::corrected_spec(graph, spec, *r), validity, sizes);
      if (!(next == spec)) {
        if (spec_admits(graph, next, sizes, false, &why)) {
          spec = std::move(next);
          ++fix_rounds;
          continue;
        }
        why = "its suggested fixes would exclude the sizes (" + why + ")";
      } else {
        why = "no suggested fix decides its guards";
      }
    } catch (const Error& e) {
      why = fmt::format("its suggested fixes do not make a spec ({})", e.what());
    }
    // What no range expresses is kept at the sizes: export accepts a static size.
    Table table = table_of(spec, sizes);
    const std::vector<std::string> made = make_static(table, offending_dims(*r));
    if (made.empty()) {
      out.note = fmt::format("no spec export accepts: spec check reports, and {}: {}", why, spec::format_violations(*r));
      return out;
    }
    static_notes.push_back(fmt::format("static: {} (spec check: {})", fmt::join(made, ", "), why));
    spec = build_spec(graph, table);
  }
  out.note = fmt::format("no spec export accepts after {} rounds of spec check's fixes", kMaxRounds);
  return out;
}

}  // namespace symshape::infer
