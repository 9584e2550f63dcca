#pragma once
// Which node of a DynamicShapes spec describes each input dimension of a graph (the same
// walk as apply_spec: a top-level dict by placeholder name or a list in order; per tensor a
// list or a {"<dim>": entry} dict), and the `inputs{path}` of each placeholder. Used where
// the spec's own leaf matters after apply_spec: hint kinds (F.9) and rewriting the spec.
#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "spec/dynamic_shapes.h"

namespace symshape::spec {

struct SpecLeaves {
  std::vector<std::vector<int32_t>> node;  // [placeholder][dim]: node index, -1 when none
  std::vector<std::string> path;           // [placeholder]: "['x']" or "[0]"
  // The leaf's hint kind when it is a Dim.AUTO / Dim.DYNAMIC / Dim.STATIC leaf.
  const SpecNode* leaf(const DynamicShapes& spec, uint32_t p, uint32_t d) const {
    if (p >= node.size() || d >= node[p].size() || node[p][d] < 0) return nullptr;
    return &spec.nodes[size_t(node[p][d])];
  }
};

// Assumes `spec` already passed apply_spec on `graph` (structure errors are reported there).
SpecLeaves spec_leaves(const Graph& graph, const DynamicShapes& spec);

}  // namespace symshape::spec
