// Derived dims in a graph's own spec (DynamicShapesSpec's `derived` lists, docs/formats.md
// "Derived dims"): the fx-graph-json writer reproduces them exactly, graph.fb / corpus.fb carry
// them in spec_dim_fn (container version 2), version-1 files written before them still load,
// and damaged derived columns are rejected.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>

#include "corpus_generated.h"
#include "formats/graph_fb_reader.h"
#include "formats/graph_fb_writer.h"
#include "graph/graph_equal.h"
#include "graph/json_writer.h"
#include "graph_generated.h"
#include "test_util.h"

namespace symshape {
namespace {

std::vector<std::string> derived_files() {
  std::vector<std::string> files;
  const std::string dir = std::string(SYMSHAPE_SOURCE_DIR) + "/data/differential/derived_dims";
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().string().ends_with(".graph.json")) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<uint8_t> fb_of(const Graph& g) {
  flatbuffers::DetachedBuffer buf;
  std::string error;
  EXPECT_TRUE(write_graph_fb(g, buf, error)) << error;
  return std::vector<uint8_t>(buf.data(), buf.data() + buf.size());
}

TEST(DerivedFormats, LoadedAsRootAndFunction) {
  OpTable ops;
  Graph g = test::load_or_die(std::string(SYMSHAPE_SOURCE_DIR) +
                                  "/data/differential/derived_dims/diff_derived_minus_two_roots.graph.json",
                              ops);
  // {"x": ["s", "h"], "y": ["s - 1", "2*h"]}
  ASSERT_TRUE(g.spec_has_derived());
  const PlaceholderId y = g.placeholder_of(g.find_node("y"));
  ASSERT_EQ(g.spec_dims(y).size(), 2u);
  EXPECT_EQ(g.sym_name(g.spec_dims(y)[0].sym), "s");
  EXPECT_EQ(g.spec_dim_fn(y, 0).mul, 1);
  EXPECT_EQ(g.spec_dim_fn(y, 0).add, -1);
  EXPECT_EQ(g.sym_name(g.spec_dims(y)[1].sym), "h");
  EXPECT_EQ(g.spec_dim_fn(y, 1).mul, 2);
  EXPECT_EQ(g.spec_dim_fn(y, 1).add, 0);
  const PlaceholderId x = g.placeholder_of(g.find_node("x"));
  EXPECT_TRUE(g.spec_dim_fn(x, 0).identity());
  EXPECT_EQ(g.num_syms(), 2u);  // derived dims are no symbols of their own
}

TEST(DerivedFormats, JsonWriterReproducesTheSpec) {
  for (const std::string& path : derived_files()) {
    OpTable ops;
    Graph g = test::load_or_die(path, ops);
    const nlohmann::json file = nlohmann::json::parse(test::read_file(path));
    const nlohmann::json written = nlohmann::json::parse(write_graph_json(g));
    EXPECT_EQ(written["dynamic_shapes"], file["dynamic_shapes"]) << path;
    JsonGraphLoader loader;
    Graph back(ops);
    Diagnostics d;
    ASSERT_TRUE(loader.load_buffer(write_graph_json(g), path, ops, back, d)) << test::format_all(d);
    EXPECT_EQ(graph_difference(g, back), "") << path;
  }
}

TEST(DerivedFormats, FlatBuffersCarryThemAsVersion2) {
  std::vector<Graph> graphs;
  OpTable ops;
  for (const std::string& path : derived_files()) {
    Graph g = test::load_or_die(path, ops);
    const std::vector<uint8_t> bytes = fb_of(g);
    EXPECT_EQ(fb::GetGraphFile(bytes.data())->version(), 2u) << path;
    OpTable ops2;
    Graph back(ops2);
    Diagnostics d;
    ASSERT_TRUE(load_graph_fb_buffer(bytes.data(), bytes.size(), path, ops2, back, d)) << test::format_all(d);
    EXPECT_EQ(graph_difference(g, back), "") << path;
    EXPECT_EQ(nlohmann::json::parse(write_graph_json(back))["dynamic_shapes"],
              nlohmann::json::parse(test::read_file(path))["dynamic_shapes"])
        << path;
    graphs.push_back(std::move(g));
  }
  // a corpus with one graph without derived dims among them is version 2 too, and every
  // graph reads back as written (the plain one with an empty spec_dim_fn)
  graphs.push_back(test::load_or_die(test::data_path("tiny.graph.json"), ops));
  flatbuffers::DetachedBuffer corpus;
  std::string error;
  ASSERT_TRUE(write_corpus_fb(graphs, corpus, error)) << error;
  EXPECT_EQ(fb::GetCorpusFile(corpus.data())->version(), 2u);
  Corpus loaded;
  Diagnostics d;
  ASSERT_TRUE(load_corpus_fb_buffer(corpus.data(), corpus.size(), "corpus", *loaded.ops, loaded.graphs, d))
      << test::format_all(d);
  ASSERT_EQ(loaded.graphs.size(), graphs.size());
  for (size_t i = 0; i < graphs.size(); ++i) EXPECT_EQ(graph_difference(graphs[i], loaded.graphs[i]), "");
  EXPECT_FALSE(loaded.graphs.back().spec_has_derived());
}

// tests/graph/data/tiny_v1.graph.fb was written before derived dims existed (a version-1
// container without spec_dim_fn). It loads, and a graph without derived dims is still written
// as exactly those bytes.
TEST(DerivedFormats, Version1FilesStillLoad) {
  OpTable ops;
  Graph json = test::load_or_die(test::data_path("tiny.graph.json"), ops);
  Graph old(ops);
  Diagnostics d;
  ASSERT_TRUE(load_graph_fb_file(test::data_path("tiny_v1.graph.fb"), ops, old, d)) << test::format_all(d);
  EXPECT_EQ(graph_difference(json, old), "");
  EXPECT_FALSE(old.spec_has_derived());
  const std::string bytes = test::read_file(test::data_path("tiny_v1.graph.fb"));
  const std::vector<uint8_t> now = fb_of(json);
  EXPECT_EQ(fb::GetGraphFile(now.data())->version(), 1u);
  EXPECT_EQ(std::string(now.begin(), now.end()), bytes);
}

// A derived graph whose columns were damaged in memory, written, then read: the FB loader's
// integrity check or validate_graph names the problem.
void expect_rejected(const std::function<void(GraphStore&)>& damage, const std::string& message) {
  OpTable ops;
  Graph g = test::load_or_die(std::string(SYMSHAPE_SOURCE_DIR) +
                                  "/data/differential/derived_dims/diff_derived_plus_one.graph.json",
                              ops);
  damage(g.mutable_store());
  const std::vector<uint8_t> bytes = fb_of(g);
  OpTable ops2;
  Graph out(ops2);
  Diagnostics d;
  EXPECT_FALSE(load_graph_fb_buffer(bytes.data(), bytes.size(), "bad.graph.fb", ops2, out, d));
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d.items[0].format(), message);
}

TEST(DerivedFormats, DamagedDerivedColumnsAreRejected) {
  // {"x": ["b", 3], "y": ["b + 1", 3]}, b in [2, 64]: spec_dims x0 x1 y0 y1
  expect_rejected([](GraphStore& s) { s.spec_dim_fn[2].mul = 0; }, "bad.graph.fb: corrupt graph data: spec_dim_fn");
  expect_rejected([](GraphStore& s) { s.spec_dim_fn[1] = SpecDimFn{2, 0}; },  // on the static 3
                  "bad.graph.fb: corrupt graph data: spec_dim_fn");
  expect_rejected([](GraphStore& s) { s.spec_dim_fn.pop_back(); }, "bad.graph.fb: corrupt graph data: spec_dim_fn");
  expect_rejected([](GraphStore& s) { s.spec_dim_fn[2] = SpecDimFn{1, -5}; },
                  "bad.graph.fb: graph 'diff_derived_plus_one': dynamic_shapes.dynamic_shapes.y[0]: Expected derived "
                  "min value of b - 5 to be >= 0. Please specify an appropriate min value for b (currently 2).");
  expect_rejected([](GraphStore& s) { s.spec_dim_fn[2] = SpecDimFn{INT64_MAX / 32, 0}; },
                  "bad.graph.fb: graph 'diff_derived_plus_one': dynamic_shapes.dynamic_shapes.y[0]: Expected derived "
                  "max value of 288230376151711743*b to be <= 9223372036854775806. Please specify an appropriate max "
                  "value for b (currently 64).");
}

}  // namespace
}  // namespace symshape
