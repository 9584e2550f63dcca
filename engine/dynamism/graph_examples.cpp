#include "dynamism/graph_examples.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace symshape::dynamism {

std::string graph_examples_ndjson(const Graph& g, bool with_module_attributes, std::vector<uint64_t>& example_ids) {
  nlohmann::ordered_json self;
  if (with_module_attributes) {
    self = {{"module", nlohmann::ordered_json::object()}};
    for (uint32_t a = 0; a < g.num_attrs(); ++a) {
      const std::string_view target = g.node_target(g.attr_node(AttrId(a)));
      nlohmann::ordered_json* m = &self["module"];
      size_t start = 0;
      for (size_t dot = target.find('.'); dot != std::string_view::npos; dot = target.find('.', start)) {
        m = &(*m)["modules"][std::string(target.substr(start, dot - start))]["module"];
        start = dot + 1;
      }
      const auto shape = g.attr_shape(AttrId(a));
      (*m)["parameters"][std::string(target.substr(start))] = {{"tensor", std::vector<int64_t>(shape.begin(), shape.end())}};
    }
  }
  std::string out;
  example_ids.clear();
  for (uint32_t e = 0; e < g.num_examples(); ++e) {
    const ExampleView ex = g.example(e);
    if (!ex.ok()) continue;
    nlohmann::ordered_json line = nlohmann::ordered_json::object();
    for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
      const auto sz = ex.input_sizes(PlaceholderId(p));
      line[std::string(g.node_name(g.placeholder_node(PlaceholderId(p))))] = std::vector<int64_t>(sz.begin(), sz.end());
    }
    if (with_module_attributes) line["self"] = self;
    out += line.dump();
    out += '\n';
    example_ids.push_back(e);
  }
  return out;
}

ExampleColumns graph_columns(const ExampleSet& set, const Graph& g, std::string_view file_name,
                             std::vector<uint64_t>& example_ids, Diagnostics& problems) {
  const uint32_t np = g.num_placeholders();
  std::vector<uint32_t> ranks(np);
  std::vector<uint32_t> first(np);
  uint32_t ncols = 0;
  for (uint32_t p = 0; p < np; ++p) {
    ranks[p] = g.placeholder_rank(PlaceholderId(p));
    first[p] = ncols;
    ncols += ranks[p];
  }
  std::vector<std::vector<int64_t>> columns(ncols);
  std::vector<const ValueNode*> given(np);
  example_ids.clear();
  for (size_t e = 0; e < set.num_examples(); ++e) {
    std::fill(given.begin(), given.end(), nullptr);
    const size_t root = set.roots[e];
    size_t c = root + 1;
    for (uint32_t k = 0; k < set.nodes[root].children; ++k, c = set.subtree_end(c)) {
      const ValueNode& n = set.nodes[c];
      const NodeId node = g.find_node(set.name(n.key));
      const PlaceholderId p = node.valid() ? g.placeholder_of(node) : PlaceholderId();
      if (p.valid()) given[p.index()] = &n;
    }
    std::string problem;
    for (uint32_t p = 0; p < np && problem.empty(); ++p) {
      const std::string_view name = g.node_name(g.placeholder_node(PlaceholderId(p)));
      if (!given[p]) problem = fmt::format("{}: missing input of graph '{}'", name, g.name());
      else if (given[p]->kind != ValueKind::Tensor) problem = fmt::format("{}: expected a tensor (a list of sizes)", name);
      else if (given[p]->rank != ranks[p])
        problem = fmt::format("{}: rank {}, the graph's input has rank {}", name, given[p]->rank, ranks[p]);
    }
    if (!problem.empty()) {
      Diagnostic d;
      d.code = GraphErrc::BadValue;
      d.file = std::string(file_name);
      d.graph = std::string(g.name());
      d.field = fmt::format("line {}", set.source[e]);
      d.message = problem + " (not used for the spec)";
      problems.add(std::move(d));
      continue;
    }
    for (uint32_t p = 0; p < np; ++p) {
      const auto sz = set.tensor_sizes(*given[p]);
      for (uint32_t d = 0; d < ranks[p]; ++d) columns[first[p] + d].push_back(sz[d]);
    }
    example_ids.push_back(set.source[e]);
  }
  return ExampleColumns::from_columns(std::move(ranks), std::move(columns));
}

}  // namespace symshape::dynamism
