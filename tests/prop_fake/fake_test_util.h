#pragma once
// Shared helpers of the FakeTensorProp tests: a graph built in C++ (GraphBuilder) with its
// rule table, and readers of recorded meta['val'] values.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "expr/printer.h"
#include "graph/graph_builder.h"
#include "prop/fake_tensor_prop.h"
#include "prop/rules.h"

namespace symshape::test {

using Ints = std::vector<int64_t>;
using Strs = std::vector<std::string>;

// One graph under construction: build with `b`, then finish() before propagating.
struct TestGraph {
  OpTable ops;
  GraphBuilder b{ops, "f"};
  Graph g{ops};
  RuleTable rules;

  void finish() {
    Diagnostics d;
    ASSERT_TRUE(b.finish(g, d)) << (d.empty() ? "" : d.items[0].format());
    rules.resolve(ops);
  }
  NodeId node(const std::string& name) const { return g.find_node(name); }
};

// Sizes / strides of a tensor value as printed expressions.
inline Strs printed(const ExprArena& ar, std::span<const ExprId> es) {
  Strs out;
  for (ExprId e : es) out.push_back(to_str(ar, e));
  return out;
}

inline TensorId recorded_tensor(const FakeTensorProp& fp, NodeId n) {
  const ValId v = fp.val(n);
  EXPECT_TRUE(v.valid());
  EXPECT_EQ(fp.recorded_values().kind(v), ValKind::Tensor);
  return fp.recorded_values().as_tensor(v);
}

inline StorageId recorded_storage(const FakeTensorProp& fp, NodeId n) {
  return fp.recorded_values().tensor(recorded_tensor(fp, n)).storage;
}

inline bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace symshape::test
