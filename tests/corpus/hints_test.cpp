// Hints for a corpus run: the first successful in-spec example, or values synthesised
// from the dynamic_shapes spec (distinct, in range, never 0 or 1).
#include <gtest/gtest.h>

#include <set>

#include "conform/specialization.h"
#include "corpus/hints.h"
#include "corpus_test_util.h"

namespace symshape {
namespace {

using test::LoadedCorpus;

const char* kTwoInputs = R"J({
 "format": "fx-graph-json", "version": 1, "name": "two_inputs", "producer": {},
 "nodes": [
  {"name": "x", "op": "placeholder", "target": "x", "meta": {"dtype": "float32", "rank": 3}},
  {"name": "y", "op": "placeholder", "target": "y", "meta": {"dtype": "float32", "rank": 2}},
  {"name": "w", "op": "get_attr", "target": "w", "meta": {"shape": [64, 72], "dtype": "float32", "stride": [72, 1]}},
  {"name": "add", "op": "call_function", "target": "aten.add.Tensor", "args": [{"node": "x"}, {"node": "y"}], "kwargs": {}},
  {"name": "output", "op": "output", "target": "output", "args": [{"node": "add"}]}
 ],
 "dynamic_shapes": {"dynamic_shapes": {"x": ["batch", "seq", 16], "y": ["seq", 16]},
                    "dims": {"batch": {"min": 1, "max": null, "derived": []},
                             "seq": {"min": 2, "max": 70, "derived": []}}},
 "examples": [
  {"inputs": {"x": [2, 5, 16], "y": [6, 16]}, "seed": 0, "in_spec": false, "ok": false,
   "error": "RuntimeError: The size of tensor a (5) must match the size of tensor b (6)", "error_kind": "shape",
   "error_node": "add"},
  {"inputs": {"x": [3, 7, 16], "y": [7, 16]}, "seed": 1, "in_spec": true, "ok": true,
   "output": {"shape": [3, 7, 16], "stride": [112, 16, 1], "dtype": "float32"}, "values": {
    "x": {"shape": [3, 7, 16], "stride": [112, 16, 1], "dtype": "float32"},
    "y": {"shape": [7, 16], "stride": [16, 1], "dtype": "float32"},
    "w": {"shape": [64, 72], "stride": [72, 1], "dtype": "float32"},
    "add": {"shape": [3, 7, 16], "stride": [112, 16, 1], "dtype": "float32"}}}
 ]
})J";

Graph load_text(OpTable& ops, const char* text) {
  JsonGraphLoader loader;
  Graph g(ops);
  Diagnostics d;
  EXPECT_TRUE(loader.load_buffer(text, "two_inputs.graph.json", ops, g, d)) << (d.empty() ? "" : d.items[0].format());
  return g;
}

TEST(Hints, FirstSuccessfulExampleIsChosen) {
  OpTable ops;
  const Graph g = load_text(ops, kTwoInputs);
  const GraphHints h = choose_hints(g);
  EXPECT_EQ(h.example, 1);  // example 0 failed in PyTorch
  ASSERT_EQ(h.sizes.size(), 2u);
  EXPECT_EQ(h.sizes[0], (std::vector<int64_t>{3, 7, 16}));
  EXPECT_EQ(h.sizes[1], (std::vector<int64_t>{7, 16}));
  EXPECT_EQ(hints_origin(h), "example 1");
  EXPECT_EQ(hints_text(g, h), (std::vector<std::string>{"x=[3, 7, 16]", "y=[7, 16]"}));
}

TEST(Hints, SynthesisedFromSpec) {
  OpTable ops;
  const Graph g = load_text(ops, kTwoInputs);
  const GraphHints h = synthesise_hints(g);
  EXPECT_EQ(h.example, -1);
  EXPECT_EQ(hints_origin(h), "synthesised");
  ASSERT_EQ(h.sizes.size(), 2u);
  const int64_t batch = h.sizes[0][0], seq = h.sizes[0][1];
  EXPECT_EQ(h.sizes[0][2], 16);       // static dims keep their size
  EXPECT_EQ(h.sizes[1][0], seq);      // one spec name, one value
  EXPECT_EQ(h.sizes[1][1], 16);
  EXPECT_GE(seq, 2);
  EXPECT_LE(seq, 70);                 // inside the range
  EXPECT_NE(seq, 64);                 // 64 and 72 are weight sizes: no accidental equality
  EXPECT_NE(batch, seq);
  for (int64_t v : {batch, seq}) {
    EXPECT_NE(v, 0);
    EXPECT_NE(v, 1);
    EXPECT_NE(v, 16);
    EXPECT_NE(v, 72);
  }
}

TEST(Hints, GraphWithoutExamplesFallsBackToSynthesis) {
  std::string text = kTwoInputs;
  text = text.substr(0, text.find("\"examples\"")) + "\"examples\": []\n}";
  OpTable ops;
  const Graph g = load_text(ops, text.c_str());
  ASSERT_EQ(g.num_examples(), 0u);
  EXPECT_EQ(choose_hints(g).example, -1);
}

// Every visible graph propagates with hints synthesised from its spec alone; the
// synthesised values are distinct per spec symbol and never 0 or 1.
TEST(Hints, SynthesisedHintsPropagateEveryVisibleGraph) {
  LoadedCorpus c(test::visible_files());
  ASSERT_FALSE(c.corpus.graphs.empty());
  for (const Graph& g : c.corpus.graphs) {
    const GraphHints h = synthesise_hints(g);
    std::set<int64_t> sym_values;
    std::vector<int64_t> value_of(g.num_syms(), -1);
    for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
      if (!g.spec_has(PlaceholderId(p))) continue;
      auto dims = g.spec_dims(PlaceholderId(p));
      for (size_t d = 0; d < dims.size(); ++d) {
        if (!dims[d].sym.valid()) continue;
        const int64_t v = h.sizes[p][d];
        EXPECT_GT(v, 1) << g.name();
        int64_t& seen = value_of[dims[d].sym.index()];
        if (seen < 0) {
          seen = v;
          EXPECT_TRUE(sym_values.insert(v).second) << g.name() << ": two spec symbols share the value " << v;
        } else {
          EXPECT_EQ(seen, v) << g.name();
        }
      }
    }
    SpecializationCache cache(g, c.rules);
    const std::vector<std::span<const int64_t>> spans(h.sizes.begin(), h.sizes.end());
    PropStatus st;
    EXPECT_TRUE(cache.add(spans, 0, st).has_value()) << g.name() << " with " << hints_text(g, h)[0] << ": " << st.message;
  }
}

}  // namespace
}  // namespace symshape
