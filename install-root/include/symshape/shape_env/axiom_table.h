#pragma once
// Known truth values of canonical boolean expressions (the ShapeEnv's axioms), by ExprId:
// one byte per node id (ids are dense) plus the insertion order for iteration, so
// recording a fact allocates nothing once the arrays have grown.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "expr/expr.h"

namespace symshape {

class AxiomTable {
 public:
  bool empty() const { return keys_.empty(); }
  void clear() {
    for (uint32_t k : keys_) value_[k] = kUnknown;
    keys_.clear();
  }
  std::optional<bool> find(ExprId e) const {
    if (e.index() >= value_.size() || value_[e.index()] == kUnknown) return std::nullopt;
    return value_[e.index()] != 0;
  }
  // Sets (or overwrites) the value of `e`.
  void set(ExprId e, bool v) {
    slot(e) = v ? 1 : 0;
  }
  // Sets the value of `e` only if it has none yet.
  void insert(ExprId e, bool v) {
    int8_t& s = slot(e);
    if (s == kUnknown) s = v ? 1 : 0;
  }
  // Node ids with a value, in insertion order.
  std::span<const uint32_t> keys() const { return keys_; }

 private:
  static constexpr int8_t kUnknown = -1;
  int8_t& slot(ExprId e) {
    if (value_.size() <= e.index()) value_.resize(e.index() + e.index() / 2 + 64, kUnknown);
    int8_t& s = value_[e.index()];
    if (s == kUnknown) keys_.push_back(e.index());
    return s;
  }
  std::vector<int8_t> value_;
  std::vector<uint32_t> keys_;
};

}  // namespace symshape
