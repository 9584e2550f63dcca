#pragma once
// Eager torch.cat (semantics.md H.10) as a building block: cat, stack, hstack/vstack
// and roll all allocate their result the way cat's meta function does.
#include <span>

#include "prop/context.h"

namespace symshape {

// cat(ts, dim): legacy skipping of 1-D empty tensors, rank/size checks with eager's
// messages, promoted dtype, and the output memory format every input suggests
// (channels_last only when all inputs look channels_last, else contiguous).
TensorId cat_tensors(PropContext& ctx, std::span<const TensorId> ts, int64_t dim);

}  // namespace symshape
