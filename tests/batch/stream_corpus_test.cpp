// `eval`'s stream over every visible corpus graph, fed its own examples as NDJSON, agrees
// example by example with `conform` on which specialisation serves each example and which
// are rejected.
#include <gtest/gtest.h>

#include <filesystem>
#include <fmt/format.h>

#include "batch/stream.h"
#include "conform/conform.h"
#include "graph/example_view.h"
#include "graph/json_loader.h"

namespace symshape {
namespace {

std::string ndjson_of(const Graph& g) {
  std::string out;
  for (uint32_t e = 0; e < g.num_examples(); ++e) {
    const ExampleView ex = g.example(e);
    out += "{";
    for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
      const auto s = ex.input_sizes(PlaceholderId(p));
      out += fmt::format("{}\"{}\": [{}]", p ? ", " : "", g.node_name(g.placeholder_node(PlaceholderId(p))), fmt::join(s, ", "));
    }
    out += "}\n";
  }
  return out;
}

TEST(StreamCorpus, EvalAgreesWithConformOnEveryVisibleGraph) {
  const std::filesystem::path dir = std::filesystem::path(SYMSHAPE_SHARED_DIR) / "corpus" / "visible";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no ../shared corpus";
  size_t graphs = 0, examples = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    if (!f.path().string().ends_with(".graph.json")) continue;
    OpTable ops;
    Graph g(ops);
    Diagnostics d;
    JsonGraphLoader loader;
    ASSERT_TRUE(loader.load_file(f.path().string(), ops, g, d)) << f.path();
    RuleTable rules;
    rules.resolve(ops);
    const GraphResult conform = conform_graph(g, rules);
    Diagnostics problems;
    const ExampleColumns ex = ExampleColumns::from_ndjson(g, ndjson_of(g), "own.ndjson", problems);
    ASSERT_TRUE(problems.empty()) << f.path();
    ASSERT_EQ(ex.num_examples(), g.num_examples());
    const StreamResult r = run_stream(g, rules, ex);
    ASSERT_EQ(r.verdict.size(), conform.examples.size());
    for (size_t e = 0; e < r.verdict.size(); ++e)
      EXPECT_EQ(r.verdict[e], conform.examples[e].specialization) << g.name() << " example " << e;
    EXPECT_EQ(r.specializations.size(), conform.specializations) << g.name();
    ++graphs;
    examples += r.verdict.size();
  }
  EXPECT_EQ(graphs, 25u);
  EXPECT_GT(examples, 150u);
}

}  // namespace
}  // namespace symshape
