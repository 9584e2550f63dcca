#pragma once
// Internal to the conv family (convolution, pooling, upsample, pad, im2col/col2im,
// pixel_shuffle): the rule functions each file defines, collected into conv_rules() by
// conv_ops.cpp, and the small helpers they share. Not a public API.
#include "prop/context.h"
#include "prop/rules.h"

namespace symshape::conv {

// torch._check-style test of a size condition: true when it holds (recording a guard or a
// deferred assert as needed). Callers build the error message only when it fails, so the
// success path formats nothing.
inline bool holds(PropContext& ctx, ExprId cond) {
  if (cond == ctx.ar.true_()) return true;
  if (cond == ctx.ar.false_()) return ctx.tolerate(cond);
  return ctx.require(cond);
}

// An int list argument with one entry per spatial dim: a single value is repeated
// (PyTorch's int[2] schema broadcasting). `op` and `arg` name it in the error.
void spatial_param(PropContext& ctx, ArgId a, size_t n, std::string_view op, std::string_view arg, IntDims& out);

// Removes dim `d` of a (sizes, strides) pair: squeeze of a size-1 dim.
void drop_dim(Dims& sizes, Dims& strides, size_t d);

// Views of `t` with a size-1 dim inserted at / removed from position `d` (Tensor::unsqueeze
// strides: size[d] * stride[d] of the dim it precedes, 1 at the end).
TensorId unsqueeze_view(PropContext& ctx, TensorId t, size_t d);
TensorId squeeze_view(PropContext& ctx, TensorId t, size_t d);

// Sets a tensor result laid out in `format` (Contiguous, ChannelsLast, ChannelsLast3d).
TensorId new_in_format(PropContext& ctx, DType dtype, std::span<const ExprId> sizes, MemoryFormat format);

// Output size of a pooling window along one dim (pooling_output_shape_pad_lr), with the
// ceil_mode rule that the last window must start inside the input or the left padding.
ExprId pooling_output_size(PropContext& ctx, ExprId in, int64_t k, int64_t pad_l, int64_t pad_r, int64_t stride,
                           int64_t dilation, bool ceil_mode);

// Eager avg_pool1d / avg_pool2d / avg_pool3d (count_include_pad, no divisor_override) on
// `in`, with one kernel / stride / padding entry per spatial dim (1, 2 or 3): the checks
// and output layout of the avg_pool rules (pool_ops.cpp).
TensorId avg_pool_tensor(PropContext& ctx, TensorId in, const IntDims& kernel, const IntDims& stride,
                         const IntDims& padding, bool ceil_mode);

// ---- rule tables, one per concept file; conv_ops.cpp concatenates them ----
std::span<const OpRuleEntry> convolution_rules();    // conv_ops.cpp
std::span<const OpRuleEntry> pool_rules();           // pool_ops.cpp
std::span<const OpRuleEntry> adaptive_pool_rules();  // adaptive_pool_ops.cpp
std::span<const OpRuleEntry> upsample_rules();       // upsample_ops.cpp
std::span<const OpRuleEntry> pad_rules();            // pad_ops.cpp
std::span<const OpRuleEntry> fold_rules();           // fold_ops.cpp (im2col, col2im, pixel_shuffle)
std::span<const OpRuleEntry> grid_sample_rules();    // grid_sample_ops.cpp (grid_sampler, affine_grid)
std::span<const OpRuleEntry> unpool_rules();         // unpool_ops.cpp (max_unpool, fractional_max_pool)
std::span<const OpRuleEntry> lp_pool_rules();        // lp_pool_ops.cpp (lp_pool1d/2d/3d as avg_pool of pow)

}  // namespace symshape::conv
