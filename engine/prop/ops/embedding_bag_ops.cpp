// embedding_bag (eager 1.13 EmbeddingBag.cpp, CPU): four results
//   output      (num_bags, D) in weight's dtype, contiguous;
//   offset2bag  (indices.size(0),), or (0,) on the 'sum' fast path (float/half weight
//               with unit last stride, unit per_sample_weights stride, padding_idx < 0),
//               where the kernel never fills it;
//   bag_size    (num_bags,) when gradients are needed (_embedding_bag) or the mode is
//               mean / max, else offsets' shape (_embedding_bag_forward_only, sum);
//   max_indices (num_bags, D) for mode max, else bag_size's shape;
// with num_bags = offsets.size(0) - include_last_offset. The index results have the
// common dtype of indices and offsets (promoteIndicesAndOffsets). embedding_bag(...) and
// embedding_bag.padding_idx are the composite entry points: they wrap padding_idx and
// call _embedding_bag (a parameter weight requires grad).
#include "prop/dtype_rules.h"
#include "prop/ops/index_family.h"
#include "prop/ops/view_geometry.h"
#include "prop/shape_helpers.h"

namespace symshape {

namespace {

constexpr int64_t kSum = 0, kMean = 1, kMax = 2;

void bag(PropContext& ctx, bool forward_only, int64_t padding_idx) {
  ExprArena& ar = ctx.ar;
  const TensorId weight = ctx.tensor_arg(0), indices = ctx.tensor_arg(1), offsets = ctx.tensor_arg(2);
  const int64_t mode = ctx.is_none(ctx.arg(4)) ? kSum : ctx.int_const(ctx.arg(4));
  const std::optional<TensorId> psw = ctx.opt_tensor(ctx.arg(6));
  const bool include_last = ctx.bool_const(ctx.arg(7));
  const DType di = ctx.vals.dtype(indices), doff = ctx.vals.dtype(offsets), dw = ctx.vals.dtype(weight);
  if (di != DType::Int64 && di != DType::Int32)
    ctx.fail("expected indices to be long or int, got {}", scalar_type_name(di));
  if (doff != DType::Int64 && doff != DType::Int32)
    ctx.fail("expected offsets to be long or int, got {}", scalar_type_name(doff));
  if (!is_floating(dw)) ctx.fail("expected weight to be floating point type, got {}", scalar_type_name(dw));
  const uint32_t ri = ctx.vals.rank(indices), ro = ctx.vals.rank(offsets), rw = ctx.vals.rank(weight);
  if (ri != 1 && ri != 2) ctx.fail("input has to be a 1D or 2D Tensor, but got Tensor of dimension {}", ri);
  if (ri == 1 && ro != 1) ctx.fail("offsets has to be a 1D Tensor, but got Tensor of dimension {}", ro);
  if (rw != 2) ctx.fail("weight has to be a 2D Tensor, but got Tensor of dimension {}", rw);
  if (mode < kSum || mode > kMax) ctx.fail("mode has to be one of sum, mean or max");
  const DType index_dtype = promote_types(di, doff);
  const Dims offsets_shape(ctx.vals.sizes(offsets));
  const ExprId n_indices = ctx.vals.sizes(indices)[0];
  const ExprId dim = ctx.vals.sizes(weight)[1];
  ExprId num_bags = ro == 0 ? ar.one() : offsets_shape[0];
  if (include_last) {
    if (!holds(ctx, ar.ge(num_bags, ar.one()))) ctx.fail("include_last_offset: numBags should be at least 1");
    num_bags = ar.sub(num_bags, ar.one());
  }
  bool fast_path = (dw == DType::Float32 || dw == DType::Float16) && padding_idx < 0 &&
                   ctx.guard(ar.eq(ctx.vals.strides(weight)[1], ar.one()));
  if (psw) {
    if (mode != kSum) ctx.fail("embedding_bag: per_sample_weights only supported with mode='sum'");
    if (ctx.vals.dtype(*psw) != dw)
      ctx.fail("expected weight ({}) and per_sample_weights ({}) to have same dtype", scalar_type_name(dw),
               scalar_type_name(ctx.vals.dtype(*psw)));
    if (ctx.vals.rank(*psw) != 1)
      ctx.fail("expected per_sample_weights to be 1D tensor, got {}D", ctx.vals.rank(*psw));
    const ExprId pn = numel(ctx, ctx.vals.sizes(*psw)), in = numel(ctx, ctx.vals.sizes(indices));
    if (!holds(ctx, ar.eq(pn, in)))
      ctx.fail("expected per_sample_weights.numel() ({} to be the same as indices.numel() ({})", ctx.str(pn),
               ctx.str(in));
    fast_path = fast_path && ctx.guard(ar.eq(ctx.vals.strides(*psw)[0], ar.one()));
  }
  const ExprId out_sizes[] = {num_bags, dim};
  const TensorId output = ctx.new_contiguous(dw, out_sizes);
  const ExprId o2b[] = {mode != kSum || !fast_path ? n_indices : ar.zero()};
  const TensorId offset2bag = ctx.new_contiguous(index_dtype, o2b);
  Dims bag_shape;
  if (!forward_only || mode == kMean || mode == kMax)
    bag_shape.push_back(num_bags);
  else
    bag_shape = offsets_shape;
  const TensorId bag_size = ctx.new_contiguous(index_dtype, bag_shape);
  const TensorId max_indices = ctx.new_contiguous(index_dtype, mode == kMax ? std::span<const ExprId>(out_sizes)
                                                                            : std::span<const ExprId>(bag_shape));
  const TensorId out[] = {output, offset2bag, bag_size, max_indices};
  ctx.set_tensors(out);
}

// embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse,
// per_sample_weights, include_last_offset[, padding_idx]): padding_idx within
// [-num_embeddings, num_embeddings) and wrapped.
void embedding_bag(PropContext& ctx) {
  int64_t padding_idx = -1;
  if (!ctx.is_none(ctx.arg(8))) {
    ExprArena& ar = ctx.ar;
    padding_idx = ctx.int_const(ctx.arg(8));
    const TensorId weight = ctx.tensor_arg(0);
    if (ctx.vals.rank(weight) < 1) ctx.fail("weight has to be a 2D Tensor, but got Tensor of dimension 0");
    const ExprId n = ctx.vals.sizes(weight)[0], p = ar.integer(padding_idx);
    if (!holds(ctx, ar.logical_and(ar.ge(p, ar.neg(n)), ar.lt(p, n))))
      ctx.fail("padding_idx must be within the number of embeddings, -{} through {}, but got {}", ctx.str(n),
               ctx.str(ar.sub(n, ar.one())), padding_idx);
    if (padding_idx < 0) padding_idx = ctx.guard_int(ar.add(p, n));
  }
  bag(ctx, false, padding_idx);
}

// _embedding_bag / _embedding_bag_forward_only(..., include_last_offset, padding_idx=-1)
int64_t raw_padding_idx(PropContext& ctx) { return ctx.is_none(ctx.arg(8)) ? -1 : ctx.int_const(ctx.arg(8)); }
void embedding_bag_impl(PropContext& ctx) { bag(ctx, false, raw_padding_idx(ctx)); }
void embedding_bag_forward_only(PropContext& ctx) { bag(ctx, true, raw_padding_idx(ctx)); }

constexpr OpRuleEntry kEntries[] = {
    {"aten.embedding_bag.default", embedding_bag},
    {"aten.embedding_bag.padding_idx", embedding_bag},
    {"aten._embedding_bag.default", embedding_bag_impl},
    {"aten._embedding_bag_forward_only.default", embedding_bag_forward_only},
};

}  // namespace

std::span<const OpRuleEntry> embedding_bag_entries() { return kEntries; }

}  // namespace symshape
