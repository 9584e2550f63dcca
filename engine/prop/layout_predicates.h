#pragma once
// c10's layout predicates (is_contiguous, is_contiguous(channels_last[_3d]), the rest of
// is_non_overlapping_and_dense) over a tensor's sizes and strides, with every size question
// answered by `decide(cond)`. PropContext's cached predicates answer with guard_or_false
// (an undecidable question counts as "no", like PyTorch's size-oblivious checks); the eager
// TensorIterator layout answers questions over data-dependent sizes both ways
// (shape_helpers.cpp, ForkedDecisions).
#include <span>
#include <utility>

#include "prop/context.h"

namespace symshape::layout {

// Both walks ask "is this dim 1?" only when its stride is not statically the expected
// one: a size-1 dim leaves the running product unchanged either way, so the answer
// cannot differ, and not asking keeps intermediate spatial sizes free of size-1 guards.
// That test is the engine's own (c10's walk asks `size == 1` first), so it is decided
// apart from PyTorch's caches (decided_true): a stride test `Eq(Max(1, A), A)` cached in
// `_maybe_evaluate_static`'s simplify would keep the recorded guard of that form from
// being re-simplified, and dropped, by produce_guards.
template <class Decide>
bool stride_walk(PropContext& ctx, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                 std::span<const size_t> order, Decide&& decide) {
  ExprArena& ar = ctx.ar;
  ExprId expected = ar.one();
  for (size_t d : order) {
    const ExprId same = ar.eq(strides[d], expected);
    if (!ctx.decided_true(same)) {
      if (decide(ar.eq(sizes[d], ar.one()))) continue;
      if (!decide(same)) return false;
    }
    expected = ar.mul(expected, sizes[d]);
  }
  return true;
}

// Row-major dims, innermost first: the order of the contiguity walks.
inline FixedVector<size_t, kMaxRank> innermost_first(size_t rank) {
  FixedVector<size_t, kMaxRank> order;
  for (size_t i = rank; i-- > 0;) order.push_back(i);
  return order;
}

// The "any dim of size 0" rule only matters when the walk failed.
template <class Decide>
bool has_zero_dim(PropContext& ctx, std::span<const ExprId> sizes, Decide&& decide) {
  for (ExprId s : sizes)
    if (decide(ctx.ar.eq(s, ctx.ar.zero()))) return true;
  return false;
}

template <class Decide>
bool contiguous(PropContext& ctx, std::span<const ExprId> sizes, std::span<const ExprId> strides, Decide&& decide) {
  return stride_walk(ctx, sizes, strides, innermost_first(sizes.size()).span(), decide) ||
         has_zero_dim(ctx, sizes, decide);
}

// c10's _compute_contiguous_sym (PyTorch 2.x, what C++ is_contiguous() asks of a symbolic
// tensor): `numel == 0` first, then the stride walk. When the walk fails, the SymBool it
// builds instead is decided by the answers the walk recorded, so no per-dim `size == 0`
// question follows (1.13's `is_empty` test came last, layout::contiguous above).
template <class Decide>
bool contiguous_sym(PropContext& ctx, std::span<const ExprId> sizes, std::span<const ExprId> strides, Decide&& decide) {
  if (decide(ctx.ar.eq(ctx.ar.mul(sizes), ctx.ar.zero()))) return true;
  return stride_walk(ctx, sizes, strides, innermost_first(sizes.size()).span(), decide);
}

// c10 compute_channels_last_contiguous_2d/_3d: dims in order C, W, H, (D,) N. Unlike
// the contiguous test there is no empty-tensor shortcut.
template <class Decide>
bool channels_last_contiguous(PropContext& ctx, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                              Decide&& decide) {
  const size_t n = sizes.size();
  if (n != 4 && n != 5) return false;
  FixedVector<size_t, 5> order;
  order.push_back(1);
  for (size_t i = n - 1; i >= 2; --i) order.push_back(i);
  order.push_back(0);
  return stride_walk(ctx, sizes, strides, order.span(), decide);
}

// c10 compute_non_overlapping_and_dense (asked after the contiguity predicates): a stable
// sort by stride with size < 2 dims last, then the strides must be the running products.
template <class Decide>
bool dense_by_sorted_strides(PropContext& ctx, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                             Decide&& decide) {
  ExprArena& ar = ctx.ar;
  const size_t n = sizes.size();
  const ExprId two = ar.integer(2);
  if (n == 1) return decide(ar.lt(sizes[0], two)) || decide(ar.eq(strides[0], ar.one()));
  FixedVector<size_t, kMaxRank> perm;
  for (size_t i = 0; i < n; ++i) perm.push_back(i);
  auto before = [&](size_t a, size_t b) {
    if (decide(ar.lt(sizes[a], two))) return false;
    if (decide(ar.lt(sizes[b], two))) return true;
    return decide(ar.lt(strides[a], strides[b]));
  };
  for (size_t i = 1; i < n; ++i)
    for (size_t j = i; j > 0 && before(perm[j], perm[j - 1]); --j) std::swap(perm[j], perm[j - 1]);
  ExprId required = ar.one();
  for (size_t d : perm) {
    if (decide(ar.lt(sizes[d], two))) return true;
    if (!decide(ar.eq(strides[d], required))) return false;
    required = ar.mul(required, sizes[d]);
  }
  return true;
}

// c10 refresh_contiguous: non-overlapping-and-dense is "contiguous, or channels_last
// contiguous, or compute_non_overlapping_and_dense()".
template <class Decide>
bool non_overlapping_and_dense(PropContext& ctx, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                               Decide&& decide) {
  if (contiguous(ctx, sizes, strides, decide)) return true;
  const size_t n = sizes.size();
  if ((n == 4 || n == 5) && channels_last_contiguous(ctx, sizes, strides, decide)) return true;
  return dense_by_sorted_strides(ctx, sizes, strides, decide);
}

}  // namespace symshape::layout
