#pragma once
// Random dynamic_shapes specs for round-trip tests (JSON, spec.fb): nested dicts/lists,
// None, ints, hints, shared and derived dims, from a fixed seed.
#include <fmt/format.h>

#include <random>
#include <string>
#include <vector>

#include "spec/dynamic_shapes.h"

namespace symshape::spec::gen {

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


// The spec of seed `seed` (the generator the round-trip tests share).
inline DynamicShapes generated_spec(uint64_t seed) {
  Generator g(seed);
  SpecBuilder b;
  g.tree(b, {}, 0);
  return b.build();
}

}  // namespace symshape::spec::gen
