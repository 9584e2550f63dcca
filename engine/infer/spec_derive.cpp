// The spec side of `symshape infer`: the most general spec around valid sizes (derive_spec)
// and whether sizes fit a spec (spec_admits).
#include <fmt/format.h>

#include <map>
#include <set>

#include "core/error.h"
#include "infer/infer.h"
#include "prop/propagate.h"
#include "spec/apply_spec.h"
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
    if (d < dims.size() && dims[d].sym.valid()) {
      std::string own(g.sym_name(dims[d].sym));
      if (used.insert(own).second) return own;
    }
  }
  std::string name = fmt::format("{}_{}", g.node_name(g.placeholder_node(p)), d);
  while (!used.insert(name).second) name += "_";
  return name;
}

}  // namespace

std::optional<spec::DynamicShapes> derive_spec(const Graph& graph, const RuleTable& rules,
                                               std::span<const std::span<const int64_t>> sizes, std::string& note) {
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
  spec::SpecBuilder b;
  b.begin_dict();
  std::set<std::string> used;
  for (uint32_t p = 0; p < graph.num_placeholders(); ++p) {
    const PlaceholderId ph(p);
    b.begin_list(graph.node_name(graph.placeholder_node(ph)));
    for (uint32_t d = 0; d < at[p].size(); ++d) {
      if (at[p][d] <= 1) b.size(at[p][d]);
      else b.dim(spec::DimRef{spec::make_dim(dim_name_for(graph, ph, d, used), 2), {}});
    }
    b.end();
  }
  b.end();
  spec::DynamicShapes spec = b.build();
  std::vector<std::span<const int64_t>> spans(at.begin(), at.end());
  // spec check's corrected spec, until the spec checks clean at these sizes
  for (int round = 0; round < 4; ++round) {
    Graph g = graph;
    try {
      spec::apply_spec(g, spec);
    } catch (const Error& e) {
      note = fmt::format("not re-checked: {}", e.what());
      return spec;
    }
    const spec::SpecCheckResult r = spec::check_spec_at(g, rules, &spec, spans);
    if (!r.checked) {
      note = fmt::format("spec check failed: {}", r.error);
      return spec;
    }
    if (r.ok()) {
      note = round == 0 ? "spec check: no violation" : fmt::format("spec check: no violation after {} correction(s)", round);
      return spec;
    }
    try {
      spec::DynamicShapes next = spec::corrected_spec(g, spec, r);
      if (next == spec) {
        note = "spec check still reports: " + spec::format_violations(r);
        return spec;
      }
      spec = std::move(next);
    } catch (const Error& e) {
      note = fmt::format("the suggested fixes do not make a spec: {}", e.what());
      return spec;
    }
  }
  note = "spec check still reports violations after 4 corrections";
  return spec;
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
        const uint32_t d = uint32_t(std::stoul(s.keys[size_t(s.nodes[c].key)]));
        if (d >= sizes[p].size()) return no("the spec names a dimension past the input's rank");
        if (auto r = leaf(c, p, d)) return no(*r);
        c = s.subtree_end(c);
      }
    }
    child = end;
  }
  return true;
}

}  // namespace symshape::infer
