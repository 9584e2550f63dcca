#pragma once
// Internal to the matrix-product family: the per-concept rule tables that matmul_ops.cpp
// concatenates into matmul_rules(), and the helpers they share. Not a public API.
#include "prop/context.h"
#include "prop/rules.h"

namespace symshape::mm {

// torch._check-style size test; messages are formatted only on failure.
inline bool holds(PropContext& ctx, ExprId cond) {
  if (cond == ctx.ar.true_()) return true;
  if (cond == ctx.ar.false_()) return ctx.tolerate(cond);
  return ctx.require(cond);
}

// Tensor::expand's check that `sizes` can be expanded to `target` (the bias / self
// operands of addmm, baddbmm, addbmm, addr), with eager's message.
void check_expand(PropContext& ctx, std::span<const ExprId> sizes, std::span<const ExprId> target);

// The products eager composes matmul / linear from, on (sizes, dtype) of their operands;
// each checks like its ATen kernel and returns a contiguous result.
TensorId mm(PropContext& ctx, TensorId a, TensorId b);
TensorId mv(PropContext& ctx, TensorId a, TensorId v);
TensorId dot(PropContext& ctx, TensorId a, TensorId b);
TensorId matmul(PropContext& ctx, TensorId a, TensorId b);
// t.mT(): a view with the last two dims (sizes and strides) swapped.
TensorId transposed_last2(PropContext& ctx, TensorId t);

std::span<const OpRuleEntry> product_rules();    // matmul_ops.cpp: mm, bmm, addmm, ..., matmul, linear
std::span<const OpRuleEntry> einsum_rules();     // einsum_ops.cpp
std::span<const OpRuleEntry> attention_rules();  // attention_ops.cpp: scaled_dot_product_attention
std::span<const OpRuleEntry> fused_attention_rules();  // fused_attention_ops.cpp: flash / efficient sdpa kernels
std::span<const OpRuleEntry> distance_rules();         // distance_ops.cpp: pairwise_distance / cdist
std::span<const OpRuleEntry> rnn_rules();              // rnn_ops.cpp: lstm.input / gru.input
std::span<const OpRuleEntry> library_custom_rules();   // library_custom_ops.cpp: transformers.grouped_mm_fallback

}  // namespace symshape::mm
