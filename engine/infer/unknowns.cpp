#include "infer/unknowns.h"

#include <cstdint>

namespace symshape::infer {

UnknownLayout layout_unknowns(std::span<const uint32_t> ranks, bool shared_batch) {
  UnknownLayout l;
  int64_t batch = -1;
  for (uint32_t rank : ranks) {
    std::vector<uint32_t>& dims = l.of.emplace_back();
    for (uint32_t d = 0; d < rank; ++d) {
      if (shared_batch && d == 0) {
        if (batch < 0) batch = l.count++;  // made where the first input with a dim 0 is
        dims.push_back(uint32_t(batch));
        continue;
      }
      dims.push_back(l.count++);
    }
  }
  return l;
}

}  // namespace symshape::infer
