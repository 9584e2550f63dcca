#pragma once
// Helpers shared by the reduction-family rule files (reductions, scans, sort family,
// normalisation / softmax) and the sub-tables reduction_rules() concatenates.
#include <span>

#include "prop/context.h"
#include "prop/rules.h"

namespace symshape {

// The reduced dims of `dim_arg` (an int, an int list, or None) as a bitmask over `rank`
// dims; None (and, when `empty_is_all`, an empty list) selects every dim.
uint32_t reduction_dims(PropContext& ctx, ArgId dim_arg, int64_t rank, bool empty_is_all = true);

// Sizes after reducing the dims in `mask` (kept as 1 with keepdim).
void reduced_shape(std::span<const ExprId> sizes, uint32_t mask, bool keepdim, ExprId one, Dims& out);

// Identity-less reductions (amax, max.dim, argmax, ...) reject reducing a size-0 dim:
// "<fn>: Expected reduction dim <d> to have non-zero size." (d as given).
void check_nonzero_reduced(PropContext& ctx, TensorId self, int64_t given_dim, int64_t wrapped, std::string_view fn);

// A keepdim argument: positional `i` when present, else the keepdim kwarg, else false.
bool keepdim_arg(PropContext& ctx, size_t i);

std::span<const OpRuleEntry> reduce_rules();  // sum / mean / amax / max.dim / argmax / std / var / norms / any / all / scans
std::span<const OpRuleEntry> sort_rules();    // sort / argsort / topk / kthvalue / median / mode
std::span<const OpRuleEntry> norm_rules();    // softmax / log_softmax / layer, batch, group, instance, rms norm
std::span<const OpRuleEntry> loss_rules();    // pointwise losses, nll / cross-entropy, cosine_similarity
std::span<const OpRuleEntry> histogram_rules();  // histogram_ops.cpp: histc
std::span<const OpRuleEntry> matrix_norm_rules();  // linalg_norm / linalg_matrix_norm

}  // namespace symshape
