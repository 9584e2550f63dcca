#pragma once
// A thread-safe string -> dense uint32 interner (op names, kwarg names) shared by all
// graphs of a corpus, so loaders running in parallel TBB tasks agree on ids.
// Ids are dense (0, 1, 2, ...) so consumers can index rule tables by them directly;
// that rules out Zig-style per-shard id ranges. The workload is read-mostly (a few
// hundred distinct names, looked up once per graph via the loader's local cache),
// so one reader/writer lock is enough.
#include <cstdint>
#include <memory>
#include <shared_mutex>
#include <string_view>
#include <vector>

#include "graph/string_pool.h"

namespace symshape {

class ConcurrentInterner {
 public:
  static constexpr uint32_t kNone = 0xffffffffu;

  uint32_t intern(std::string_view s);
  uint32_t find(std::string_view s) const;   // kNone if absent
  // The view stays valid for the interner's lifetime: bytes live in blocks that never move.
  std::string_view name(uint32_t id) const;
  uint32_t size() const;

 private:
  std::string_view store(std::string_view s);  // caller holds the unique lock

  mutable std::shared_mutex mu_;
  StringPool index_;                     // id -> hash slot; its own bytes may move, views_ don't
  std::vector<std::string_view> views_;  // id -> stable bytes
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_used_ = 0;
  size_t block_cap_ = 0;
};

}  // namespace symshape
