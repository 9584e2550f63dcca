// Differences and cross products (eager 1.13 ReduceOps.cpp / Cross.cpp / LinearAlgebra):
// - diff(self, n, dim, prepend, append): prepend/append are concatenated along dim
//   (cat's layout), then n times result = narrow(result, dim, 1, len) -
//   narrow(result, dim, 0, len) (logical_xor for bool): each step is a pointwise op over
//   two narrowed views, so its layout is TensorIterator's; n is clamped to size(dim)
//   (0 steps return the input itself); n == 0 returns zeros_like(self).
// - linalg_cross(self, other, *, dim=-1): equal ranks, size 3 at dim in both, broadcast
//   shape, contiguous, self's dtype; cross(self, other, dim=None) takes the first dim of
//   size 3 when dim is None.
#include "prop/memory_format.h"
#include "prop/ops/concat.h"
#include "prop/ops/elementwise_common.h"
#include "prop/ops/slice_geometry.h"
#include "prop/ops/view_geometry.h"
#include "prop/shape_helpers.h"

namespace symshape {

namespace {

// diff_check_compatible_shape
void check_diff_operand(PropContext& ctx, TensorId self, TensorId other, int64_t dim) {
  const int64_t rank = ctx.vals.rank(self);
  const int64_t wrapped = ctx.wrap_dim(dim, rank);
  if (static_cast<int64_t>(ctx.vals.rank(other)) != rank)
    ctx.fail("diff expects prepend or append to be the same dimension as input");
  for (int64_t i = 0; i < rank; ++i) {
    if (i == wrapped) continue;
    const ExprId a = ctx.vals.sizes(other)[i], b = ctx.vals.sizes(self)[i];
    if (!holds(ctx, ctx.ar.eq(a, b)))
      ctx.fail("diff expects the shape of tensor to prepend or append to match that of input except along the "
               "differencing dimension; input.size({}) = {}, but got tensor.size({}) = {}",
               i, ctx.str(b), i, ctx.str(a));
  }
}

// diff_helper: n differencing steps along dim.
TensorId diff_steps(PropContext& ctx, TensorId a, int64_t n, int64_t dim) {
  ExprArena& ar = ctx.ar;
  if (n == 0) {
    Dims strides;
    empty_like_strides(ctx, a, MemoryFormat::Preserve, strides);
    const Dims sizes(ctx.vals.sizes(a));
    return ctx.new_tensor(ctx.vals.dtype(a), sizes, strides);
  }
  const size_t d = static_cast<size_t>(ctx.wrap_dim(dim, ctx.vals.rank(a)));
  const ExprId size = ctx.vals.sizes(a)[d];
  if (ctx.guard(ar.ge(ar.integer(n), size))) n = ctx.guard_int(size);  // n >= size(dim): size(dim) steps
  ExprId len = ar.sub(size, ar.one());
  TensorId result = a;
  for (int64_t i = 0; i < n; ++i) {
    const TensorId views[] = {narrow_view(ctx, result, d, ar.one(), len), narrow_view(ctx, result, d, ar.zero(), len)};
    const Dims shape(ctx.vals.sizes(views[0]));
    Dims strides;
    elementwise_strides(ctx, views, shape, strides);
    result = ctx.new_tensor(ctx.vals.dtype(a), shape, strides);
    len = ar.sub(len, ar.one());
  }
  return result;
}

// diff(self, n=1, dim=-1, prepend=None, append=None)
void diff(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  const int64_t n = ctx.is_none(ctx.arg(1)) ? 1 : ctx.int_const(ctx.arg(1));
  const int64_t dim = ctx.is_none(ctx.arg(2)) ? -1 : ctx.int_const(ctx.arg(2));
  const std::optional<TensorId> prepend = ctx.opt_tensor(ctx.arg(3)), append = ctx.opt_tensor(ctx.arg(4));
  if (ctx.vals.rank(x) < 1) ctx.fail("diff expects input to be at least one-dimensional");
  if (n < 0) ctx.fail("order must be non-negative but got {}", n);
  if (prepend) check_diff_operand(ctx, x, *prepend, dim);
  if (append) check_diff_operand(ctx, x, *append, dim);
  TensorId a = x;
  if ((prepend || append) && n != 0) {
    FixedVector<TensorId, 3> parts;
    if (prepend) parts.push_back(*prepend);
    parts.push_back(x);
    if (append) parts.push_back(*append);
    a = cat_tensors(ctx, parts, dim);
  }
  ctx.set_tensor(diff_steps(ctx, a, n, dim));
}

// linalg_cross(self, other, *, dim=-1) on a given dim.
void cross_on(PropContext& ctx, TensorId x, TensorId y, int64_t dim) {
  ExprArena& ar = ctx.ar;
  const int64_t rank = ctx.vals.rank(x);
  if (static_cast<int64_t>(ctx.vals.rank(y)) != rank)
    ctx.fail("linalg.cross: inputs must have the same number of dimensions.");
  const size_t d = static_cast<size_t>(ctx.wrap_dim(dim, rank));
  const ExprId a = rank == 0 ? ar.one() : ctx.vals.sizes(x)[d];
  const ExprId b = rank == 0 ? ar.one() : ctx.vals.sizes(y)[d];
  const ExprId three = ar.integer(3);
  if (!holds(ctx, ar.logical_and(ar.eq(a, three), ar.eq(b, three))))
    ctx.fail("linalg.cross: inputs dimension {} must have length 3. Got {} and {}", dim, ctx.str(a), ctx.str(b));
  Dims shape;
  broadcast_shapes(ctx, ctx.vals.sizes(x), ctx.vals.sizes(y), shape);
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(x), shape));
}

void linalg_cross(PropContext& ctx) {
  const ArgId dim = ctx.kwarg(Key::dim);
  cross_on(ctx, ctx.tensor_arg(0), ctx.tensor_arg(1), ctx.is_none(dim) ? -1 : ctx.int_const(dim));
}

// cross(self, other, dim=None): None picks the first dim of size 3 (_default_cross_dim).
void cross(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  int64_t dim = -1;
  if (!ctx.is_none(ctx.arg(2))) {
    dim = ctx.int_const(ctx.arg(2));
  } else {
    const Dims sizes(ctx.vals.sizes(x));
    size_t i = 0;
    while (i < sizes.size() && !ctx.guard(ctx.ar.eq(sizes[i], ctx.ar.integer(3)))) ++i;
    if (i == sizes.size()) ctx.fail("no dimension of size 3 in input");
    dim = static_cast<int64_t>(i);
  }
  cross_on(ctx, x, ctx.tensor_arg(1), dim);
}

constexpr OpRuleEntry kRules[] = {
    {"aten.diff.default", diff},
    {"aten.linalg_cross.default", linalg_cross},
    {"aten.cross.default", cross},
};

}  // namespace

std::span<const OpRuleEntry> diff_cross_rules() { return kRules; }

}  // namespace symshape
