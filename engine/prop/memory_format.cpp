#include "prop/memory_format.h"
#include "prop/fake_elementwise_questions.h"
#include "prop/shape_helpers.h"

#include <algorithm>

namespace symshape {

namespace {

// c10::is_channels_last_strides_2d_s4 / _3d_s5: walk dims in (C, W, H, [D,] N) order,
// each stride at least the previous one times its size; ambiguous cases resolve to
// contiguous (NCHW) as in eager.
//
// How the running minimum grows is where the two symbolic forms differ. PyTorch 2.x's
// Python form (_sympy_is_channels_last_strides_generic) multiplies by Max(size, 1), so a
// downsampled size that happens to be 1 is not guarded on (cxx = false). Its C++ form over
// SymInts (c10/core/SymbolicShapeMeta.cpp's strides_like_channels_last, MemoryFormat.h)
// multiplies only when `size > 1` holds, and that question is a real guard (convnext_tiny's
// `(W // 32) > 1` at its adaptive_avg_pool2d, which try_solve turns into `64 <= W`). For
// concrete sizes both are the same predicate.
bool strides_like(PropContext& ctx, TensorId t, std::span<const size_t> order, bool cxx = false) {
  ExprArena& ar = ctx.ar;
  const auto sizes = ctx.vals.sizes(t);
  const auto strides = ctx.vals.strides(t);
  // a trivial (0-stride) C dim defaults to NCHW
  if (decide(ctx, ar.eq(strides[1], ar.zero()))) return false;
  ExprId min = ar.zero();
  for (size_t d : order) {
    if (decide(ctx, ar.eq(sizes[d], ar.zero()))) return false;
    if (decide(ctx, ar.lt(strides[d], min))) return false;
    // N111 with identical strides, or a sliced N11W: NCHW
    if (d == 0 && decide(ctx, ar.eq(min, strides[1]))) return false;
    if (!cxx) min = ar.mul(strides[d], ar.max(ar.one(), sizes[d]));
    else min = decide(ctx, ar.gt(sizes[d], ar.one())) ? ar.mul(strides[d], sizes[d]) : strides[d];
  }
  return true;
}

}  // namespace

// The layout predicates are PropContext's: cached by the hash-consed (sizes, strides),
// so tensors sharing a layout ask the ShapeEnv once.
bool layout_is_contiguous(PropContext& ctx, TensorId t) { return ctx.is_contiguous(t); }
bool layout_is_channels_last(PropContext& ctx, TensorId t) { return ctx.is_channels_last_contiguous(t); }
bool layout_is_dense(PropContext& ctx, TensorId t) { return ctx.is_non_overlapping_and_dense(t); }

bool is_contiguous_as(PropContext& ctx, TensorId t, MemoryFormat fmt) {
  switch (fmt) {
    case MemoryFormat::ChannelsLast: return ctx.vals.rank(t) == 4 && layout_is_channels_last(ctx, t);
    case MemoryFormat::ChannelsLast3d: return ctx.vals.rank(t) == 5 && layout_is_channels_last(ctx, t);
    default: return layout_is_contiguous(ctx, t);
  }
}

// One cache bit serves both: the rank says which of the two flags a tensor has.
bool strides_like_channels_last(PropContext& ctx, TensorId t) {
  static constexpr size_t kOrder[] = {1, 3, 2, 0};
  return ctx.vals.rank(t) == 4 &&
         ctx.cached_layout(t, PropContext::kStridesLikeChannelsLast, [&] { return strides_like(ctx, t, kOrder); });
}

bool strides_like_channels_last_3d(PropContext& ctx, TensorId t) {
  static constexpr size_t kOrder[] = {1, 4, 3, 2, 0};
  return ctx.vals.rank(t) == 5 &&
         ctx.cached_layout(t, PropContext::kStridesLikeChannelsLast, [&] { return strides_like(ctx, t, kOrder); });
}

MemoryFormat suggest_memory_format(PropContext& ctx, TensorId t) {
  if (strides_like_channels_last(ctx, t)) return MemoryFormat::ChannelsLast;
  if (strides_like_channels_last_3d(ctx, t)) return MemoryFormat::ChannelsLast3d;
  return MemoryFormat::Contiguous;
}

MemoryFormat suggest_memory_format_cxx(PropContext& ctx, TensorId t) {
  static constexpr size_t kOrder2d[] = {1, 3, 2, 0};
  static constexpr size_t kOrder3d[] = {1, 4, 3, 2, 0};
  const size_t r = ctx.vals.rank(t);
  auto like = [&](std::span<const size_t> order) {
    return ctx.cached_layout(t, PropContext::kCxxStridesLikeChannelsLast,
                             [&] { return strides_like(ctx, t, order, /*cxx=*/true); });
  };
  if (r == 4 && like(kOrder2d)) return MemoryFormat::ChannelsLast;
  if (r != 5) return MemoryFormat::Contiguous;
  // A 5-d tensor's is_strides_like_channels_last flag (SymbolicShapeMeta's dim-5 form) is
  // "not channels_last_3d contiguous and ...": the channels_last_3d contiguity walk
  // (_compute_channels_last_contiguous_3d_sym: `stride_C != 1` is a guard_or_true) comes
  // first. 2.13: a 5-d conv output's `.to(memory_format=contiguous)` guards
  // `D*H*W != 1` (r3d_18).
  ctx.is_channels_last_contiguous(t);
  if (like(kOrder3d)) return MemoryFormat::ChannelsLast3d;
  return MemoryFormat::Contiguous;
}

void infer_dense_strides(PropContext& ctx, TensorId t, Dims& out) {
  ExprArena& ar = ctx.ar;
  const auto sizes = ctx.vals.sizes(t);
  const auto strides = ctx.vals.strides(t);
  const size_t n = sizes.size();
  out.clear();
  if (n == 0) return;
  if (n == 1) return out.push_back(ar.one());
  // same comparison as TensorIterator's reorder_dimensions, for one operand
  auto should_swap = [&](size_t d0, size_t d1) -> int {
    const ExprId a = strides[d0], b = strides[d1];
    if (decide(ctx, ar.eq(a, ar.zero())) || decide(ctx, ar.eq(b, ar.zero()))) return 0;
    if (decide(ctx, ar.lt(a, b))) return -1;
    if (decide(ctx, ar.gt(a, b))) return 1;
    if (decide(ctx, ar.gt(sizes[d0], sizes[d1]))) return 1;
    return 0;
  };
  FixedVector<size_t, kMaxRank> perm;
  stride_order_permutation(n, should_swap, perm);
  // sizes 0 and 1 do not advance the stride (PyTorch 2.x's empty_like is refs'
  // empty_permuted, whose C++ strides keep Max(1, (H - 3)//16 + 1))
  dense_strides_in_order(ctx, sizes, perm.span(), out);
}

void format_strides(PropContext& ctx, std::span<const ExprId> sizes, MemoryFormat format, Dims& out) {
  switch (format) {
    case MemoryFormat::ChannelsLast:
      if (sizes.size() != 4) ctx.fail("required rank 4 tensor to use channels_last format");
      return ctx.channels_last_strides(sizes, out);
    case MemoryFormat::ChannelsLast3d:
      if (sizes.size() != 5) ctx.fail("required rank 5 tensor to use channels_last_3d format");
      return ctx.channels_last_strides(sizes, out);
    default: return ctx.contiguous_strides(sizes, out);
  }
}

void empty_like_strides(PropContext& ctx, TensorId t, MemoryFormat format, Dims& out) {
  if (format != MemoryFormat::Preserve) return format_strides(ctx, ctx.vals.sizes(t), format, out);
  if (layout_is_dense(ctx, t)) {
    out.assign(ctx.vals.strides(t));
    return;
  }
  infer_dense_strides(ctx, t, out);
}

void prims_clone_strides(PropContext& ctx, TensorId t, Dims& out) {
  const Dims sizes(ctx.vals.sizes(t));  // a copy: new tensors may move the value table
  out.assign(ctx.vals.strides(t));
  if (sizes.size() == 1) out[0] = ctx.ar.one();
  if (sizes.size() >= 2 && !prims_is_non_overlapping_and_dense_or_false(ctx, {sizes, out}))
    refs_empty_like_strides(ctx, t, out);
}

void refs_empty_like_strides(PropContext& ctx, TensorId t, Dims& out) {
  const TensorId self[] = {t};
  const Dims sizes(ctx.vals.sizes(t));
  fake_elementwise_layout_questions(ctx, self, sizes, /*fast_binary=*/false);
  if (ctx.host.fake_strides) {
    // the permutation's layout (its answers are the guards above): 2.13 gives a static
    // (1, 4, 1, 8) query of strides (32, 8, 32, 1) the strides (32, 8, 8, 1) (aimv2's flash sdpa)
    return refs_permuted_strides(ctx, t, out);
  }
  {
    // eager's kernels allocate with C++ empty_like, which keeps a dense tensor's strides; the
    // same order read off the hints, in refs' dense form
    ShapeEnv::SuppressGuards same_order(ctx.env);
    empty_like_strides(ctx, t, MemoryFormat::Preserve, out);
  }
  prims_dense_form(ctx, sizes, out);
}

MemoryFormat memory_format_arg(PropContext& ctx, ArgId a, MemoryFormat dflt) {
  if (ctx.is_none(a)) return dflt;
  if (ctx.graph.arg_kind(a) != ArgKind::MemoryFormat) ctx.fail("expected a memory_format argument");
  return ctx.graph.arg_memory_format(a);
}

}  // namespace symshape
