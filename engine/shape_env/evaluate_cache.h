#pragma once
// PyTorch's `@lru_cache(256)` on ShapeEnv._inner_evaluate_expr: the last 256 distinct
// evaluate_expr calls, keyed by the expression and the call's flags (size_oblivious, the
// guard_or_* fallback, whether guards are suppressed), answer again without asking the
// static evaluation or recording a guard. Unlike _maybe_evaluate_static's cache it is never
// cleared, so a question decided (or guarded) once stays answered until 255 other
// questions have been asked since, which decides whether a repeated question is re-asked
// after the ShapeEnv's version counter moved.
//
// An exact LRU in fixed arrays: a doubly linked recency list over 256 slots and an
// open-addressing table (linear probing, backward-shift deletion) from key to slot, so a
// lookup or insert allocates nothing once the tables exist.
#include <array>
#include <cstdint>
#include <optional>

#include "expr/expr.h"

namespace symshape {

class EvaluateCache {
 public:
  static constexpr uint32_t kCapacity = 256;

  // The call's flags as lru_cache sees them, packed in 4 bits.
  static uint8_t flags(bool size_oblivious, std::optional<bool> fallback, bool suppressed) {
    return static_cast<uint8_t>((size_oblivious ? 1 : 0) | (fallback ? (*fallback ? 4 : 2) : 0) | (suppressed ? 8 : 0));
  }

  void clear();
  // The remembered answer, made the most recently used; nullopt on a miss.
  std::optional<ExprId> find(ExprId e, uint8_t flags);
  // Remembers a new answer (the key must have missed), evicting the least recently used.
  void insert(ExprId e, uint8_t flags, ExprId value);

 private:
  static constexpr uint16_t kNone = 0xFFFF;
  static constexpr uint32_t kBuckets = 1024;  // a power of two, at most 1/4 full
  struct Slot {
    uint32_t expr = 0;
    uint8_t flags = 0;
    ExprId value;
    uint16_t prev = kNone, next = kNone;
  };
  static uint64_t key(uint32_t expr, uint8_t flags) { return (uint64_t{expr} << 4) | flags; }
  static uint32_t bucket_of(uint64_t k) { return static_cast<uint32_t>((k * 0x9E3779B97F4A7C15ull) >> 54); }
  uint32_t find_bucket(uint64_t k) const;  // the key's bucket, or kBuckets
  void erase_bucket(uint32_t b);
  void unlink(uint16_t s);
  void push_front(uint16_t s);

  std::array<Slot, kCapacity> slots_{};
  std::array<uint16_t, kBuckets> table_ = make_empty_table();  // slot index or kNone
  uint16_t head_ = kNone, tail_ = kNone;  // most and least recently used
  uint16_t used_ = 0;

  static std::array<uint16_t, kBuckets> make_empty_table() {
    std::array<uint16_t, kBuckets> t;
    t.fill(kNone);
    return t;
  }
};

}  // namespace symshape
