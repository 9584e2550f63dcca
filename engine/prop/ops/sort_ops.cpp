// Sort family (semantics.md H.21): sort / argsort keep the input's shape with dense
// strides in the input's order (eager's sort meta); topk / kthvalue select k entries
// along a dim into contiguous results; indices are int64.
#include "prop/memory_format.h"
#include "prop/ops/reduction_common.h"

namespace symshape {

namespace {

// sort's output strides: the input's when non-overlapping and dense, else dense strides
// in the input's order.
void sort_strides(PropContext& ctx, TensorId self, Dims& strides) {
  empty_like_strides(ctx, self, MemoryFormat::Preserve, strides);
}

ArgId dim_arg(PropContext& ctx, size_t positional) {
  const ArgId a = ctx.arg(positional);
  return a.valid() ? a : ctx.kwarg(Key::dim);
}

int64_t sort_dim(PropContext& ctx, TensorId self, ArgId a) {
  return ctx.wrap_dim(ctx.is_none(a) ? -1 : ctx.int_const(a), ctx.vals.rank(self));
}

// sort.default(self, dim, descending) / sort.stable(self, *, stable, dim, descending)
template <size_t DimArg>
void sort(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  sort_dim(ctx, self, dim_arg(ctx, DimArg));
  Dims strides;
  sort_strides(ctx, self, strides);
  const TensorId ts[] = {ctx.new_tensor(ctx.vals.dtype(self), ctx.vals.sizes(self), strides),
                         ctx.new_tensor(DType::Int64, ctx.vals.sizes(self), strides)};
  ctx.set_tensors(ts);
}

template <size_t DimArg>
void argsort(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  sort_dim(ctx, self, dim_arg(ctx, DimArg));
  Dims strides;
  sort_strides(ctx, self, strides);
  ctx.set_tensor(ctx.new_tensor(DType::Int64, ctx.vals.sizes(self), strides));
}

// msort(self) = sort(self, dim=0).values (eager calls at::sort)
void msort(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  Dims strides;
  sort_strides(ctx, self, strides);
  ctx.set_tensor(ctx.new_tensor(ctx.vals.dtype(self), ctx.vals.sizes(self), strides));
}

// topk(self, k, dim=-1, largest, sorted): 0 <= k <= size(dim)
void topk(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId self = ctx.tensor_arg(0);
  const ExprId k = ctx.int_expr(ctx.arg(1));
  const int64_t d = sort_dim(ctx, self, ctx.arg(2));
  const bool scalar = ctx.vals.rank(self) == 0;
  const ExprId slice = scalar ? ar.one() : ctx.vals.sizes(self)[d];
  ctx.check(ar.logical_and(ar.ge(k, ar.zero()), ar.le(k, slice)), "selected index k out of range");
  Dims sizes(ctx.vals.sizes(self));
  if (!scalar) sizes[d] = k;
  const TensorId ts[] = {ctx.new_contiguous(ctx.vals.dtype(self), sizes), ctx.new_contiguous(DType::Int64, sizes)};
  ctx.set_tensors(ts);
}

// kthvalue(self, k, dim=-1, keepdim): 1 <= k <= size(dim); reduced (values, indices)
void kthvalue(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId self = ctx.tensor_arg(0);
  const ExprId k = ctx.int_expr(ctx.arg(1));
  const int64_t d = sort_dim(ctx, self, ctx.arg(2));
  const bool scalar = ctx.vals.rank(self) == 0;
  const ExprId slice = scalar ? ar.one() : ctx.vals.sizes(self)[d];
  check_nonzero_reduced(ctx, self, d, d, "kthvalue()");
  ctx.check(ar.logical_and(ar.ge(k, ar.one()), ar.le(k, slice)),
            "kthvalue(): selected number k out of range for dimension {}", d);
  Dims out;
  reduced_shape(ctx.vals.sizes(self), scalar ? 0u : 1u << d, keepdim_arg(ctx, 3), ar.one(), out);
  const TensorId ts[] = {ctx.new_contiguous(ctx.vals.dtype(self), out), ctx.new_contiguous(DType::Int64, out)};
  ctx.set_tensors(ts);
}

constexpr size_t kKwarg = 64;  // dim is keyword-only in the .stable overloads

constexpr OpRuleEntry kRules[] = {
    {"aten.sort.default", sort<1>},
    {"aten.sort.stable", sort<kKwarg>},
    {"aten.argsort.default", argsort<1>},
    {"aten.argsort.stable", argsort<kKwarg>},
    {"aten.msort.default", msort},
    {"aten.topk.default", topk},
    {"aten.kthvalue.default", kthvalue},
};

}  // namespace

std::span<const OpRuleEntry> sort_rules() { return kRules; }

}  // namespace symshape
