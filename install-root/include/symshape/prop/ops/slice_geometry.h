#pragma once
// Views that keep a sub-range of one or two dims (semantics.md H.12): slice with
// Python's wrapping and clamping, narrow, select and diagonal. Each shifts the storage offset by
// start * stride; shared by the slicing, splitting and unbinding rules.
#include "prop/context.h"

namespace symshape {

// aten.slice.Tensor on a wrapped dim: negative start/end add the size, both clamp to
// [0, size], end >= start, INT64_MAX end means the size; step must be positive.
TensorId slice_tensor(PropContext& ctx, TensorId t, size_t dim, ExprId start, ExprId end, ExprId step);

// The view t[..., start:start+length, ...] on a wrapped dim, for ranges already checked.
TensorId narrow_view(PropContext& ctx, TensorId t, size_t dim, ExprId start, ExprId length);

// aten.select.int on a wrapped dim: bounds-checked (IndexError), a negative index wraps;
// the dim is removed.
TensorId select_tensor(PropContext& ctx, TensorId t, size_t dim, ExprId index);

// aten.diagonal: dim1 and dim2 removed, the diagonal (of length
// max(min(size1, size2 - offset), 0) for offset >= 0) appended last with stride
// stride1 + stride2; the offset moves to the diagonal's first element.
TensorId diagonal_tensor(PropContext& ctx, TensorId t, int64_t offset, int64_t dim1, int64_t dim2);

}  // namespace symshape
