// EvaluateCache is evaluate_expr's lru_cache(256): checked against a reference LRU (a list,
// most recently used first) over random streams of keys, with evictions and hits.
#include <gtest/gtest.h>

#include <cstdint>
#include <list>
#include <random>
#include <utility>

#include "shape_env/evaluate_cache.h"

namespace symshape::test {
namespace {

void run_stream(uint32_t exprs, uint32_t flag_values, uint32_t seed) {
  EvaluateCache cache;
  std::list<std::pair<uint64_t, uint32_t>> reference;  // (key, value), most recent first
  std::mt19937 rng(seed);
  int hits = 0;
  for (int step = 0; step < 50000; ++step) {
    const uint32_t e = rng() % exprs;
    const uint8_t flags = static_cast<uint8_t>(rng() % flag_values);
    const uint64_t key = (uint64_t{e} << 4) | flags;
    auto it = reference.begin();
    while (it != reference.end() && it->first != key) ++it;
    const auto found = cache.find(ExprId(e), flags);
    ASSERT_EQ(found.has_value(), it != reference.end()) << "step " << step;
    if (found) {
      ++hits;
      ASSERT_EQ(found->index(), it->second);
      reference.splice(reference.begin(), reference, it);
    } else {
      const uint32_t value = e * 16 + flags;
      cache.insert(ExprId(e), flags, ExprId(value));
      reference.emplace_front(key, value);
      if (reference.size() > EvaluateCache::kCapacity) reference.pop_back();
    }
  }
  EXPECT_GT(hits, 0);
}

TEST(EvaluateCache, BehavesAsAnLruOf256) {
  run_stream(300, 2, 1);   // mostly hits, evictions at the edge
  run_stream(700, 16, 2);  // mostly misses: every insert evicts
  run_stream(200, 1, 3);   // fits: nothing is ever evicted
}

TEST(EvaluateCache, FlagsAreOneKeyEach) {
  EvaluateCache cache;
  cache.insert(ExprId(7), EvaluateCache::flags(false, std::nullopt, false), ExprId(1));
  EXPECT_FALSE(cache.find(ExprId(7), EvaluateCache::flags(false, false, false)).has_value());
  EXPECT_FALSE(cache.find(ExprId(7), EvaluateCache::flags(true, std::nullopt, false)).has_value());
  EXPECT_EQ(cache.find(ExprId(7), EvaluateCache::flags(false, std::nullopt, false)), ExprId(1));
  cache.clear();
  EXPECT_FALSE(cache.find(ExprId(7), EvaluateCache::flags(false, std::nullopt, false)).has_value());
}

}  // namespace
}  // namespace symshape::test
