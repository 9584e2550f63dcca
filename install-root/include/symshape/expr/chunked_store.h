#pragma once
// Append-only storage in fixed blocks that never move: a pointer returned by append()
// stays valid while the store grows (until clear()). The arena keeps operand lists and
// symbol names here, so a span from ExprArena::operands() or a symbol's name view may be
// held while new nodes are built (builders do exactly that).
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

namespace symshape {

template <class T, size_t kBlock>
class ChunkedStore {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  // Copies n items and returns where they live; n == 0 gives nullptr.
  const T* append(const T* src, size_t n) {
    if (n == 0) return nullptr;
    if (used_ + n > cap_) next_block(n);
    T* dst = cur_ + used_;
    std::memcpy(static_cast<void*>(dst), src, n * sizeof(T));  // src may live in an older block
    used_ += n;
    return dst;
  }
  // Drops everything but the first block, which is reused.
  void clear() {
    if (blocks_.size() > 1) blocks_.resize(1);
    cur_ = blocks_.empty() ? nullptr : blocks_[0].get();
    cap_ = blocks_.empty() ? 0 : first_cap_;
    used_ = 0;
  }

 private:
  void next_block(size_t n) {
    const size_t cap = std::max(n, kBlock);  // an oversized list gets a block of its own
    blocks_.push_back(std::make_unique<T[]>(cap));
    if (blocks_.size() == 1) first_cap_ = cap;
    cur_ = blocks_.back().get();
    cap_ = cap;
    used_ = 0;
  }

  std::vector<std::unique_ptr<T[]>> blocks_;
  T* cur_ = nullptr;
  size_t used_ = 0, cap_ = 0, first_cap_ = 0;
};

}  // namespace symshape
