// Propagation under a spec applied to a graph (replacing the graph's own spec).
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>

#include "expr/printer.h"
#include "graph/json_loader.h"
#include "prop/propagate.h"
#include "prop/rules.h"
#include "shape_env/shape_env.h"
#include "spec/apply_spec.h"
#include "spec/spec_check.h"
#include "spec/spec_json.h"
#include "test_util.h"

using namespace symshape;
using namespace symshape::spec;

namespace {

constexpr const char* kAddGraph =
    R"({"format": "fx-graph-json", "version": 1, "name": "add", "producer": {}, "nodes": [)"
    R"({"name": "x", "op": "placeholder", "target": "x", "meta": {"dtype": "float32", "rank": 2}},)"
    R"({"name": "y", "op": "placeholder", "target": "y", "meta": {"dtype": "float32", "rank": 2}},)"
    R"({"name": "out", "op": "call_function", "target": "aten.add.Tensor", "args": [{"node": "x"}, {"node": "y"}], "kwargs": {}},)"
    R"({"name": "output", "op": "output", "target": "output", "args": [{"node": "out"}]}],)"
    R"("dynamic_shapes": {"dynamic_shapes": {"x": ["n", 3], "y": ["n", 3]}, "dims": {"n": {"min": 1, "max": null, "derived": []}}},)"
    R"("examples": []})";

struct PropRun {
  bool ok = false;
  std::string message;
  std::vector<std::string> out_sizes;  // the output's sizes as expressions
};

struct Harness {
  OpTable ops;
  Graph graph;
  RuleTable rules;
  explicit Harness(std::string_view json) {
    Diagnostics diags;
    JsonGraphLoader loader;
    EXPECT_TRUE(loader.load_buffer(json, "test", ops, graph, diags));
    rules.resolve(ops);
  }
  explicit Harness(const std::filesystem::path& file) {
    Diagnostics diags;
    JsonGraphLoader loader;
    EXPECT_TRUE(loader.load_file(file.string(), ops, graph, diags)) << file;
    rules.resolve(ops);
  }
  PropRun run(std::vector<std::vector<int64_t>> sizes) {
    std::vector<std::span<const int64_t>> spans(sizes.begin(), sizes.end());
    return run_spans(spans);
  }
  PropRun run_spans(std::span<const std::span<const int64_t>> spans) {
    ShapeEnv env;
    Propagator prop(graph, rules);
    PropStatus st = prop.run(env, spans);
    PropRun r{st.ok, st.message, {}};
    if (st.ok) {
      ValId out = prop.node_values()[graph.num_nodes() - 2];
      if (prop.values().kind(out) == ValKind::Tensor)
        for (ExprId e : prop.values().sizes(prop.values().as_tensor(out)))
          r.out_sizes.push_back(to_str(env.arena(), env.simplify(e)));
    }
    return r;
  }
};

}  // namespace

TEST(ApplySpec, NamedDimSharedByTwoInputsIsOneSymbol) {
  Harness h{std::string_view(kAddGraph)};
  apply_spec(h.graph, load_spec_json(R"({"dynamic_shapes": {"x": ["batch", 3], "y": ["batch", 3]}, "dims": {"batch": {"min": 2, "max": 64, "derived": []}}})"));
  PropRun r = h.run({{4, 3}, {4, 3}});
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.out_sizes, (std::vector<std::string>{"batch", "3"}));
  EXPECT_FALSE(h.run({{4, 3}, {5, 3}}).ok);   // one Dim: the sizes must be equal
  EXPECT_FALSE(h.run({{65, 3}, {65, 3}}).ok);  // outside [2, 64]
}

TEST(ApplySpec, HintsNoneAndStatic) {
  Harness h{std::string_view(kAddGraph)};
  apply_spec(h.graph, load_spec_json(R"({"dynamic_shapes": {"x": ["_DimHint.STATIC", null], "y": null}, "dims": {}})"));
  PropRun r = h.run({{4, 3}, {4, 3}});
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.out_sizes, (std::vector<std::string>{"4", "3"}));
  apply_spec(h.graph, load_spec_json(R"({"dynamic_shapes": [["_DimHint.DYNAMIC", 3], ["_DimHint.AUTO", 3]], "dims": {}})"));
  r = h.run({{4, 3}, {4, 3}});
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_NE(r.out_sizes[0], "4");  // a symbol: AUTO/DYNAMIC dims are not static
}

