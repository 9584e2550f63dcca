#include "prop/fake_elementwise_questions.h"

#include "prop/memory_format.h"
#include "prop/shape_helpers.h"

namespace symshape {

namespace {

// compute_elementwise_output_logical_to_physical_perm's `ge(a, b)`: a >= b for strides
// known non-negative, as a chain of guard_or_false questions.
bool refs_ge(PropContext& ctx, ExprId a, ExprId b) {
  ExprArena& ar = ctx.ar;
  if (decide(ctx, ar.eq(b, ar.zero()))) return true;
  if (decide(ctx, ar.eq(a, ar.zero()))) return false;
  return decide(ctx, python_ge(ar, a, b)) || decide(ctx, ar.eq(ar.mod(a, b), ar.zero()));
}

// An operand as torch._refs' _maybe_broadcast hands it on: x.expand(shape) when its sizes
// differ (c10's inferExpandGeometry: a size-1 dim that broadcasts gets stride 0; a missing
// leading dim gets the next dim's size * stride, then 0 unless its target size is 1, so
// edgenext's cumsum mask (L, L, 1) expanded to (1, L, L, W) has the strides
// (L*Max(1, L), Max(1, L), 1, 0)). The expansion is computed with guards suppressed; the
// broadcast's own questions are broadcast_shapes'.
void expanded_layout(PropContext& ctx, TensorId t, std::span<const ExprId> shape, Dims& sizes, Dims& strides) {
  ExprArena& ar = ctx.ar;
  const auto s = ctx.vals.sizes(t);
  const auto st = ctx.vals.strides(t);
  sizes.assign(shape);
  strides.clear();
  strides.resize(shape.size(), ar.zero());
  const size_t off = shape.size() - s.size();
  ShapeEnv::SuppressGuards quiet(ctx.env);
  for (size_t i = 0; i < s.size(); ++i) {
    const bool expanded = s[i] != shape[off + i] && decide(ctx, ar.eq(s[i], ar.one())) &&
                          !decide(ctx, ar.eq(shape[off + i], ar.one()));
    strides[off + i] = expanded ? ar.zero() : st[i];
  }
  for (size_t i = off; i-- > 0;) {
    if (!decide(ctx, ar.eq(shape[i], ar.one()))) continue;  // stride 0
    strides[i] = i + 1 < shape.size() ? ar.mul(shape[i + 1], strides[i + 1]) : ar.one();
  }
}

// compute_elementwise_output_logical_to_physical_perm over the operands (expanded to
// `shape`), its questions asked in its order: `perm` gets the dims fastest-moving first
// (the contiguous perm, the channels_last one, or the insertion sort's). False for the
// 0-d / 1-d short-circuits and when no operand is a tensor of rank >= 1.
bool refs_output_perm(PropContext& ctx, std::span<const TensorId> tensors, std::span<const ExprId> shape,
                      FixedVector<size_t, kMaxRank>& perm) {
  ExprArena& ar = ctx.ar;
  const size_t n = shape.size();
  perm.clear();
  if (tensors.empty() || n <= 1) return false;  // no tensor, 0-d and 1-d short-circuits
  // 0-dim operands are CPU scalars to the refs (is_cpu_scalar_tensor): filtered out
  FixedVector<Dims, 8> sizes, strides;
  for (TensorId t : tensors) {
    if (sizes.size() == 8) break;
    if (ctx.vals.rank(t) == 0) continue;
    Dims sz, st;
    expanded_layout(ctx, t, shape, sz, st);
    sizes.push_back(sz);
    strides.push_back(st);
  }
  if (sizes.size() == 0) return false;
  // `is_contiguous = is_contiguous and ...`: Python's `and` stops asking after the first false
  bool contiguous = true, channels_last = true;
  for (size_t k = 0; k < sizes.size(); ++k) {
    const OperandLayout op{sizes[k], strides[k]};
    contiguous = contiguous && prims_is_contiguous_or_false(ctx, op);
    channels_last = channels_last && prims_is_channels_last_contiguous_2d_or_false(ctx, op);
  }
  if (contiguous && !channels_last) {
    for (size_t i = 0; i < n; ++i) perm.push_back(n - 1 - i);
    return true;
  }
  if (channels_last && !contiguous) {
    for (size_t d : {size_t{1}, size_t{3}, size_t{2}, size_t{0}}) perm.push_back(d);
    return true;
  }
  auto should_swap = [&](size_t a, size_t b) -> int {
    for (size_t k = 0; k < strides.size(); ++k) {
      const ExprId sa = strides[k][a], sb = strides[k][b];
      if (decide(ctx, ar.eq(sa, ar.zero())) || decide(ctx, ar.eq(sb, ar.zero()))) continue;
      if (decide(ctx, ar.eq(sa, sb))) {
        if (refs_ge(ctx, shape[b], shape[a])) continue;
        return 1;
      }
      if (refs_ge(ctx, sb, sa)) return -1;
      if (refs_ge(ctx, sa, sb)) return 1;
    }
    return 0;
  };
  stride_order_permutation(n, should_swap, perm);
  return true;
}

void refs_perm_questions(PropContext& ctx, std::span<const TensorId> tensors, std::span<const ExprId> shape) {
  FixedVector<size_t, kMaxRank> perm;
  refs_output_perm(ctx, tensors, shape, perm);
}

// empty_permuted's strides in the operands' permutation (contiguous for the short-circuits);
// the caller suppresses guards and handles 0-d / 1-d shapes
void permuted_layout(PropContext& ctx, std::span<const TensorId> operands, std::span<const ExprId> shape, Dims& out) {
  FixedVector<size_t, kMaxRank> perm;
  if (!refs_output_perm(ctx, operands, shape, perm)) return ctx.contiguous_strides(shape, out);
  dense_strides_in_order(ctx, shape, perm.span(), out);
}

}  // namespace

void fake_elementwise_layout_questions(PropContext& ctx, std::span<const TensorId> tensors,
                                       std::span<const ExprId> shape, bool fast_binary) {
  if (fast_binary && !tensors.empty()) {
    FixedVector<OperandLayout, 8> ops;
    for (TensorId t : tensors)
      if (ops.size() < 8) ops.push_back({ctx.vals.sizes(t), ctx.vals.strides(t)});
    if (fake_binary_fast_path_guards(ctx, ops.span())) return;
  }
  refs_perm_questions(ctx, tensors, shape);
}

void refs_elementwise_strides(PropContext& ctx, std::span<const TensorId> tensors, std::span<const ExprId> shape,
                              Dims& out) {
  ShapeEnv::SuppressGuards read_off_hints(ctx.env);
  out.clear();
  if (shape.empty()) return;
  if (shape.size() == 1) return out.push_back(ctx.ar.one());
  FixedVector<TensorId, 8> operands;
  for (TensorId t : tensors)
    if (ctx.vals.rank(t) != 0 && operands.size() < 8) operands.push_back(t);
  if (operands.size() == 1 && ctx.vals.rank(operands[0]) == shape.size() &&
      prims_is_non_overlapping_and_dense_or_false(ctx, {ctx.vals.sizes(operands[0]), ctx.vals.strides(operands[0])}))
    return out.assign(ctx.vals.strides(operands[0]));
  permuted_layout(ctx, operands.span(), shape, out);
}

void refs_permuted_strides(PropContext& ctx, TensorId t, Dims& out) {
  ShapeEnv::SuppressGuards read_off_hints(ctx.env);
  const Dims shape(ctx.vals.sizes(t));  // a copy: the questions may add tensors
  out.clear();
  if (shape.empty()) return;
  if (shape.size() == 1) return out.push_back(ctx.ar.one());
  const TensorId self[] = {t};
  permuted_layout(ctx, self, shape, out);
}

bool refs_broadcast_shapes(PropContext& ctx, std::span<const Dims> shapes, Dims& shape, bool raise) {
  ExprArena& ar = ctx.ar;
  // the common shape starts as 1s; each operand's dims, innermost first. A size equal to the
  // common one is skipped before the common 1 is replaced, so a size guarded == 1 leaves 1.
  size_t rank = 0;
  for (const Dims& s : shapes) rank = std::max<size_t>(rank, s.size());
  shape.clear();
  shape.resize(rank, ar.one());
  for (const Dims& s : shapes) {
    for (size_t j = 1; j <= s.size(); ++j) {
      const ExprId x = s[s.size() - j];
      ExprId& common = shape[rank - j];
      if (ctx.guard_or_false(ar.eq(x, common))) continue;
      if (ctx.guard_or_false(ar.eq(common, ar.one()))) common = x;
      if (ctx.guard_or_false(ar.eq(x, ar.one()))) continue;
      if (check_ok(ctx, ar.eq(common, x))) continue;
      if (!raise) return false;
      ctx.fail("Attempting to broadcast a dimension of length {}! Mismatching argument had {}; but expected shape "
               "should be broadcastable to {}",
               ctx.str(x), ctx.shape_str(s), ctx.shape_str(shape));
    }
  }
  return true;
}

bool refs_broadcast_shape(PropContext& ctx, std::span<const TensorId> tensors, Dims& shape, bool raise) {
  FixedVector<Dims, 8> shapes;  // copied: the value table may grow while guards are recorded
  for (TensorId t : tensors)
    if (shapes.size() < 8) shapes.push_back(Dims(ctx.vals.sizes(t)));
  if (!refs_broadcast_shapes(ctx, shapes.span(), shape, raise)) return false;
  ExprArena& ar = ctx.ar;
  // should_expand(x.shape, common_shape): the first dim whose sizes differ ends it
  for (const Dims& s : shapes.span()) {
    if (s.empty() || s.size() != shape.size()) continue;  // a CPU scalar is kept; a shorter shape expands
    for (size_t i = 0; i < s.size(); ++i) {
      if (ctx.guard_or_false(ar.ne(s[i], shape[i]))) break;
      const ExprId x1 = ar.eq(s[i], ar.one()), y1 = ar.eq(shape[i], ar.one());
      if (!ctx.guard_or_false(ar.logical_and(x1, y1)) && ctx.guard_or_false(ar.logical_or(x1, y1))) break;
    }
  }
  return true;
}

TensorId refs_pointwise(PropContext& ctx, std::span<const TensorId> tensors, DType dtype) {
  Dims shape;
  refs_broadcast_shape(ctx, tensors, shape, /*raise=*/true);
  fake_elementwise_layout_questions(ctx, tensors, shape, /*fast_binary=*/false);
  Dims strides;
  refs_elementwise_strides(ctx, tensors, shape, strides);
  return ctx.new_tensor(dtype, shape, strides);
}

TensorId refs_pointwise(PropContext& ctx, TensorId t, DType dtype) {
  const TensorId ts[] = {t};
  return refs_pointwise(ctx, ts, dtype);
}


}  // namespace symshape
