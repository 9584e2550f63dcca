// Ops whose output sizes depend on tensor contents (semantics.md H.22, D.4): each such
// size is a fresh unbacked size-like symbol (the conform driver binds it from the first
// golden value it appears in). nonzero / argwhere / where(cond), masked_select,
// repeat_interleave, the unique family, bincount, one_hot, item.
#include <limits>

#include "prop/dtype_rules.h"
#include "prop/ops/index_family.h"
#include "prop/ops/view_geometry.h"
#include "prop/shape_helpers.h"

namespace symshape {

ExprId unbacked_size(PropContext& ctx, int64_t min, ExprId max) {
  const ExprId u = ctx.env.create_unbacked_symint();
  std::optional<int64_t> hi;
  if (max.valid() && ctx.ar.is_integer_const(max)) hi = ctx.ar.int_value(max);
  ctx.env.constrain_range_for_size(u, min, hi);
  return u;
}

namespace {

// The largest int PyTorch's fake kernels give a data-dependent count of a symbolic numel
// (sys.maxsize - 1), which a replacement by a backed size hands on to that size's range.
constexpr int64_t kUnboundedCount = std::numeric_limits<int64_t>::max() - 1;

}  // namespace

namespace {

// A fresh count of `t`'s elements (0 when `t` is statically empty), at most the numel: its
// value when a number, else `range_hi` of its range (nonzero) or sys.maxsize - 1 (unique).
ExprId count_of_elements(PropContext& ctx, TensorId t, bool range_hi) {
  const ExprId count = numel(ctx, ctx.vals.sizes(t));
  if (ctx.known_true(ctx.ar.eq(count, ctx.ar.zero()))) return ctx.ar.zero();
  int64_t hi = kUnboundedCount;
  if (ctx.ar.is_integer_const(count)) {
    hi = ctx.ar.int_value(count);
  } else if (range_hi) {
    const ValueRange r = ctx.env.bound(count);
    if (r.hi.kind == ExtNum::Kind::Int) hi = r.hi.i;
  }
  return unbacked_size(ctx, 0, ctx.ar.integer(hi));
}

}  // namespace

ExprId element_count(PropContext& ctx, TensorId t) { return count_of_elements(ctx, t, /*range_hi=*/false); }

// FakeTensor's nonzero keeps its count on the tensor (nonzero_memo): a mask indexed twice
// (x[mask], then x[mask] = v) has one unbacked count. Its upper bound is the numel's
// range's, sys.maxsize - 1 when that is unbounded (fake_impls.py nonzero).
ExprId nonzero_count(PropContext& ctx, TensorId mask) {
  if (const ExprId memo = ctx.nonzero_memo(mask); memo.valid()) return memo;
  const ExprId u = count_of_elements(ctx, mask, /*range_hi=*/true);
  if (u != ctx.ar.zero()) ctx.nonzero_memo(mask) = u;
  return u;
}

namespace {

// nonzero: (u, ndim) int64, column-major strides (1, u) as eager allocates them.
// `ndim` overrides the column count (where(cond) on a 0-dim cond sees it as (1,)).
TensorId nonzero_tensor(PropContext& ctx, TensorId x, std::optional<int64_t> ndim = std::nullopt) {
  const ExprId u = nonzero_count(ctx, x);
  const ExprId sizes[] = {u, ctx.ar.integer(ndim ? *ndim : static_cast<int64_t>(ctx.vals.rank(x)))},
               strides[] = {ctx.ar.one(), u};
  return ctx.new_tensor(DType::Int64, sizes, strides);
}

void nonzero(PropContext& ctx) { ctx.set_tensor(nonzero_tensor(ctx, ctx.tensor_arg(0))); }

// where(cond) / nonzero_numpy: nonzero(cond).unbind(1), one (u,) view per dim; eager
// (1.13 nonzero_numpy) unsqueezes a 0-dim cond to (1,) first, so it gives one (u,) tensor.
void nonzero_tuple(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId cond = ctx.tensor_arg(0);
  const TensorId nz = nonzero_tensor(ctx, cond, std::max<int64_t>(ctx.vals.rank(cond), 1));
  const ExprId u = ctx.vals.sizes(nz)[0];
  const int64_t k = ar.int_value(ctx.vals.sizes(nz)[1]);
  std::vector<TensorId>& cols = ctx.scratch_tensors;
  cols.clear();
  for (int64_t j = 0; j < k; ++j) {
    const ExprId size[] = {u}, stride[] = {ar.one()};
    cols.push_back(ctx.new_view(nz, size, stride, ar.mul(ar.integer(j), u)));
  }
  ctx.set_tensors(cols);
}

void masked_select(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0), mask = ctx.tensor_arg(1);
  if (ctx.vals.dtype(mask) != DType::Bool)
    ctx.fail("masked_select: expected BoolTensor for mask");
  Dims shape;
  broadcast_shapes(ctx, ctx.vals.sizes(mask), ctx.vals.sizes(x), shape);
  const ExprId count = numel(ctx, shape);
  const ExprId n[] = {ctx.known_true(ctx.ar.eq(count, ctx.ar.zero())) ? ctx.ar.zero() : unbacked_size(ctx, 0, count)};
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(x), n));
}

