// spec.fb (formats/spec.fbs): load(dump(spec)) == spec for every corpus spec and 500
// generated ones; the verifier and the tree checks reject damaged buffers with an error.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <random>

#include "formats/spec_fb.h"
#include "spec/spec_error.h"
#include "spec/spec_json.h"
#include "spec_generator.h"

using namespace symshape;
using namespace symshape::spec;

namespace {
DynamicShapes fb_round_trip(const DynamicShapes& s) {
  const std::vector<uint8_t> bytes = dump_spec_fb(s);
  return load_spec_fb(bytes.data(), bytes.size());
}
}  // namespace

TEST(SpecFb, B188_EveryCorpusSpec) {
  const std::filesystem::path dir = std::filesystem::path(SYMSHAPE_SHARED_DIR) / "corpus" / "visible";
  size_t checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.path().string().ends_with(".graph.json")) continue;
    simdjson::dom::parser parser;
    const DynamicShapes spec = load_spec_json(simdjson::minify(parser.load(entry.path().string())["dynamic_shapes"]));
    const DynamicShapes back = fb_round_trip(spec);
    EXPECT_EQ(back, spec) << entry.path();
    EXPECT_EQ(dump_spec_json(back), dump_spec_json(spec)) << entry.path();  // same JSON text too
    ++checked;
  }
  EXPECT_EQ(checked, 25u);
}

TEST(SpecFb, B188_GeneratedSpecs) {
  for (uint64_t seed = 1; seed <= 500; ++seed) {
    const DynamicShapes spec = gen::generated_spec(seed);
    ASSERT_EQ(fb_round_trip(spec), spec) << "seed " << seed << ": " << dump_spec_json(spec);
  }
}

TEST(SpecFb, NoneSpec) {
  const DynamicShapes none = load_spec_json(R"({"dynamic_shapes": null, "dims": {}})");
  EXPECT_FALSE(fb_round_trip(none).present);
}

TEST(SpecFb, DamagedBuffersAreErrorsNotCrashes) {
  const std::vector<uint8_t> good = dump_spec_fb(gen::generated_spec(7));
  std::mt19937_64 rng(42);
  size_t rejected = 0;
  for (int round = 0; round < 2000; ++round) {
    std::vector<uint8_t> bad = good;
    const int flips = 1 + int(rng() % 4);
    for (int f = 0; f < flips; ++f) bad[rng() % bad.size()] ^= uint8_t(1 + rng() % 255);
    if (rng() % 8 == 0) bad.resize(rng() % bad.size());
    try {
      load_spec_fb(bad.data(), bad.size());
    } catch (const SpecError&) {
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 0u);
  EXPECT_THROW(load_spec_fb(good.data(), 4), SpecError);
  const std::string json = "{}";
  EXPECT_FALSE(is_spec_fb(json));
  EXPECT_TRUE(is_spec_fb(std::string_view(reinterpret_cast<const char*>(good.data()), good.size())));
}

// Found by fuzz_spec_loader: a JSON dict may have the key "" (nested under a placeholder, so
// the loader takes it); spec.fb must keep it a key, not read it back as "no key".
TEST(SpecFb, EmptyDictKeyRoundTrips) {
  const DynamicShapes spec = load_spec_json(
      R"({"dynamic_shapes": {"x": {"": ["batch", 3]}}, "dims": {"batch": {"min": 1, "max": null, "derived": []}}})");
  const DynamicShapes back = fb_round_trip(spec);
  EXPECT_EQ(back, spec);
  EXPECT_EQ(dump_spec_json(back), dump_spec_json(spec));
}
