// Round trip load(dump(spec)) == spec: every spec embedded in the corpus, and generated specs
// (fixed seeds) with nested containers, hints, static sizes, shared and derived dims.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>

#include "spec/spec_json.h"

using namespace symshape::spec;

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

namespace {

struct Generator {
  std::mt19937_64 rng;
  std::vector<RootDim> pool;
  explicit Generator(uint64_t seed) : rng(seed) {
    for (int i = 0; i < 5; ++i) {
      int64_t min = int64_t(rng() % 4);
      std::optional<int64_t> max;
      if (rng() % 2) max = min + 1 + int64_t(rng() % 100);
      pool.push_back(make_dim(fmt::format("d{}", i), min, max));
    }
  }
  int64_t pick(int64_t n) { return int64_t(rng() % uint64_t(n)); }
  void leaf(SpecBuilder& b, const std::string& key) {
    switch (pick(5)) {
      case 0: b.size(pick(64), key); break;
      case 1: b.none(key); break;
      case 2: b.hint(HintKind(pick(3)), key); break;
      default: {
        DimRef d{pool[size_t(pick(int64_t(pool.size())))], {}};
        if (pick(2)) d = d * PyNumber(1 + pick(3)) + PyNumber(pick(5) - 1);
        b.dim(d, key);
      }
    }
  }
  void tree(SpecBuilder& b, const std::string& key, int depth) {
    const int64_t kind = depth == 0 ? 1 + pick(2) : pick(4);
    if (kind == 0 || depth > 3) return leaf(b, key);
    const bool dict = kind == 1;
    dict ? b.begin_dict(key) : b.begin_list(key);
    const int64_t n = pick(5);
    for (int64_t i = 0; i < n; ++i) tree(b, dict ? fmt::format("in{}", i) : std::string(), depth + 1);
    b.end();
  }
};

}  // namespace

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