// repeat_interleave(repeats): a 1-D output of sum(repeats) (or output_size) elements, of
// the repeats' dtype.
void repeat_interleave_tensor(PropContext& ctx) {
  const TensorId repeats = ctx.tensor_arg(0);
  if (ctx.vals.rank(repeats) != 1) ctx.fail("repeat_interleave only accept 1D vector as repeat");
  const DType d = ctx.vals.dtype(repeats);
  if (d != DType::Int64 && d != DType::Int32) ctx.fail("repeats has to be Long or Int tensor");
  const ArgId out_size = ctx.kwarg(Key::output_size);
  const ExprId n[] = {!ctx.is_none(out_size) ? ctx.int_expr(out_size) : unbacked_size(ctx, 0, ExprId())};
  ctx.set_tensor(ctx.new_contiguous(d, n));
}

// repeat_interleave(self, repeats, dim): index_select of the (flattened when dim is None)
// input along dim, so the result is contiguous with size[dim] = the repeated length.
void repeat_interleave_self(PropContext& ctx, bool int_repeats) {
  ExprArena& ar = ctx.ar;
  const TensorId x = ctx.tensor_arg(0);
  Dims sizes;
  size_t d = 0;
  if (ctx.is_none(ctx.arg(2))) {
    sizes.push_back(numel(ctx, ctx.vals.sizes(x)));
  } else {
    sizes.assign(ctx.vals.sizes(x));
    d = static_cast<size_t>(ctx.wrap_dim(ctx.int_const(ctx.arg(2)), ctx.vals.rank(x)));
    if (sizes.empty()) sizes.push_back(ar.one());
  }
  const ExprId n = sizes[d];
  const ArgId out_size = ctx.kwarg(Key::output_size);
  if (int_repeats) {
    const ExprId r = ctx.int_expr(ctx.arg(1));
    if (!holds(ctx, ar.ge(r, ar.zero()))) ctx.fail("repeats can not be negative");
    sizes[d] = ar.mul(n, r);
  } else {
    const TensorId repeats = ctx.tensor_arg(1);
    const uint32_t rr = ctx.vals.rank(repeats);
    if (rr > 1) ctx.fail("repeats must be 0-dim or 1-dim tensor");
    if (rr == 1 && !ctx.guard_or_false(ar.eq(ctx.vals.sizes(repeats)[0], ar.one())) &&
        !holds(ctx, ar.eq(ctx.vals.sizes(repeats)[0], n)))
      ctx.fail("repeats must have the same size as input along dim");
    sizes[d] = !ctx.is_none(out_size) ? ctx.int_expr(out_size) : unbacked_size(ctx, 0, ExprId());
  }
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(x), sizes));
}

void repeat_interleave_self_tensor(PropContext& ctx) { repeat_interleave_self(ctx, false); }
void repeat_interleave_self_int(PropContext& ctx) { repeat_interleave_self(ctx, true); }

// Eager CPU unique (dim=None): values (u,); inverse has the input's shape when either
// inverse or counts is requested (the kernel computes it for both), else (0,); counts
// (u,) or (0,).
void unique_flat(PropContext& ctx, bool return_inverse, bool return_counts, bool inverse_for_counts, bool three) {
  ExprArena& ar = ctx.ar;
  const TensorId x = ctx.tensor_arg(0);
  const ExprId u = element_count(ctx, x);
  const ExprId values[] = {u}, empty[] = {ar.zero()};
  const Dims in_sizes(ctx.vals.sizes(x));
  TensorId out[3];
  out[0] = ctx.new_contiguous(ctx.vals.dtype(x), values);
  out[1] = (return_inverse || (inverse_for_counts && return_counts)) ? ctx.new_contiguous(DType::Int64, in_sizes)
                                                                     : ctx.new_contiguous(DType::Int64, empty);
  out[2] = return_counts ? ctx.new_contiguous(DType::Int64, values) : ctx.new_contiguous(DType::Int64, empty);
  ctx.set_tensors(std::span<const TensorId>(out, three ? 3 : 2));
}

