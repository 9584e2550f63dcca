#pragma once
// The unknowns of shape inference (semantics.md E.2 step 2, E.6 step 2): one per input
// dimension, ordered by (input, dimension). With `shared_batch` (infer_shape's assumption that
// every input shares dimension 0) dimension 0 of every input is one unknown, by construction:
// n = 1 + Σ (rank_i − 1) unknowns, input k's dims taking [0] + its own (behaviour 149).
#include <cstdint>
#include <span>
#include <vector>

namespace symshape::infer {

struct UnknownLayout {
  std::vector<std::vector<uint32_t>> of;  // [input][dim] -> unknown index
  uint32_t count = 0;
  // PyTorch's attempt budget for this many unknowns (E.2 step 4): 2n traces.
  uint32_t default_budget() const { return 2 * count; }
};

UnknownLayout layout_unknowns(std::span<const uint32_t> ranks, bool shared_batch);

}  // namespace symshape::infer
