#pragma once
// A graph file loaded for the infer tests: its op table, graph and resolved rules; every
// load diagnostic is a test failure.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "graph/json_loader.h"
#include "infer/infer.h"
#include "prop/rules.h"

namespace symshape::infer_test {

struct LoadedGraph {
  OpTable ops;
  Graph graph;
  RuleTable rules;
  explicit LoadedGraph(const std::string& path) {
    Diagnostics diags;
    JsonGraphLoader loader;
    EXPECT_TRUE(loader.load_file(path, ops, graph, diags)) << path;
    for (const Diagnostic& d : diags.items) ADD_FAILURE() << d.format();
    rules.resolve(ops);
  }
  // The input sizes of the graph's example `e`, one row per placeholder.
  std::vector<std::vector<int64_t>> example(uint32_t e) const {
    std::vector<std::vector<int64_t>> s;
    for (uint32_t p = 0; p < graph.num_placeholders(); ++p) {
      const auto v = graph.example(e).input_sizes(PlaceholderId(p));
      s.emplace_back(v.begin(), v.end());
    }
    return s;
  }
  infer::InferResult infer(const std::vector<std::vector<int64_t>>& sizes, infer::InferOptions o = {}) const {
    std::vector<std::span<const int64_t>> spans(sizes.begin(), sizes.end());
    return infer::infer_shapes(graph, rules, spans, o);
  }
};

}  // namespace symshape::infer_test