// _unique2(self, sorted, return_inverse, return_counts)
void unique2(PropContext& ctx) { unique_flat(ctx, ctx.bool_const(ctx.arg(2)), ctx.bool_const(ctx.arg(3)), true, true); }
// _unique(self, sorted, return_inverse)
void unique1(PropContext& ctx) { unique_flat(ctx, ctx.bool_const(ctx.arg(2)), false, true, false); }

// unique along a dim: size[dim] becomes u; eager computes on the dim transposed to the
// front and transposes it back, so the values are not contiguous unless dim == 0. inverse is
// (size[dim],) and counts (u,), always.
void unique_along(PropContext& ctx, TensorId x, int64_t dim) {
  ExprArena& ar = ctx.ar;
  const int64_t rank = ctx.vals.rank(x);
  const size_t d = static_cast<size_t>(ctx.wrap_dim(dim, rank));
  const Dims sizes(ctx.vals.sizes(x));
  if (rank == 0) ctx.fail("IndexError: Dimension specified as {} but tensor has no dimensions", dim);
  const ExprId n = sizes[d];
  TensorId out[3];
  const ExprId empty[] = {ar.zero()};
  if (ctx.guard_or_false(ar.eq(n, ar.zero()))) {
    out[0] = ctx.new_contiguous(ctx.vals.dtype(x), sizes);
    out[1] = ctx.new_contiguous(DType::Int64, empty);
    out[2] = ctx.new_contiguous(DType::Int64, empty);
    return ctx.set_tensors(out);
  }
  for (size_t i = 0; i < sizes.size(); ++i)
    if (i != d && ctx.guard_or_false(ar.eq(sizes[i], ar.zero())))
      ctx.fail("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied");
  const ExprId u = unbacked_size(ctx, 0, n);
  // eager (1.13 _unique_dim_cpu_template): self.transpose(dim, 0).contiguous(), the unique
  // rows gathered into that layout with size[0] = u, then transpose(0, dim) back
  Dims front(sizes);  // sizes with dims 0 and d swapped, u in front
  std::swap(front[0], front[d]);
  front[0] = u;
  Dims fstrides;
  ctx.contiguous_strides(front, fstrides);
  std::swap(front[0], front[d]);
  std::swap(fstrides[0], fstrides[d]);
  out[0] = ctx.new_tensor(ctx.vals.dtype(x), front, fstrides);
  const ExprId inv[] = {n}, cnt[] = {u};
  out[1] = ctx.new_contiguous(DType::Int64, inv);
  out[2] = ctx.new_contiguous(DType::Int64, cnt);
  ctx.set_tensors(out);
}

// unique_dim(self, dim, sorted, return_inverse, return_counts)
void unique_dim(PropContext& ctx) { unique_along(ctx, ctx.tensor_arg(0), ctx.int_const(ctx.arg(1))); }
// unique_dim_consecutive(self, dim, return_inverse, return_counts)
void unique_dim_consecutive(PropContext& ctx) { unique_dim(ctx); }

// unique_consecutive(self, return_inverse, return_counts, dim=None)
void unique_consecutive(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  const ArgId dim = ctx.arg(3);
  if (!ctx.is_none(dim)) {
    const int64_t d = ctx.int_const(dim);
    if (!(d == 0 && ctx.vals.rank(x) == 1)) return unique_along(ctx, x, d);
  }
  unique_flat(ctx, ctx.bool_const(ctx.arg(1)), ctx.bool_const(ctx.arg(2)), false, true);
}

// bincount: (max(max(self) + 1, minlength),); an empty input gives exactly minlength.
void bincount(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId x = ctx.tensor_arg(0);
  const std::optional<TensorId> weights = ctx.opt_tensor(ctx.arg(1));
  const int64_t minlength = ctx.int_const(ctx.arg(2));
  if (minlength < 0) ctx.fail("minlength should be >= 0");
  if (!is_integral(ctx.vals.dtype(x), false)) ctx.fail("bincount only supports 1-d non-negative integral inputs.");
  if (ctx.vals.rank(x) == 1 && ctx.guard_or_false(ar.eq(ctx.vals.sizes(x)[0], ar.zero()))) {
    const ExprId n[] = {ar.integer(minlength)};
    return ctx.set_tensor(ctx.new_contiguous(DType::Int64, n));
  }
  if (ctx.vals.rank(x) != 1) ctx.fail("bincount only supports 1-d non-negative integral inputs.");
  DType dtype = DType::Int64;
  if (weights) {
    if (ctx.vals.rank(*weights) != 1 || !holds(ctx, ar.eq(ctx.vals.sizes(*weights)[0], ctx.vals.sizes(x)[0])))
      ctx.fail("weights should be 1-d and have the same length as input");
    dtype = ctx.vals.dtype(*weights) == DType::Float32 ? DType::Float32 : DType::Float64;
  }
  const ExprId n[] = {unbacked_size(ctx, minlength, ExprId())};
  ctx.set_tensor(ctx.new_contiguous(dtype, n));
}

