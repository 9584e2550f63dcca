// Reductions and scans (semantics.md H.5, H.3 reduction dtypes, H.21 scans). Eager 1.13
// allocates every reduction result with set_output_raw_strided(shape, {}) or
// at::empty: contiguous, whatever the input layout.
#include <vector>

#include "prop/dtype_rules.h"
#include "prop/fake_elementwise_questions.h"
#include "prop/ops/reduction_common.h"
#include "prop/ops/view_geometry.h"
#include "prop/shape_helpers.h"

namespace symshape {

// ---- shared helpers -------------------------------------------------------------------

uint32_t reduction_dims(PropContext& ctx, ArgId dim_arg, int64_t rank, bool empty_is_all) {
  const uint32_t all = rank >= 32 ? ~0u : (1u << rank) - 1;
  if (ctx.is_none(dim_arg)) return all;
  IntDims dims;
  ctx.int_list_const(dim_arg, dims);
  if (dims.empty()) return empty_is_all ? all : 0u;
  return dim_mask(ctx, dims.span(), rank);
}

void reduced_shape(std::span<const ExprId> sizes, uint32_t mask, bool keepdim, ExprId one, Dims& out) {
  out.clear();
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (!(mask & (1u << i)))
      out.push_back(sizes[i]);
    else if (keepdim)
      out.push_back(one);
  }
}

void check_nonzero_reduced(PropContext& ctx, TensorId self, int64_t given_dim, int64_t wrapped, std::string_view fn) {
  if (ctx.vals.rank(self) == 0) return;  // wrap_dim already limited the dim to 0 / -1
  const ExprId size = ctx.vals.sizes(self)[wrapped];
  ctx.check(ctx.ar.ne(size, ctx.ar.zero()), "IndexError: {}: Expected reduction dim {} to have non-zero size.", fn,
            given_dim);
}

bool keepdim_arg(PropContext& ctx, size_t i) {
  ArgId a = ctx.arg(i);
  if (!a.valid()) a = ctx.kwarg(Key::keepdim);
  return !ctx.is_none(a) && ctx.bool_const(a);
}

