// Results files: JSON and results.fb hold the same content, reading reports bad input
// with the file and field, writing is atomic, and merging disjoint shards is canonical.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "corpus/results_file.h"
#include "corpus/results_json.h"

namespace symshape {
namespace {

namespace fs = std::filesystem;

GraphResults sample_graph(const std::string& name, uint64_t ns) {
  GraphResults g;
  g.name = name;
  g.file = name + ".graph.json";
  g.ok = true;
  g.nodes = 7;
  g.examples = 2;
  g.hints = {"x=[2, 3, 8, 8]"};
  g.hints_from = "example 0";
  g.guards = {"L['x'].size()[1] == 3", "2 <= L['x'].size()[2]"};
  g.entries.push_back({0, g.guards, {}, 1});
  g.entries.push_back({1, {"L['x'].size()[0] == 1"}, {"L['x'].size()[0] == 2"}, 1});
  g.node_shapes.push_back({5, "relu", ResultValueKind::Tensor, DType::Float32, {"s0", "4"}, {"4", "1"}, ""});
  g.node_shapes.push_back({6, "sym_size", ResultValueKind::Int, DType::Float32, {}, {}, "s0"});
  VerdictResult v0;
  v0.example = 0;
  v0.specialization = 0;
  v0.predicted_ok = v0.expected_ok = v0.matches = v0.has_expected = true;
  VerdictResult v1;
  v1.example = 1;
  v1.message = "L['x'].size()[2] >= 2";
  v1.error_node = "conv2d";
  g.verdicts = {v0, v1};
  g.timing = {ns, 2 * ns, 3 * ns};
  return g;
}

Results sample(uint64_t ns = 1000) {
  Results r;
  r.producer = "symshape corpus";
  r.graphs.push_back(sample_graph("resnet", ns));
  GraphResults bad;
  bad.name = "broken";
  bad.file = "broken.graph.json";
  bad.status = GraphStatus::Unsupported;
  bad.error = "aten.foo.default: unsupported op";
  bad.error_node = "foo";
  bad.nodes = 3;
  bad.timing.propagate_ns = ns;
  r.graphs.push_back(bad);
  return r;
}

std::string temp_dir(const char* name) {
  const fs::path d = fs::temp_directory_path() / ("symshape_results_test_" + std::string(name));
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

TEST(ResultsFile, JsonAndFlatBuffersRoundTripTheSameContent) {
  const Results r = sample();
  const std::string dir = temp_dir("roundtrip");
  std::string error;
  for (const char* name : {"/r.json", "/r.results.fb"}) {
    ASSERT_TRUE(write_results_file(dir + name, r, error)) << error;
    Results back;
    ASSERT_TRUE(read_results_file(dir + name, back, error)) << error;
    EXPECT_EQ(results_difference(r, back), "") << name;
    EXPECT_EQ(back.graphs[0].timing.compile_ns, 2000u) << name;  // timings are kept
    EXPECT_EQ(back.graphs[1].status, GraphStatus::Unsupported) << name;
    EXPECT_EQ(back.graphs[0].entries[1].created_by, r.graphs[0].entries[1].created_by) << name;
    EXPECT_EQ(back.graphs[0].verdicts[1].specialization, -1) << name;
  }
}

TEST(ResultsFile, CanonicalComparisonIgnoresTimingsOnly) {
  EXPECT_EQ(results_difference(sample(1000), sample(5)), "");
  Results other = sample();
  other.graphs[0].verdicts[1].specialization = 1;
  EXPECT_NE(results_difference(sample(), other), "");
}

TEST(ResultsFile, BadFilesAreReportedWithFileAndField) {
  const std::string dir = temp_dir("bad");
  Results out;
  std::string error;
  {
    std::ofstream(dir + "/garbage.json") << "{\"format\": \"symshape-results\", \"version\": 1, \"producer\": \"x\", "
                                            "\"graphs\": [{\"name\": \"g\", \"file\": 3}]}";
  }
  EXPECT_FALSE(read_results_file(dir + "/garbage.json", out, error));
  EXPECT_NE(error.find("garbage.json"), std::string::npos) << error;
  EXPECT_NE(error.find("graph 'g'"), std::string::npos) << error;
  EXPECT_NE(error.find("'file'"), std::string::npos) << error;
  { std::ofstream(dir + "/cut.json") << "{\"format\": \"symshape-res"; }
  EXPECT_FALSE(read_results_file(dir + "/cut.json", out, error));
  EXPECT_NE(error.find("cut.json: not valid JSON"), std::string::npos) << error;
  // a truncated results.fb fails FlatBuffers verification
  ASSERT_TRUE(write_results_file(dir + "/ok.results.fb", sample(), error)) << error;
  fs::resize_file(dir + "/ok.results.fb", fs::file_size(dir + "/ok.results.fb") / 2);
  EXPECT_FALSE(read_results_file(dir + "/ok.results.fb", out, error));
  EXPECT_NE(error.find("ok.results.fb"), std::string::npos) << error;
  EXPECT_FALSE(read_results_file(dir + "/missing.json", out, error));
  EXPECT_NE(error.find("missing.json"), std::string::npos) << error;
}

TEST(ResultsFile, WritesAreWholeOrNothing) {
  const std::string dir = temp_dir("atomic");
  std::string error;
  const std::string path = dir + "/r.json";
  ASSERT_TRUE(write_results_file(path, sample(), error)) << error;
  const auto size = fs::file_size(path);
  // a failed write (no such folder) leaves nothing behind
  EXPECT_FALSE(write_results_file(dir + "/no/such/dir/r.json", sample(), error));
  EXPECT_NE(error.find("no/such/dir/r.json"), std::string::npos) << error;
  // overwriting replaces the file in one step; no temporary file is left over
  Results bigger = sample();
  bigger.graphs.push_back(sample_graph("zzz", 1));
  ASSERT_TRUE(write_results_file(path, bigger, error)) << error;
  EXPECT_GT(fs::file_size(path), size);
  size_t entries = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    ++entries;
    EXPECT_EQ(e.path().filename(), "r.json");
  }
  EXPECT_EQ(entries, 1u);
}

TEST(ResultsMerge, DisjointShardsMergeIntoCanonicalOrder) {
  Results a, b;
  a.producer = b.producer = "symshape corpus";
  a.graphs = {sample_graph("mlp", 1), sample_graph("zoo", 1)};
  b.graphs = {sample_graph("bert", 2)};
  Results merged;
  std::string error;
  ASSERT_TRUE(merge_results({a, b}, merged, error)) << error;
  ASSERT_EQ(merged.graphs.size(), 3u);
  EXPECT_EQ(merged.graphs[0].name, "bert");
  EXPECT_EQ(merged.graphs[1].name, "mlp");
  EXPECT_EQ(merged.graphs[2].name, "zoo");
  Results whole;
  whole.producer = "symshape corpus";
  whole.graphs = {sample_graph("zoo", 9), sample_graph("bert", 9), sample_graph("mlp", 9)};
  canonicalize(whole);
  EXPECT_EQ(results_difference(merged, whole), "");
}

TEST(ResultsMerge, OverlappingShardsAreRejected) {
  Results a, b;
  a.graphs = {sample_graph("mlp", 1)};
  b.graphs = {sample_graph("mlp", 2)};
  Results merged;
  std::string error;
  EXPECT_FALSE(merge_results({a, b}, merged, error));
  EXPECT_NE(error.find("'mlp'"), std::string::npos) << error;
  EXPECT_NE(error.find("more than one shard"), std::string::npos) << error;
}

}  // namespace
}  // namespace symshape
