#include "infer/spec_table.h"

namespace symshape::infer {

spec::DynamicShapes build_spec(const Graph& g, const Table& table) {
  spec::SpecBuilder b;
  b.begin_dict();
  for (uint32_t p = 0; p < table.size(); ++p) {
    b.begin_list(g.node_name(g.placeholder_node(PlaceholderId(p))));
    for (const Leaf& l : table[p]) {
      if (l.ref) b.dim(*l.ref);
      else b.size(l.size);
    }
    b.end();
  }
  b.end();
  return b.build();
}

void read_back(const spec::DynamicShapes& s, Table& table) {
  size_t child = 1;
  for (uint32_t p = 0; p < table.size() && child < s.nodes.size(); ++p) {
    const size_t end = s.subtree_end(child);
    size_t c = child + 1;
    for (Leaf& l : table[p]) {
      if (c >= end) break;
      const spec::SpecNode& n = s.nodes[c];
      if (n.kind == spec::NodeKind::Dim) l.ref = s.dim(n);
      else if (n.kind == spec::NodeKind::Int) l.ref.reset(), l.size = n.value;
      c = s.subtree_end(c);
    }
    child = end;
  }
}

Table table_of(const spec::DynamicShapes& s, std::span<const std::span<const int64_t>> sizes) {
  Table table(sizes.size());
  for (size_t p = 0; p < sizes.size(); ++p)
    for (int64_t v : sizes[p]) table[p].push_back(Leaf{{}, v, std::nullopt});
  read_back(s, table);
  for (size_t p = 0; p < sizes.size(); ++p)
    for (size_t d = 0; d < sizes[p].size(); ++d)
      if (table[p][d].ref) table[p][d].name = spec::dim_name(*table[p][d].ref), table[p][d].size = sizes[p][d];
  return table;
}

}  // namespace symshape::infer
