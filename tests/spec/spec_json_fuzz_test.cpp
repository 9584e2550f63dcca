// Fuzz-style: mutated and random DynamicShapesSpec JSON fed to the loader. Every input either
// loads (and then dumps and reloads to the same spec) or is a SpecError; nothing else escapes,
// nothing crashes (run under the ASan build too).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "spec/spec_error.h"
#include "spec/spec_json.h"
#include "spec_generator.h"
#include "test_util.h"

using namespace symshape::spec;

namespace {

// Loads `text`; returns whether it loaded. A loaded spec must round-trip.
bool try_load(const std::string& text) {
  try {
    const DynamicShapes s = load_spec_json(text);
    EXPECT_EQ(load_spec_json(dump_spec_json(s)), s) << text;
    return true;
  } catch (const SpecError&) {
    return false;
  }
}

const char* const kTokens[] = {"{", "}", "[", "]", ",", ":", "\"", "null", "true", "-1", "0", "1e999", "3.5",
                               "\"dx\"", "\"min\"", "\"max\"", "\"derived\"", "\"dims\"", "\"dynamic_shapes\"",
                               "\"dx + 1\"", "\"2*dx\"", "\"dx**2\"", "\"_DimHint.AUTO\"", "9223372036854775807",
                               "-9223372036854775808", "\"\\u0000\"", "\xff"};

}  // namespace

TEST(SpecJsonFuzz, MutatedDumpsLoadOrFailCleanly) {
  std::mt19937_64 rng(1234);
  size_t loaded = 0, rejected = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const std::string good = dump_spec_json(gen::generated_spec(seed));
    for (int round = 0; round < 20; ++round) {
      std::string bad = good;
      switch (rng() % 4) {
        case 0: bad[rng() % bad.size()] = char(rng() % 256); break;                 // byte flip
        case 1: bad.resize(rng() % bad.size()); break;                               // truncation
        case 2: bad.insert(rng() % bad.size(), kTokens[rng() % std::size(kTokens)]); break;  // token
        default: bad.erase(rng() % bad.size(), 1 + rng() % 8); break;                // deletion
      }
      (try_load(bad) ? loaded : rejected)++;
    }
  }
  EXPECT_GT(rejected, 1000u);
  EXPECT_GT(loaded, 0u);
}

TEST(SpecJsonFuzz, RandomTokenStreams) {
  std::mt19937_64 rng(99);
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const int n = int(rng() % 40);
    for (int i = 0; i < n; ++i) text += kTokens[rng() % std::size(kTokens)];
    try_load(text);
  }
  // Deep nesting is an error, not a stack overflow.
  EXPECT_FALSE(try_load(R"({"dynamic_shapes": )" + std::string(100000, '[') + std::string(100000, ']') + R"(, "dims": {}})"));
}

TEST(SpecJsonFuzz, BadInputMessagesNameTheField) {
  // min >= max: Dim's own assertion; a derived dim used as a root name: not a symbol.
  expect_spec_error([] { load_spec_json(R"({"dynamic_shapes": {"x": ["dx"]}, "dims": {"dx": {"min": 9, "max": 4, "derived": []}}})"); },
                    PyException::AssertionError, "Cannot create Dim with inconsistent min=9, max=4");
  expect_spec_error([] { load_spec_json(R"({"dynamic_shapes": {"x": ["dx + 1"]}, "dims": {"dx + 1": {"min": 0, "max": null, "derived": []}}})"); },
                    PyException::UserErrorInvalidInput, "Expected `spec['dims']` keys to be symbols, got dx + 1");
}
