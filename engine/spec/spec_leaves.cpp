// The spec node of each input dimension.
#include "spec/spec_leaves.h"

#include <fmt/format.h>

#include <charconv>

namespace symshape::spec {

SpecLeaves spec_leaves(const Graph& g, const DynamicShapes& spec) {
  SpecLeaves out;
  out.node.resize(g.num_placeholders());
  out.path.resize(g.num_placeholders());
  for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
    out.node[p].assign(g.placeholder_rank(PlaceholderId(p)), -1);
    out.path[p] = fmt::format("['{}']", g.node_name(g.placeholder_node(PlaceholderId(p))));
  }
  if (!spec.present || spec.nodes.empty()) return out;
  const SpecNode& top = spec.nodes[0];
  if (top.kind != NodeKind::Dict && top.kind != NodeKind::List) return out;
  auto tensor = [&](uint32_t p, size_t i) {
    const SpecNode& n = spec.nodes[i];
    std::vector<int32_t>& dims = out.node[p];
    size_t j = i + 1;
    for (uint32_t c = 0; c < n.children && (n.kind == NodeKind::List || n.kind == NodeKind::Dict); ++c) {
      uint32_t d = c;
      if (n.kind == NodeKind::Dict) {
        const std::string& key = spec.keys[size_t(spec.nodes[j].key)];
        std::from_chars(key.data(), key.data() + key.size(), d);
      }
      if (d < dims.size()) dims[d] = int32_t(j);
      j = spec.subtree_end(j);
    }
  };
  size_t i = 1;
  for (uint32_t c = 0; c < top.children; ++c) {
    if (top.kind == NodeKind::List) {
      if (c < g.num_placeholders()) {
        out.path[c] = fmt::format("[{}]", c);
        tensor(c, i);
      }
    } else {
      const std::string& key = spec.keys[size_t(spec.nodes[i].key)];
      for (uint32_t p = 0; p < g.num_placeholders(); ++p)
        if (g.node_name(g.placeholder_node(PlaceholderId(p))) == key) tensor(p, i);
    }
    i = spec.subtree_end(i);
  }
  return out;
}

}  // namespace symshape::spec