namespace {

constexpr size_t kNoArg = 64;  // an argument index past every schema: read the kwarg

void set_reduced(PropContext& ctx, TensorId self, uint32_t mask, bool keepdim, DType dtype) {
  Dims out;
  reduced_shape(ctx.vals.sizes(self), mask, keepdim, ctx.ar.one(), out);
  ctx.set_tensor(ctx.new_contiguous(dtype, out));
}

// (values, indices) of a reduction over one dim.
void set_reduced_pair(PropContext& ctx, TensorId self, uint32_t mask, bool keepdim, DType first, DType second) {
  Dims out;
  reduced_shape(ctx.vals.sizes(self), mask, keepdim, ctx.ar.one(), out);
  const TensorId ts[] = {ctx.new_contiguous(first, out), ctx.new_contiguous(second, out)};
  ctx.set_tensors(ts);
}

uint32_t all_dims(TensorId self, PropContext& ctx) {
  const uint32_t r = ctx.vals.rank(self);
  return r >= 32 ? ~0u : (1u << r) - 1;
}

// ---- dtypes ----

// sum / prod / cumsum / cumprod: integral (and bool) inputs accumulate in int64.
DType sum_dtype(PropContext& ctx, TensorId self, ArgId dtype_arg) {
  if (auto d = ctx.opt_dtype(dtype_arg)) return *d;
  const DType d = ctx.vals.dtype(self);
  return is_integral(d, true) ? DType::Int64 : d;
}

DType mean_dtype(PropContext& ctx, TensorId self, ArgId dtype_arg, std::string_view fn) {
  if (auto d = ctx.opt_dtype(dtype_arg)) {
    if (is_integral(*d, true))
      ctx.fail("{}(): could not infer output dtype. Optional dtype must be either a floating point or complex dtype. "
               "Got: {}",
               fn, scalar_type_name(*d));
    return *d;
  }
  const DType d = ctx.vals.dtype(self);
  if (is_integral(d, true))
    ctx.fail("{}(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {}",
             fn, scalar_type_name(d));
  return d;
}

DType std_var_dtype(PropContext& ctx, TensorId self) {
  const DType d = ctx.vals.dtype(self);
  if (is_integral(d, true)) ctx.fail("std and var only support floating point and complex dtypes");
  return d == DType::Complex64 ? DType::Float32 : d;
}

DType norm_dtype(PropContext& ctx, TensorId self, ArgId dtype_arg) {
  const DType d = ctx.vals.dtype(self);
  if (is_integral(d, true))
    ctx.fail("linalg.vector_norm: Expected a floating point or complex tensor as input. Got {}", scalar_type_name(d));
  if (auto o = ctx.opt_dtype(dtype_arg)) return *o == DType::Complex64 ? DType::Float32 : *o;
  return d == DType::Complex64 ? DType::Float32 : d;
}

// any / all keep uint8 (legacy) and give bool otherwise.
DType any_dtype(PropContext& ctx, TensorId self) {
  return ctx.vals.dtype(self) == DType::UInt8 ? DType::UInt8 : DType::Bool;
}

// ---- sum / mean / prod ----

void sum_default(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  set_reduced(ctx, self, all_dims(self, ctx), false, sum_dtype(ctx, self, ctx.kwarg(Key::dtype)));
}

// sum.dim_IntList / nansum (self, dim?, keepdim, *, dtype)
void sum_dim(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const DType dt = sum_dtype(ctx, self, ctx.kwarg(Key::dtype));
  set_reduced(ctx, self, reduction_dims(ctx, ctx.arg(1), ctx.vals.rank(self)), keepdim_arg(ctx, 2), dt);
}

void mean_default(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  set_reduced(ctx, self, all_dims(self, ctx), false, mean_dtype(ctx, self, ctx.kwarg(Key::dtype), "mean"));
}

template <bool Nan>
void mean_dim(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const DType dt = mean_dtype(ctx, self, ctx.kwarg(Key::dtype), Nan ? "nanmean" : "mean");
  set_reduced(ctx, self, reduction_dims(ctx, ctx.arg(1), ctx.vals.rank(self)), keepdim_arg(ctx, 2), dt);
}

void prod_default(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  set_reduced(ctx, self, all_dims(self, ctx), false, sum_dtype(ctx, self, ctx.kwarg(Key::dtype)));
}

// prod.dim_int(self, dim, keepdim, *, dtype)
void prod_dim(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const DType dt = sum_dtype(ctx, self, ctx.kwarg(Key::dtype));
  set_reduced(ctx, self, reduction_dims(ctx, ctx.arg(1), ctx.vals.rank(self), false), keepdim_arg(ctx, 2), dt);
}

// ---- identity-less reductions ----

// amax / amin(self, dim=[], keepdim): the size-0 checks only run on an empty input.
template <bool Max>
void amax(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const char* fn = Max ? "amax()" : "amin()";
  const int64_t rank = ctx.vals.rank(self);
  IntDims dims;
  if (!ctx.is_none(ctx.arg(1))) ctx.int_list_const(ctx.arg(1), dims);
  if (ctx.guard_or_false(ctx.ar.eq(numel(ctx, ctx.vals.sizes(self)), ctx.ar.zero()))) {
    if (dims.empty())
      ctx.fail("{}: Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the "
               "'dim' argument.",
               fn);
    for (int64_t d : dims) check_nonzero_reduced(ctx, self, d, ctx.wrap_dim(d, rank), fn);
  }
  set_reduced(ctx, self, reduction_dims(ctx, ctx.arg(1), rank), keepdim_arg(ctx, 2), ctx.vals.dtype(self));
}

// max.dim / min.dim / median.dim / mode / nanmedian.dim (self, dim, keepdim): (values, int64 indices)
template <const char* Fn>
void values_indices_dim(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const int64_t rank = ctx.vals.rank(self);
  const int64_t d = ctx.wrap_dim(ctx.is_none(ctx.arg(1)) ? -1 : ctx.int_const(ctx.arg(1)), rank);
  check_nonzero_reduced(ctx, self, d, d, Fn);
  const uint32_t mask = rank == 0 ? 0u : 1u << d;
  set_reduced_pair(ctx, self, mask, keepdim_arg(ctx, 2), ctx.vals.dtype(self), DType::Int64);
}

// max() / min() / median() / nanmedian(): a 0-dim result, rejected on an empty input.
template <const char* Fn>
void full_reduction_nonempty(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  ctx.check(ctx.ar.gt(numel(ctx, ctx.vals.sizes(self)), ctx.ar.zero()),
            "{}: Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the "
            "'dim' argument.",
            Fn);
  set_reduced(ctx, self, all_dims(self, ctx), false, ctx.vals.dtype(self));
}

// argmax / argmin(self, dim?, keepdim) -> int64
template <const char* Fn>
void argmax(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const int64_t rank = ctx.vals.rank(self);
  const bool keepdim = keepdim_arg(ctx, 2);
  if (ctx.is_none(ctx.arg(1))) {
    ctx.check(ctx.ar.ne(numel(ctx, ctx.vals.sizes(self)), ctx.ar.zero()),
              "IndexError: {}: Expected reduction dim to be specified for input.numel() == 0.", Fn);
    return set_reduced(ctx, self, all_dims(self, ctx), keepdim, DType::Int64);
  }
  const int64_t d = ctx.wrap_dim(ctx.int_const(ctx.arg(1)), rank);
  check_nonzero_reduced(ctx, self, d, d, Fn);
  set_reduced(ctx, self, rank == 0 ? 0u : 1u << d, keepdim, DType::Int64);
}

// aminmax(self, *, dim?, keepdim) -> (min, max)
void aminmax(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const ArgId dim = ctx.kwarg(Key::dim);
  const int64_t rank = ctx.vals.rank(self);
  uint32_t mask = all_dims(self, ctx);
  if (!ctx.is_none(dim)) {
    const int64_t d = ctx.wrap_dim(ctx.int_const(dim), rank);
    check_nonzero_reduced(ctx, self, d, d, "aminmax");
    mask = rank == 0 ? 0u : 1u << d;
  } else {
    ctx.check(ctx.ar.ne(numel(ctx, ctx.vals.sizes(self)), ctx.ar.zero()),
              "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.");
  }
  set_reduced_pair(ctx, self, mask, keepdim_arg(ctx, kNoArg), ctx.vals.dtype(self), ctx.vals.dtype(self));
}

// ---- std / var ----

// std.default / var.default(self, unbiased)
void std_default(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  set_reduced(ctx, self, all_dims(self, ctx), false, std_var_dtype(ctx, self));
}

// std.dim / var.dim(self, dim?, unbiased, keepdim) and .correction(self, dim?, *, correction, keepdim)
template <size_t KeepdimArg>
void std_dim(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const DType dt = std_var_dtype(ctx, self);
  set_reduced(ctx, self, reduction_dims(ctx, ctx.arg(1), ctx.vals.rank(self)), keepdim_arg(ctx, KeepdimArg), dt);
}

// var_mean / std_mean: (std|var, mean) over the same dims
template <size_t KeepdimArg>
void std_mean(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const DType dt = std_var_dtype(ctx, self);
  const uint32_t mask = reduction_dims(ctx, ctx.arg(1), ctx.vals.rank(self));
  const bool keepdim = keepdim_arg(ctx, KeepdimArg);
  set_reduced_pair(ctx, self, mask, keepdim, dt, ctx.vals.dtype(self));
}

void std_mean_default(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const DType dt = std_var_dtype(ctx, self);
  set_reduced_pair(ctx, self, all_dims(self, ctx), false, dt, ctx.vals.dtype(self));
}

// ---- other reductions ----

// logsumexp(self, dim, keepdim): integral inputs give the default float dtype.
void logsumexp(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const DType d = ctx.vals.dtype(self);
  set_reduced(ctx, self, reduction_dims(ctx, ctx.arg(1), ctx.vals.rank(self)), keepdim_arg(ctx, 2),
              is_integral(d, true) ? DType::Float32 : d);
}

void any_default(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  set_reduced(ctx, self, all_dims(self, ctx), false, any_dtype(ctx, self));
}

// any.dim / any.dims / all.dim / all.dims (self, dim, keepdim)
void any_dim(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  set_reduced(ctx, self, reduction_dims(ctx, ctx.arg(1), ctx.vals.rank(self)), keepdim_arg(ctx, 2),
              any_dtype(ctx, self));
}

// norm.Scalar(self, p) / norm.ScalarOpt_dtype(self, p, *, dtype): all dims
void norm_all(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  set_reduced(ctx, self, all_dims(self, ctx), false, norm_dtype(ctx, self, ctx.kwarg(Key::dtype)));
}

// norm.ScalarOpt_dim(_dtype)(self, p, dim, keepdim, [*, dtype]) and
// linalg_vector_norm(self, ord, dim?, keepdim, *, dtype)
void norm_dim(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const DType dt = norm_dtype(ctx, self, ctx.kwarg(Key::dtype));
  set_reduced(ctx, self, reduction_dims(ctx, ctx.arg(2), ctx.vals.rank(self)), keepdim_arg(ctx, 3), dt);
}

// frobenius_norm.dim(self, dim, keepdim): at most two dims
void frobenius_norm(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  IntDims dims;
  if (!ctx.is_none(ctx.arg(1))) ctx.int_list_const(ctx.arg(1), dims);
  if (dims.size() > 2) ctx.fail("Expected at most 2 dims to be passed to frobenius_norm, but got {}", dims.size());
  const DType dt = norm_dtype(ctx, self, {});
  set_reduced(ctx, self, reduction_dims(ctx, ctx.arg(1), ctx.vals.rank(self)), keepdim_arg(ctx, 2), dt);
}

// count_nonzero.dim_IntList(self, dim[]) / count_nonzero.default(self, dim?)
void count_nonzero(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  set_reduced(ctx, self, reduction_dims(ctx, ctx.arg(1), ctx.vals.rank(self)), false, DType::Int64);
}

// ---- scans (H.21) ----

// Under symbolic sizes FakeTensorMode runs torch._refs' cumsum / cumprod
// (_cumsumprod_common), a masked reduction:
//   x = self.unsqueeze(dim + 1); rg = arange(L)    (refs unsqueezes: `size == 1` questions)
//   mask = rg.unsqueeze(1) <= rg, unsqueezed to self's trailing rank   (refs le's layout)
//   masked = where(mask, x, init) over (.., L, L, ..)                   (refs where's layout)
//   sum / prod(masked, dim, dtype)   converting masked to the accumulation dtype asks
//                                    is_non_overlapping_and_dense; the result is an
//                                    empty_strided of masked's sizes without `dim`
// The result's sizes are self's except where _broadcast_shapes kept its literal 1: a size
// of self guarded equal to 1 (a `(S + pad) // 64` chunk count) is 1 in the result.
// Each op goes through the dispatch cache, whose key asks the 4-d / 5-d layouts. Over plain
// symbols all of it is decided; over edgenext's `H // 8` the layouts' comparisons of
// `Max(1, H // 8)` products are guards.
void cumulative_2x(PropContext& ctx, TensorId self, size_t dim, DType out_dtype, Dims& result) {
  const Dims sizes(ctx.vals.sizes(self));  // copied: new tensors below may grow the value table
  const ExprId L = sizes[dim];
  const TensorId x = refs_unsqueeze_tensor(ctx, self, dim + 1);
  const ExprId range_size[] = {L};
  const TensorId rg = ctx.new_contiguous(DType::Int64, range_size);
  const TensorId le_ops[] = {refs_unsqueeze_tensor(ctx, rg, 1), rg};
  const ExprId square[] = {L, L};
  fake_elementwise_layout_questions(ctx, le_ops, square, /*fast_binary=*/false);
  TensorId mask = ctx.new_contiguous(DType::Bool, square);
  for (size_t i = dim + 1; i < sizes.size(); ++i) mask = refs_unsqueeze_tensor(ctx, mask, ctx.vals.rank(mask));
  const TensorId where_ops[] = {mask, x};
  for (TensorId t : where_ops) fake_cache_metadata_questions(ctx, {ctx.vals.sizes(t), ctx.vals.strides(t)});
  Dims shape, strides;
  refs_broadcast_shape(ctx, where_ops, shape, /*raise=*/true);
  fake_elementwise_layout_questions(ctx, where_ops, shape, /*fast_binary=*/false);
  {
    ShapeEnv::SuppressGuards layout(ctx.env);
    elementwise_strides(ctx, where_ops, shape, strides, /*has_cpu_scalar=*/true);
    prims_dense_form(ctx, shape, strides);
  }
  fake_cache_metadata_questions(ctx, {shape, strides});
  // where(bool mask, x, 0 or 1): a Python int keeps an integral x's dtype, makes bool int64
  const DType self_dtype = ctx.vals.dtype(self);
  const DType masked = self_dtype == DType::Bool ? DType::Int64 : self_dtype;
  const DType accumulate = out_dtype == DType::Float16 || out_dtype == DType::BFloat16 ? DType::Float32 : out_dtype;
  if (masked != accumulate) prims_is_non_overlapping_and_dense_or_false(ctx, {shape, strides});
  result = shape;
  result.erase(dim);
  empty_strided_questions(ctx, result);
}

// cumsum / cumprod(self, dim, *, dtype): self's shape (above), contiguous
void cumsum(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const size_t dim = static_cast<size_t>(ctx.wrap_dim(ctx.int_const(ctx.arg(1)), ctx.vals.rank(self)));
  ArgId dt = ctx.kwarg(Key::dtype);
  if (!dt.valid()) dt = ctx.arg(2);
  const DType out = sum_dtype(ctx, self, dt);
  if (ctx.vals.rank(self) == 0) return ctx.set_tensor(ctx.new_contiguous(out, ctx.vals.sizes(self)));
  Dims result;
  cumulative_2x(ctx, self, dim, out, result);
  ctx.set_tensor(ctx.new_contiguous(out, result));
}

void logcumsumexp(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  ctx.wrap_dim(ctx.int_const(ctx.arg(1)), ctx.vals.rank(self));
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(self), ctx.vals.sizes(self)));
}

