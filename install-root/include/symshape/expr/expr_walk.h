#pragma once
// DAG walks shared by bound, evaluation, rebuilding and batch compilation: the set of
// nodes reachable from some roots, in ascending id order. Ids are topological (operands
// are built first), so a forward sweep over this list visits every node after its
// operands, and each shared sub-expression exactly once.
#include <span>
#include <vector>

#include "expr/expr.h"

namespace symshape {

// A reusable walker. Visited marks and the node -> position map are arrays indexed by
// node id and stamped with a per-walk epoch, so a walk costs no hashing and no clearing.
// One instance per nesting level: a walk must not be restarted while its result is in use.
class DagWalk {
 public:
  // Collects the nodes reachable from `roots`, ascending.
  void collect(const ExprArena& arena, std::span<const ExprId> roots);
  std::span<const ExprId> nodes() const { return nodes_; }
  // Position in nodes() of a collected node.
  uint32_t position(ExprId e) const { return pos_[e.index()]; }

 private:
  std::vector<uint32_t> stamp_, pos_;
  uint32_t epoch_ = 0;
  std::vector<ExprId> nodes_, stack_;
};

// Appends the nodes reachable from `roots` to `out` (cleared first), sorted ascending.
void reachable_nodes(const ExprArena& arena, std::span<const ExprId> roots, std::vector<ExprId>& out);

// Position of `id` in a list produced by reachable_nodes (which must contain it).
inline uint32_t slot_of(std::span<const ExprId> sorted, ExprId id) {
  size_t lo = 0, hi = sorted.size();
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (sorted[mid].value < id.value) lo = mid + 1;
    else hi = mid;
  }
  return static_cast<uint32_t>(lo);
}

}  // namespace symshape
