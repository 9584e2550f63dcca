// Example loading: NDJSON lines with problems are reported by line number and left out,
// irregular ranks are kept whole, examples.fb sets load as the same columns.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "batch/example_columns.h"
#include "formats/example_set.h"
#include "graph/json_loader.h"

namespace symshape {
namespace {

Graph load_tiny(OpTable& ops) {
  Graph g(ops);
  Diagnostics d;
  JsonGraphLoader loader;
  EXPECT_TRUE(loader.load_file(std::string(SYMSHAPE_SOURCE_DIR) + "/tests/graph/data/tiny.graph.json", ops, g, d));
  return g;
}

TEST(ExampleColumns, MalformedNdjsonLinesAreReportedAndTheRestLoad) {
  OpTable ops;
  const Graph g = load_tiny(ops);
  const std::string text =
      "{\"x\": [2, 3, 9, 8]}\n"
      "not json\n"
      "\n"
      "{\"y\": [1]}\n"
      "{\"x\": [2, -3, 9, 8]}\n"
      "{}\n"
      "{\"x\": [4, 3, 7]}\n";
  Diagnostics problems;
  const ExampleColumns ex = ExampleColumns::from_ndjson(g, text, "in.ndjson", problems);
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_NE(problems.items[0].format().find("line 2"), std::string::npos);
  EXPECT_NE(problems.items[1].format().find("line 4: y"), std::string::npos);
  EXPECT_NE(problems.items[2].format().find("line 5: x[1]"), std::string::npos);
  EXPECT_NE(problems.items[3].format().find("line 6: x: missing input"), std::string::npos);
  ASSERT_EQ(ex.num_examples(), 2u);
  EXPECT_EQ(ex.source_index(0), 1u);
  EXPECT_EQ(ex.source_index(1), 7u);
  EXPECT_EQ(ex.column(0, 2)[0], 9);
  EXPECT_TRUE(ex.regular(0));
  EXPECT_FALSE(ex.regular(1));  // rank 3 given for a rank-4 input
  std::vector<std::vector<int64_t>> sizes;
  ex.sizes_of(1, sizes);
  EXPECT_EQ(sizes[0], (std::vector<int64_t>{4, 3, 7}));
}

TEST(ExampleColumns, ExampleSetFileGivesTheGraphsOwnColumns) {
  OpTable ops;
  const Graph g = load_tiny(ops);
  const auto buf = write_example_set(g);
  const std::string path = (std::filesystem::temp_directory_path() / "symshape_tiny.examples.fb").string();
  {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(buf.data()), std::streamsize(buf.size()));
  }
  ExampleColumns from_file;
  std::string error;
  ASSERT_TRUE(ExampleColumns::from_example_set_file(g, path, from_file, error)) << error;
  const ExampleColumns own = ExampleColumns::from_graph(g);
  ASSERT_EQ(from_file.num_examples(), own.num_examples());
  for (uint32_t k = 0; k < own.num_columns(); ++k)
    for (size_t e = 0; e < own.num_examples(); ++e) EXPECT_EQ(from_file.column(k)[e], own.column(k)[e]);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace symshape
