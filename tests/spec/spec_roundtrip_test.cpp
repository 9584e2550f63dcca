// Round trip load(dump(spec)) == spec: every spec embedded in the corpus, and generated specs
// (fixed seeds) with nested containers, hints, static sizes, shared and derived dims.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>

#include "spec/spec_json.h"
#include "spec_generator.h"

using namespace symshape::spec;
using symshape::spec::gen::Generator;

TEST(SpecRoundTrip, B188_EveryCorpusSpec) {
  const std::filesystem::path dir = std::filesystem::path(SYMSHAPE_SHARED_DIR) / "corpus" / "visible";
  size_t checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.path().string().ends_with(".graph.json")) continue;
    simdjson::dom::parser parser;
    simdjson::dom::element spec = parser.load(entry.path().string())["dynamic_shapes"];
    const std::string original = simdjson::minify(spec);
    DynamicShapes loaded = load_spec_json(original);
    const std::string dumped = dump_spec_json(loaded);
    EXPECT_EQ(load_spec_json(dumped), loaded) << entry.path();
    EXPECT_EQ(dump_spec_json(load_spec_json(dumped)), dumped) << entry.path();
    // Same content as the file (key order kept), only the whitespace differs.
    EXPECT_EQ(nlohmann::ordered_json::parse(dumped), nlohmann::ordered_json::parse(original)) << entry.path();
    ++checked;
  }
  EXPECT_EQ(checked, 25u);
}


TEST(SpecRoundTrip, B188_GeneratedSpecs) {
  for (uint64_t seed = 1; seed <= 500; ++seed) {
    Generator g(seed);
    SpecBuilder b;
    g.tree(b, {}, 0);
    DynamicShapes spec = b.build();
    const std::string text = dump_spec_json(spec);
    DynamicShapes back = load_spec_json(text);
    ASSERT_EQ(back, spec) << "seed " << seed << ": " << text;
    ASSERT_EQ(dump_spec_json(back), text) << "seed " << seed;
  }
}