TEST(ApplySpec, B170_DictFormUnlistedDimsStatic) {
  Harness h{std::string_view(kAddGraph)};
  apply_spec(h.graph, load_spec_json(R"({"dynamic_shapes": {"x": {"0": "dx"}, "y": {"0": "dx"}}, "dims": {"dx": {"min": 0, "max": null, "derived": []}}})"));
  PropRun r = h.run({{4, 4}, {4, 4}});
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.out_sizes, (std::vector<std::string>{"dx", "4"}));
}

TEST(ApplySpec, StaticIntMustMatchExample) {
  Harness h{std::string_view(kAddGraph)};
  apply_spec(h.graph, load_spec_json(R"({"dynamic_shapes": {"x": [5, 3]}, "dims": {}})"));
  PropRun r = h.run({{4, 3}, {4, 3}});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("Static shape constraint of 5 does not match input size of 4"), std::string::npos) << r.message;
}

TEST(ApplySpec, B189_UnknownTopLevelKey) {
  Harness h{std::string_view(kAddGraph)};
  expect_spec_error([&] { apply_spec(h.graph, load_spec_json(R"({"dynamic_shapes": {"z": [1]}, "dims": {}})")); },
                    PyException::UserErrorInvalidInput,
                    "`dynamic_shapes` was specified as a dict, but found top-level keys ['z'] that weren't present in "
                    "the arg names of `inputs`: ['x', 'y']. Alternatively, you could also ignore arg names entirely "
                    "and specify `dynamic_shapes` as a list/tuple matching `inputs`.");
}

TEST(ApplySpec, B190_LengthNotRank) {
  Harness h{std::string_view(kAddGraph)};
  expect_spec_error(
      [&] { apply_spec(h.graph, load_spec_json(R"({"dynamic_shapes": {"x": ["dx"]}, "dims": {"dx": {"min": 0, "max": null, "derived": []}}})")); },
      PyException::UserErrorInvalidInput,
      "Expected dynamic shape spec specified at `dynamic_shapes['x']` to have the same length as the actual tensor "
      "rank 2 (expected 2, but got 1 instead)");
}

TEST(ApplySpec, DimIndexPastRank) {
  Harness h{std::string_view(kAddGraph)};
  expect_spec_error([&] { apply_spec(h.graph, load_spec_json(R"({"dynamic_shapes": {"x": {"2": 4}}, "dims": {}})")); },
                    PyException::UserErrorInvalidInput,
                    "Unexpected dimension index 2 in the dict specified at `dynamic_shapes['x']` (the tensor has rank 2)");
}

// The graph's own spec, dumped and applied back, propagates every example exactly as the
// graph does with the spec it was loaded with.
TEST(ApplySpec, CorpusOwnSpecPropagatesIdentically) {
  const std::filesystem::path dir = std::filesystem::path(SYMSHAPE_SHARED_DIR) / "corpus" / "visible";
  size_t runs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.path().string().ends_with(".graph.json")) continue;
    Harness original(entry.path()), applied(entry.path());
    simdjson::dom::parser parser;
    const std::string spec_text = simdjson::minify(parser.load(entry.path().string())["dynamic_shapes"]);
    apply_spec(applied.graph, load_spec_json(dump_spec_json(load_spec_json(spec_text))));
    for (uint32_t e = 0; e < original.graph.num_examples(); ++e) {
      ExampleView ex = original.graph.example(e);
      std::vector<std::span<const int64_t>> spans;
      for (uint32_t p = 0; p < original.graph.num_placeholders(); ++p) spans.push_back(ex.input_sizes(PlaceholderId(p)));
      PropRun a = original.run_spans(spans), b = applied.run_spans(spans);
      EXPECT_EQ(a.ok, b.ok) << entry.path() << " example " << e << ": " << a.message << " | " << b.message;
      EXPECT_EQ(a.out_sizes, b.out_sizes) << entry.path() << " example " << e;
      ++runs;
    }
  }
  EXPECT_GT(runs, 100u);
}
