#pragma once
// The questions PyTorch 2.x asks of symbolic sizes and strides to lay out a pointwise op's
// output under FakeTensorMode, asked here for their guards only: the layout symshape
// gives stays eager 1.13's (elementwise_strides, decided by the hints with guards
// suppressed). For every concrete input the two algorithms pick the same dim order (the
// same insertion sort over the same nonzero-stride comparisons), so examples that answer
// 2.x's questions alike get the same eager layout, and 2.x's guards are enough to serve it.
#include <span>

#include "prop/context.h"

namespace symshape {

// `tensors`: the op's tensor operands (no Python scalars), `shape` their broadcast shape.
// `fast_binary`: aten.add/sub/mul/div.Tensor, which try fake_impls' make_fast_binary_impl
// first (torch/_subclasses/fake_impls.py); the rest, and those when the fast path declines,
// run torch._refs: operands expanded to `shape`, then torch/_prims_common
// compute_elementwise_output_logical_to_physical_perm (its contiguity checks, then the
// insertion sort's should_swap / ge questions).
void fake_elementwise_layout_questions(PropContext& ctx, std::span<const TensorId> tensors,
                                       std::span<const ExprId> shape, bool fast_binary);

// FakeTensorMode's strides for a torch._refs pointwise result (torch/_prims_common
// compute_elementwise_output_strides), read off the hints: one operand keeps its strides
// when non-overlapping and dense, otherwise the permutation above laid out contiguously
// with Max(1, size) factors. Differs from TensorIterator's (elementwise_strides) only at
// size-1 dims and in those factors.
void refs_elementwise_strides(PropContext& ctx, std::span<const TensorId> tensors, std::span<const ExprId> shape,
                              Dims& out);
// empty_permuted in compute_elementwise_output_logical_to_physical_perm's order of `t` alone,
// read off the hints: torch._refs.empty_like's layout, and a refs pointwise result of operands
// all laid out like `t` (no one-operand "dense keeps its strides" rule: a dense tensor's size-1
// dims take the permutation's strides)
void refs_permuted_strides(PropContext& ctx, TensorId t, Dims& out);

// torch._refs._broadcast_shapes (also torch.broadcast_shapes under symbolic sizes): the
// common shape starts as 1s, and a size equal to it (a size guarded == 1 against the
// initial 1) keeps the literal 1. Sizes that cannot broadcast raise refs' message, or
// return false when `raise` is off (the caller reports eager's).
bool refs_broadcast_shapes(PropContext& ctx, std::span<const Dims> shapes, Dims& shape, bool raise);

// torch._refs' _maybe_broadcast: _broadcast_shapes' common shape (a dim that is 1 keeps
// the common shape's literal 1, so a size guarded equal to 1 drops out of the result)
// and should_expand's questions of every operand against it.
bool refs_broadcast_shape(PropContext& ctx, std::span<const TensorId> tensors, Dims& shape, bool raise);

// A torch._refs pointwise op run under FakeTensorMode on `tensors` (Python scalars aside):
// _maybe_broadcast (_broadcast_shapes' and should_expand's questions), the prims layout sort,
// and its result as prims' empty_permuted lays it out (the decompositions' intermediates).
TensorId refs_pointwise(PropContext& ctx, std::span<const TensorId> tensors, DType dtype);
TensorId refs_pointwise(PropContext& ctx, TensorId t, DType dtype);

}  // namespace symshape
