// Node output sizes computed in the guard programs (StreamOptions::size_nodes): for every
// visible corpus graph and every tensor node, each example that PyTorch ran and a
// specialisation served gets exactly the shape PyTorch recorded for that node; an example
// that no specialisation served gets no value.
#include <gtest/gtest.h>

#include <filesystem>
#include <fmt/format.h>

#include "batch/stream.h"
#include "graph/example_view.h"
#include "graph/json_loader.h"

namespace symshape {
namespace {

TEST(StreamOutputs, NodeSizesEqualPyTorchsOnEveryServedExample) {
  const std::filesystem::path dir = std::filesystem::path(SYMSHAPE_SHARED_DIR) / "corpus" / "visible";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no ../shared corpus";
  size_t graphs = 0, compared = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    if (!f.path().string().ends_with(".graph.json")) continue;
    OpTable ops;
    Graph g(ops);
    Diagnostics d;
    JsonGraphLoader loader;
    ASSERT_TRUE(loader.load_file(f.path().string(), ops, g, d)) << f.path();
    RuleTable rules;
    rules.resolve(ops);
    StreamOptions o;
    for (uint32_t n = 0; n < g.num_nodes(); ++n)
      if (g.node_kind(NodeId(n)) == NodeKind::CallFunction) o.size_nodes.push_back(NodeId(n));
    const ExampleColumns ex = ExampleColumns::from_graph(g);
    const StreamResult r = run_stream(g, rules, ex, o);
    for (size_t e = 0; e < ex.num_examples(); ++e) {
      const ExampleView golden = g.example(uint32_t(e));
      for (size_t k = 0; k < r.output_names.size(); ++k) {
        if (r.verdict[e] < 0) {
          EXPECT_EQ(r.outputs[k][e], kNoOutputValue) << g.name() << " example " << e << " " << r.output_names[k];
          continue;
        }
        if (!golden.ok()) continue;
        // "node.size()[d]" -> the node's golden shape[d]
        const std::string& name = r.output_names[k];
        const size_t dot = name.rfind(".size()[");
        if (dot == std::string::npos) continue;
        const std::string node = name.substr(0, dot);
        const size_t dim = std::stoul(name.substr(dot + 8));
        NodeId id;
        for (uint32_t n = 0; n < g.num_nodes(); ++n)
          if (g.node_name(NodeId(n)) == node) id = NodeId(n);
        const ValueId v = golden.golden(id);
        if (!v.valid() || g.value_kind(v) != ValueKind::Tensor) continue;
        const auto shape = g.value_shape(v);
        ASSERT_LT(dim, shape.size()) << g.name() << " " << name;
        EXPECT_EQ(r.outputs[k][e], shape[dim]) << g.name() << " example " << e << " " << name;
        ++compared;
      }
    }
    ++graphs;
  }
  EXPECT_EQ(graphs, 25u);
  EXPECT_GT(compared, 10000u);
}

}  // namespace
}  // namespace symshape
