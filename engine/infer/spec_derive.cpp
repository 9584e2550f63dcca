// The spec side of `symshape infer`: the validity spec around valid sizes and the spec export
// accepts inside it (derive_spec), and whether sizes fit a spec (spec_admits).
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "core/error.h"
#include "infer/check_at.h"
#include "infer/infer.h"
#include "infer/spec_table.h"
#include "prop/propagate.h"
#include "spec/spec_check.h"
#include "spec/spec_json.h"

namespace symshape::infer {
namespace {

// Whether the graph propagates at these concrete sizes (a fake mode without ShapeEnv).
bool propagates_statically(const Graph& g, const RuleTable& rules, const std::vector<std::vector<int64_t>>& sizes) {
  ShapeEnv env;
  Propagator prop(g, rules);
  prop.set_input_policy(InputPolicy::Static);
  std::vector<std::span<const int64_t>> spans(sizes.begin(), sizes.end());
  return prop.run(env, spans).ok;
}

// A Dim name per input dimension: the graph's own spec name where it has one (first use),
// otherwise `<input>_<dim>`.
std::string dim_name_for(const Graph& g, PlaceholderId p, uint32_t d, std::set<std::string>& used) {
  if (g.spec_has(p)) {
    const auto dims = g.spec_dims(p);
    if (d < dims.size() && dims[d].sym.valid() && g.spec_dim_fn(p, d).identity()) {  // not a derived dim
      std::string own(g.sym_name(dims[d].sym));
      if (used.insert(own).second) return own;
    }
  }
  std::string name = fmt::format("{}_{}", g.node_name(g.placeholder_node(p)), d);
  while (!used.insert(name).second) name += "_";
  return name;
}

// Widens each Dim to the sizes where the graph propagates (a fake mode without ShapeEnv at
// concrete sizes: eager's shape checks): every leaf of one root moves together; scanning
// down from the sizes to 2 gives the min, up to x + clamp(x, 256, 1024) the max (none:
// unbounded); at most 1024 sizes are probed downwards (a larger min is kept, narrower).
constexpr int64_t kMaxProbes = 1024;
// A dim valid at neither neighbour is not an interval around its size: it becomes static.
void widen(const Graph& g, const RuleTable& rules, std::vector<std::vector<int64_t>>& at, Table& table) {
  // a size spec check made static is probed too (an equality through `//` holds at several
  // sizes: (s // 2) + 12 == 120 at 216 and 217); it gets back the Dim name it started with
  std::set<std::string> roots;
  for (const auto& leaves : table)
    for (const Leaf& l : leaves)
      if (l.ref) roots.insert(l.ref->root.name);
  for (uint32_t p = 0; p < table.size(); ++p)
    for (uint32_t d = 0; d < table[p].size(); ++d) {
      Leaf& l = table[p][d];
      if (!l.ref && at[p][d] >= 2 && !roots.count(l.name)) l.ref = spec::DimRef{spec::make_dim(l.name, 2), {}};
    }
  std::set<std::string> done;
  for (uint32_t p = 0; p < table.size(); ++p)
    for (uint32_t d = 0; d < table[p].size(); ++d) {
      Leaf& first = table[p][d];
      if (!first.ref || done.count(first.ref->root.name)) continue;
      const std::string root = first.ref->root.name;
      done.insert(root);
      std::vector<std::pair<uint32_t, uint32_t>> group;
      bool identity = true;
      for (uint32_t q = 0; q < table.size(); ++q)
        for (uint32_t e = 0; e < table[q].size(); ++e)
          if (table[q][e].ref && table[q][e].ref->root.name == root) {
            group.emplace_back(q, e);
            identity = identity && table[q][e].ref->fn.identity();
          }
      if (!identity && group.size() > 1) continue;  // related by a function: kept as checked
      const int64_t base = at[p][d];
      auto valid = [&](int64_t x) {
        for (auto [q, e] : group) at[q][e] = x;
        const bool ok = propagates_statically(g, rules, at);
        for (auto [q, e] : group) at[q][e] = base;
        return ok;
      };
      int64_t lo = base;
      while (lo > 2 && base - lo < kMaxProbes && valid(lo - 1)) --lo;
      const int64_t limit = base + std::clamp<int64_t>(base, 256, kMaxProbes);
      int64_t hi = base;
      while (hi < limit && valid(hi + 1)) ++hi;
      const std::string name = identity ? root : first.name;
      for (auto [q, e] : group) {
        Leaf& l = table[q][e];
        if (lo == base && hi == base) {
          l.ref.reset();
          l.size = base;
        } else {
          l.ref = spec::DimRef{spec::make_dim(name, lo, hi < limit ? std::optional<int64_t>(hi) : std::nullopt), {}};
        }
      }
    }
}

}  // namespace

DerivedSpecs derive_spec(const Graph& graph, const RuleTable& rules, std::span<const std::span<const int64_t>> sizes) {
  // a 0/1 size is specialised by the trace: take 2 instead where the graph allows it, so the
  // spec says what the graph needs rather than what the example happened to be
  std::vector<std::vector<int64_t>> at;
  for (auto s : sizes) at.emplace_back(s.begin(), s.end());
  for (auto& dims : at)
    for (int64_t& v : dims)
      if (v == 0 || v == 1) {
        const int64_t old = v;
        v = 2;
        if (!propagates_statically(graph, rules, at)) v = old;
      }
  std::set<std::string> used;
  Table table(at.size());
  for (uint32_t p = 0; p < graph.num_placeholders(); ++p)
    for (uint32_t d = 0; d < at[p].size(); ++d) {
      Leaf& l = table[p].emplace_back();
      l.name = dim_name_for(graph, PlaceholderId(p), d, used);
      l.size = at[p][d];
      if (at[p][d] >= 2) l.ref = spec::DimRef{spec::make_dim(l.name, 2), {}};
    }
  spec::DynamicShapes spec = build_spec(graph, table);
  std::vector<std::span<const int64_t>> spans(at.begin(), at.end());
  // spec check's corrected spec, until the spec checks clean at these sizes: forced
  // specialisations, equal dims, ranges
  std::string check_note;
  for (int round = 0; round < 4; ++round) {
    const auto r = check_at(graph, rules, spec, spans, check_note);
    if (!r || r->ok()) break;
    try {
      spec::DynamicShapes next = spec::corrected_spec(graph, spec, *r);
      if (next == spec) break;
      spec = std::move(next);
    } catch (const Error& e) {
      check_note = fmt::format("the suggested fixes do not make a spec: {}", e.what());
      break;
    }
  }
  // The guards of one trace describe where *that trace* holds (its branches), which is
  // narrower than where the graph is valid (spec check's min is the example itself when a
  // guard like (h//32) != 1 holds there). Each Dim's range is therefore widened to the
  // sizes at which the graph really propagates, probed concretely around the sizes.
  read_back(spec, table);
  widen(graph, rules, at, table);
  DerivedSpecs out;
  out.validity = build_spec(graph, table);
  // ... and that region is what eager accepts, not what one export trace does: the spec
  // printed for torch.export is narrowed back to the trace at these sizes.
  ExportSpec exported = narrow_to_export(graph, rules, *out.validity, spans);
  if (exported.spec) {
    spec::DynamicShapes wider = widen_pinned_sizes(graph, rules, *exported.spec, *out.validity, spans);
    if (!(wider == *exported.spec)) {
      exported.spec = std::move(wider);
      exported.note += "; sizes the fixes pinned widened back to the range spec check accepts";
    }
  }
  out.spec = std::move(exported.spec);
  out.spec_note = std::move(exported.note);
  out.validity_note = "where eager runs: the graph propagates at concrete sizes, probed around the sizes; ";
  if (!out.spec) out.validity_note += "no spec for export was found inside it";
  else if (*out.spec == *out.validity) out.validity_note += "the same as the spec";
  else out.validity_note += "wider than the spec (export's one trace takes other branches, or specialises, outside it)";
  return out;
}

bool spec_admits(const Graph& graph, const spec::DynamicShapes& s, std::span<const std::span<const int64_t>> sizes,
                 bool exempt_01, std::string* why) {
  auto no = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return false;
  };
  if (!s.present || s.nodes.empty()) return true;
  std::map<std::string, int64_t> root_value;
  // one tensor entry at node `i` against input p
  auto leaf = [&](size_t i, uint32_t p, uint32_t d) -> std::optional<std::string> {
    const spec::SpecNode& n = s.nodes[i];
    const std::string_view input = graph.node_name(graph.placeholder_node(PlaceholderId(p)));
    const int64_t v = sizes[p][d];
    if (exempt_01 && (v == 0 || v == 1)) return std::nullopt;
    if (n.kind == spec::NodeKind::Int && n.value != v)
      return fmt::format("{}.size()[{}] is {}, the spec says {}", input, d, v, n.value);
    if (n.kind != spec::NodeKind::Dim) return std::nullopt;
    const spec::DimRef ref = s.dim(n);
    const int64_t shifted = v - ref.fn.add;
    if (shifted % ref.fn.mul != 0)
      return fmt::format("{}.size()[{}] = {} is not {}", input, d, v, spec::dim_name(ref));
    const int64_t root = shifted / ref.fn.mul;
    if (root < ref.root.min || (ref.root.has_max && root > ref.root.max))
      return fmt::format("{}.size()[{}] = {} puts {} = {} outside [{}, {}]", input, d, v, ref.root.name, root, ref.root.min,
                         ref.root.has_max ? fmt::format("{}", ref.root.max) : "oo");
    auto [it, fresh] = root_value.emplace(ref.root.name, root);
    if (!fresh && it->second != root)
      return fmt::format("{}.size()[{}] = {} gives {} = {}, another input gave {}", input, d, v, ref.root.name, root,
                         it->second);
    return std::nullopt;
  };
  const spec::SpecNode& top = s.nodes[0];
  size_t child = 1;
  for (uint32_t k = 0; k < top.children; ++k) {
    const size_t end = s.subtree_end(child);
    uint32_t p = k;
    if (top.kind == spec::NodeKind::Dict) {
      const std::string& key = s.keys[size_t(s.nodes[child].key)];
      p = graph.num_placeholders();
      for (uint32_t q = 0; q < graph.num_placeholders(); ++q)
        if (graph.node_name(graph.placeholder_node(PlaceholderId(q))) == key) p = q;
    }
    if (p >= graph.num_placeholders() || p >= sizes.size()) return no("the spec names an input the graph does not have");
    const spec::SpecNode& t = s.nodes[child];
    if (t.kind == spec::NodeKind::List) {
      if (t.children != sizes[p].size())
        return no(fmt::format("input {} has rank {}, the spec {}", graph.node_name(graph.placeholder_node(PlaceholderId(p))),
                              sizes[p].size(), t.children));
      size_t c = child + 1;
      for (uint32_t d = 0; d < t.children; ++d) {
        if (auto r = leaf(c, p, d)) return no(*r);
        c = s.subtree_end(c);
      }
    } else if (t.kind == spec::NodeKind::Dict) {
      size_t c = child + 1;
      for (uint32_t j = 0; j < t.children; ++j) {
        const std::string& key = s.keys[size_t(s.nodes[c].key)];
        uint32_t d = 0;
        const auto [ptr, ec] = std::from_chars(key.data(), key.data() + key.size(), d);
        if (ec != std::errc() || ptr != key.data() + key.size() || d >= sizes[p].size())
          return no(fmt::format("the spec's dimension key '{}' is not a dimension of the input", key));
        if (auto r = leaf(c, p, d)) return no(*r);
        c = s.subtree_end(c);
      }
    }
    child = end;
  }
  return true;
}

}  // namespace symshape::infer