// cummax / cummin(self, dim) -> (values, int64 indices)
void cummax(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  ctx.wrap_dim(ctx.int_const(ctx.arg(1)), ctx.vals.rank(self));
  const TensorId ts[] = {ctx.new_contiguous(ctx.vals.dtype(self), ctx.vals.sizes(self)),
                         ctx.new_contiguous(DType::Int64, ctx.vals.sizes(self))};
  ctx.set_tensors(ts);
}

constexpr char kMax[] = "max()";
constexpr char kMin[] = "min()";
constexpr char kArgmax[] = "argmax()";
constexpr char kArgmin[] = "argmin()";
constexpr char kMedian[] = "median()";
constexpr char kNanmedian[] = "nanmedian()";
constexpr char kMode[] = "mode()";

constexpr OpRuleEntry kRules[] = {
    {"aten.sum.default", sum_default},
    {"aten.sum.dim_IntList", sum_dim},
    {"aten.nansum.default", sum_dim},
    {"aten.mean.default", mean_default},
    {"aten.mean.dim", mean_dim<false>},
    {"aten.nanmean.default", mean_dim<true>},
    {"aten.prod.default", prod_default},
    {"aten.prod.dim_int", prod_dim},
    {"aten.amax.default", amax<true>},
    {"aten.amin.default", amax<false>},
    {"aten.max.dim", values_indices_dim<kMax>},
    {"aten.min.dim", values_indices_dim<kMin>},
    {"aten.median.dim", values_indices_dim<kMedian>},
    {"aten.nanmedian.dim", values_indices_dim<kNanmedian>},
    {"aten.mode.default", values_indices_dim<kMode>},
    {"aten.max.default", full_reduction_nonempty<kMax>},
    {"aten.min.default", full_reduction_nonempty<kMin>},
    {"aten.median.default", full_reduction_nonempty<kMedian>},
    {"aten.nanmedian.default", full_reduction_nonempty<kNanmedian>},
    {"aten.argmax.default", argmax<kArgmax>},
    {"aten.argmin.default", argmax<kArgmin>},
    {"aten.aminmax.default", aminmax},
    {"aten.std.default", std_default},
    {"aten.var.default", std_default},
    {"aten.std.dim", std_dim<3>},
    {"aten.var.dim", std_dim<3>},
    {"aten.std.correction", std_dim<kNoArg>},
    {"aten.var.correction", std_dim<kNoArg>},
    {"aten.std_mean.default", std_mean_default},
    {"aten.var_mean.default", std_mean_default},
    {"aten.std_mean.dim", std_mean<3>},
    {"aten.var_mean.dim", std_mean<3>},
    {"aten.std_mean.correction", std_mean<kNoArg>},
    {"aten.var_mean.correction", std_mean<kNoArg>},
    {"aten.logsumexp.default", logsumexp},
    {"aten.any.default", any_default},
    {"aten.all.default", any_default},
    {"aten.any.dim", any_dim},
    {"aten.all.dim", any_dim},
    {"aten.any.dims", any_dim},
    {"aten.all.dims", any_dim},
    {"aten.norm.Scalar", norm_all},
    {"aten.norm.ScalarOpt_dtype", norm_all},
    {"aten.norm.ScalarOpt_dim", norm_dim},
    {"aten.norm.ScalarOpt_dim_dtype", norm_dim},
    {"aten.linalg_vector_norm.default", norm_dim},
    {"aten.frobenius_norm.dim", frobenius_norm},
    {"aten.frobenius_norm.default", frobenius_norm},
    {"aten.count_nonzero.dim_IntList", count_nonzero},
    {"aten.count_nonzero.default", count_nonzero},
    {"aten.cumsum.default", cumsum},
    {"aten.cumprod.default", cumsum},
    {"aten.logcumsumexp.default", logcumsumexp},
    {"aten.cummax.default", cummax},
    {"aten.cummin.default", cummax},
};

}  // namespace

std::span<const OpRuleEntry> reduce_rules() { return kRules; }

std::span<const OpRuleEntry> reduction_rules() {
  // the family's sub-tables, concatenated once
  static const std::vector<OpRuleEntry> all = [] {
    std::vector<OpRuleEntry> v;
    for (auto t : {reduce_rules(), sort_rules(), norm_rules(), loss_rules(), matrix_norm_rules(), histogram_rules()})
      v.insert(v.end(), t.begin(), t.end());
    return v;
  }();
  return all;
}

}  // namespace symshape