// one_hot: self.shape + (num_classes,) int64; num_classes = -1 means max(self) + 1.
void one_hot(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId x = ctx.tensor_arg(0);
  const int64_t classes = ctx.int_const(ctx.arg(1));
  if (ctx.vals.dtype(x) != DType::Int64) ctx.fail("one_hot is only applicable to index tensor.");
  Dims sizes(ctx.vals.sizes(x));
  if (ctx.guard_or_false(ar.eq(numel(ctx, sizes), ar.zero()))) {
    if (classes <= 0) ctx.fail("Can not infer total number of classes from empty tensor.");
    sizes.push_back(ar.integer(classes));
  } else if (classes == -1) {
    sizes.push_back(unbacked_size(ctx, 1, ExprId()));
  } else {
    // any value is >= 0 > num_classes
    if (classes < 0) ctx.fail("Class values must be smaller than num_classes.");
    sizes.push_back(ar.integer(classes));
  }
  ctx.set_tensor(ctx.new_contiguous(DType::Int64, sizes));
}

// item / _local_scalar_dense: an unbacked SymInt, SymFloat or SymBool by dtype; repeated
// reads of the same tensor value give the same symbol (eager fake tensors memoise it).
void item(PropContext& ctx) {
  const ArgId a = ctx.arg(0);
  const TensorId x = ctx.tensor(a);
  const ExprId count = numel(ctx, ctx.vals.sizes(x));
  if (!holds(ctx, ctx.ar.eq(count, ctx.ar.one())))
    ctx.fail("a Tensor with {} elements cannot be converted to Scalar", ctx.str(count));
  const Graph& g = ctx.graph;
  const NodeId self = ctx.node();
  const OpId op = g.node_op(self);
  const NodeId source = g.arg_node(a);
  for (uint32_t i = source.index() + 1; i < self.index(); ++i) {
    const NodeId n(i);
    if (g.node_kind(n) != NodeKind::CallFunction || g.node_op(n) != op) continue;
    const auto args = g.node_args(n);
    if (args.empty() || g.arg_kind(args[0]) != ArgKind::Node || g.arg_node(args[0]) != source) continue;
    const ValId prev = ctx.node_value(n);
    if (prev.valid()) return ctx.set_value(prev);
  }
  const DType d = ctx.vals.dtype(x);
  if (d == DType::Bool) return ctx.set_value(ctx.vals.of_bool(ctx.env.create_unbacked_symbool()));
  if (is_floating(d) || d == DType::Complex64) return ctx.set_value(ctx.vals.of_float(ctx.env.create_unbacked_symfloat()));
  ctx.set_int(ctx.env.create_unbacked_symint());
}

constexpr OpRuleEntry kEntries[] = {
    {"aten.nonzero.default", nonzero},
    {"aten.argwhere.default", nonzero},
    {"aten.nonzero_numpy.default", nonzero_tuple},
    {"aten.where.default", nonzero_tuple},
    {"aten.masked_select.default", masked_select},
    {"aten.repeat_interleave.Tensor", repeat_interleave_tensor},
    {"aten.repeat_interleave.self_Tensor", repeat_interleave_self_tensor},
    {"aten.repeat_interleave.self_int", repeat_interleave_self_int},
    {"aten._unique2.default", unique2},
    {"aten._unique.default", unique1},
    {"aten.unique_dim.default", unique_dim},
    {"aten.unique_consecutive.default", unique_consecutive},
    {"aten.unique_dim_consecutive.default", unique_dim_consecutive},
    {"aten.bincount.default", bincount},
    {"aten.one_hot.default", one_hot},
    {"aten.item.default", item},
    {"aten._local_scalar_dense.default", item},
};

}  // namespace

std::span<const OpRuleEntry> data_dependent_entries() { return kEntries; }

}  // namespace symshape
