// evaluate_expr's LRU of 256 answers (evaluate_cache.h).
#include "shape_env/evaluate_cache.h"

namespace symshape {

void EvaluateCache::clear() {
  table_.fill(kNone);
  head_ = tail_ = kNone;
  used_ = 0;
}

uint32_t EvaluateCache::find_bucket(uint64_t k) const {
  for (uint32_t b = bucket_of(k);; b = (b + 1) & (kBuckets - 1)) {
    const uint16_t s = table_[b];
    if (s == kNone) return kBuckets;
    if (key(slots_[s].expr, slots_[s].flags) == k) return b;
  }
}

// Backward-shift deletion keeps every probe chain unbroken without tombstones.
void EvaluateCache::erase_bucket(uint32_t b) {
  table_[b] = kNone;
  for (uint32_t j = (b + 1) & (kBuckets - 1); table_[j] != kNone; j = (j + 1) & (kBuckets - 1)) {
    const uint16_t s = table_[j];
    const uint32_t home = bucket_of(key(slots_[s].expr, slots_[s].flags));
    // the entry at j may move to the hole at b when its home is not in (b, j] cyclically
    const bool stays = b <= j ? (b < home && home <= j) : (b < home || home <= j);
    if (stays) continue;
    table_[b] = s;
    table_[j] = kNone;
    b = j;
  }
}

void EvaluateCache::unlink(uint16_t s) {
  Slot& x = slots_[s];
  if (x.prev != kNone) slots_[x.prev].next = x.next;
  else head_ = x.next;
  if (x.next != kNone) slots_[x.next].prev = x.prev;
  else tail_ = x.prev;
  x.prev = x.next = kNone;
}

void EvaluateCache::push_front(uint16_t s) {
  Slot& x = slots_[s];
  x.prev = kNone;
  x.next = head_;
  if (head_ != kNone) slots_[head_].prev = s;
  head_ = s;
  if (tail_ == kNone) tail_ = s;
}

std::optional<ExprId> EvaluateCache::find(ExprId e, uint8_t flags) {
  const uint32_t b = find_bucket(key(e.index(), flags));
  if (b == kBuckets) return std::nullopt;
  const uint16_t s = table_[b];
  if (s != head_) {
    unlink(s);
    push_front(s);
  }
  return slots_[s].value;
}

void EvaluateCache::insert(ExprId e, uint8_t flags, ExprId value) {
  uint16_t s;
  if (used_ < kCapacity) {
    s = used_++;
  } else {
    s = tail_;
    erase_bucket(find_bucket(key(slots_[s].expr, slots_[s].flags)));
    unlink(s);
  }
  slots_[s].expr = e.index();
  slots_[s].flags = flags;
  slots_[s].value = value;
  push_front(s);
  uint32_t b = bucket_of(key(e.index(), flags));
  while (table_[b] != kNone) b = (b + 1) & (kBuckets - 1);
  table_[b] = s;
}

}  // namespace symshape
