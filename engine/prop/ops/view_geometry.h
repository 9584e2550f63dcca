#pragma once
// Geometry of views without copies (semantics.md H.6): size inference with one -1,
// eager's computeStride (which strides, if any, let a tensor be viewed with a new
// shape), and the view / reshape / alias constructors built on them. Shared by the view,
// concatenation and index rule files.
#include <span>

#include "prop/context.h"

namespace symshape {

// torch._prims_common.infer_size: at most one -1, other entries >= 0, the product must
// equal (or, with a -1, divide) `numel`; the -1 becomes numel // product (exact, so it
// simplifies: (s0, 6) as (-1, 3) gives 2*s0 with no guard).
void infer_size(PropContext& ctx, std::span<const ExprId> shape, ExprId numel, Dims& out);

// at::detail::computeStride: strides for viewing (sizes, strides) as `new_sizes` without
// a copy, false when the old dims cannot be regrouped. `or_copy` is reshape's mode:
// comparisons that cannot be decided (unbacked sizes) give up instead of raising the
// data-dependent error that view raises.
// ATen's infer_size_impl (infer_size_dv), as C++ reshape_symint asks it: the same result,
// other questions (view_geometry.cpp).
void cpp_infer_size(PropContext& ctx, std::span<const ExprId> shape, ExprId numel, Dims& out);

bool view_strides(PropContext& ctx, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                  std::span<const ExprId> new_sizes, bool or_copy, Dims& out);

// PyTorch 2.x's torch._refs._reshape_view_helper(a, shape) questions (FakeTensorMode's
// aten.view / _unsafe_view): records the guards its greedy algorithm asks, in order, for a
// tensor (sizes, strides) viewed as the already inferred `shape`. With `fake_strides`, also
// the strides its result has (empty when it raises or takes the unbacked path): they differ
// from computeStride's only on size-1 dims (ReferenceHost::fake_strides). With `fake_sizes`,
// the sizes of its result (the helper's `a_`, empty when it raises or takes the unbacked
// path): equal in value to `shape`, but a split dim is `a // length` and a dim found equal
// to its length keeps the input's expression, and FakeTensorMode's view carries those.
// True when the helper ran to a view of the input; false when it copies (where a view
// raises) or stopped early (a failed check, unbacked sizes).
bool reshape_view_helper_guards(PropContext& ctx, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                                std::span<const ExprId> shape, Dims* fake_strides = nullptr,
                                Dims* fake_sizes = nullptr);

// t.view(shape) (shape may hold one -1): a view sharing t's storage, or PyTorch's
// "view size is not compatible" error.
TensorId view_tensor(PropContext& ctx, TensorId t, std::span<const ExprId> shape);
// t.reshape(shape): the view when one exists, else a contiguous copy.
TensorId reshape_tensor(PropContext& ctx, TensorId t, std::span<const ExprId> shape);
// t.expand(target) (at::inferExpandGeometry): right-aligned, -1 keeps a size, a size-1
// or new leading dim expanded to another size gets stride 0.
TensorId expand_tensor(PropContext& ctx, TensorId t, std::span<const ExprId> target);
// A view of t with the same geometry (alias / identity returns).
TensorId alias_tensor(PropContext& ctx, TensorId t);
// t.unsqueeze(d) for a wrapped d in [0, rank]: stride size[d]*stride[d] (1 at the end).
TensorId unsqueeze_tensor(PropContext& ctx, TensorId t, size_t d);
// torch._refs.unsqueeze inside a decomposition: prims.broadcast_in_dim's meta asks
// guard_or_false(size == 1) of every kept dim, in order, then the same view.
TensorId refs_unsqueeze_tensor(PropContext& ctx, TensorId t, size_t d);
// aten.copy_(self, src) under FakeTensorMode (_meta_registrations.meta_copy_, which also
// ends every torch._refs in-place op, _make_inplace): torch._refs.expand(src, self.size())
// asks, per dim, guard_or_false(length == -1), then checks the broadcast and
// `length >= 0`; validate_shape checks every length; prims.broadcast_in_dim asks
// guard_or_false(size == 1) of each of src's dims. Questions only: the result is self.
void meta_copy_questions(PropContext& ctx, std::span<const ExprId> self_sizes, std::span<const ExprId> src_sizes);

// torch._check(cond) without formatting a message unless it fails: a guard for backed
// sizes, a runtime assert for unbacked ones, false when it is known to fail (inference mode:
// recorded, true).
inline bool holds(PropContext& ctx, ExprId cond) { return ctx.require(cond); }

}  // namespace symshape
