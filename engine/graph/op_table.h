#pragma once
// The interned names shared by every graph of a corpus: call_function targets
// ("aten.add.Tensor", "operator.getitem") as OpIds and kwarg names ("dtype", "alpha") as
// KeyIds. Both are dense, so a propagation rule table is a std::vector indexed by OpId,
// and an op rule resolves the KeyIds it reads once at startup with find_key().
// Thread-safe: loaders of different graphs may intern concurrently.
#include <atomic>
#include <cstdint>
#include <string_view>

#include "graph/concurrent_interner.h"
#include "graph/ids.h"

namespace symshape {

class OpTable {
 public:
  OpTable() = default;
  OpTable(const OpTable&) = delete;
  OpTable& operator=(const OpTable&) = delete;

  // Unique per table in this process (never reused, unlike an address): rules that cache a
  // KeyId per table compare this, so a table freed and reallocated at the same address is
  // never mistaken for the one it replaces.
  uint64_t serial() const { return serial_; }

  OpId intern_op(std::string_view target) { return OpId(ops_.intern(target)); }
  OpId find_op(std::string_view target) const { return OpId(ops_.find(target)); }
  std::string_view op_name(OpId id) const { return ops_.name(id.index()); }
  uint32_t num_ops() const { return ops_.size(); }

  KeyId intern_key(std::string_view key) { return KeyId(keys_.intern(key)); }
  KeyId find_key(std::string_view key) const { return KeyId(keys_.find(key)); }
  std::string_view key_name(KeyId id) const { return keys_.name(id.index()); }
  uint32_t num_keys() const { return keys_.size(); }

 private:
  static uint64_t next_serial() {
    static std::atomic<uint64_t> counter{0};
    return counter.fetch_add(1, std::memory_order_relaxed) + 1;
  }

  uint64_t serial_ = next_serial();
  ConcurrentInterner ops_;
  ConcurrentInterner keys_;
};

}  // namespace symshape
