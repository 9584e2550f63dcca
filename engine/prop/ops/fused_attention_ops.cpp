// The fused scaled-dot-product-attention kernels that scaled_dot_product_attention
// dispatches to (PyTorch 2.x; 1.13 has none). Inputs are (B, H, L, E) query and
// (B, H, S, E) key / value; the layouts follow the kernels' allocations:
// - _scaled_dot_product_flash_attention_for_cpu: output empty_like(query) (2.x's meta in
//   torch/_meta_registrations.py and the CPU kernel agree: measured with 2.13 and 2.14 on
//   contiguous and transposed queries); logsumexp allocated (B, L, H) and transposed to
//   (B, H, L), in the op-math dtype (float32, float64 for float64).
// - _scaled_dot_product_flash_attention: output = empty_like(query.transpose(1, 2))
//   transposed back; logsumexp (B, H, L) float32, max_q / max_k ints, int64 philox
//   seed / offset scalars, and the debug mask (empty unless requested).
// - _scaled_dot_product_efficient_attention: output (B, L, H, Ev) transposed;
//   logsumexp (B, H, ceil(L / 32) * 32) float32 when requested, else (B, H, 0).
#include "prop/dtype_rules.h"
#include "prop/memory_format.h"
#include "prop/shape_helpers.h"
#include "prop/ops/matmul_family.h"

namespace symshape::mm {

namespace {

// (B, X, Y, Z) allocated contiguous, returned as .transpose(1, 2): sizes (B, Y, X, Z).
TensorId transposed_alloc(PropContext& ctx, DType dtype, std::span<const ExprId> alloc) {
  Dims strides;
  ctx.contiguous_strides(alloc, strides);
  Dims sizes(alloc);
  std::swap(sizes[1], sizes[2]);
  std::swap(strides[1], strides[2]);
  return ctx.new_tensor(dtype, sizes, strides);
}

// A tensor operand the meta function reads with .size(3): IndexError below rank 4.
void need_rank4(PropContext& ctx, TensorId t) { ctx.wrap_dim(3, ctx.vals.rank(t)); }

// _scaled_dot_product_flash_attention_for_cpu(query, key, value, dropout_p=0.0,
// is_causal=False, *, attn_mask=None, scale=None) -> (output, logsumexp)
void flash_attention_cpu(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId q = ctx.tensor_arg(0), k = ctx.tensor_arg(1), v = ctx.tensor_arg(2);
  const DType dtype = ctx.vals.dtype(q);
  if (!is_floating(dtype))
    ctx.fail("scaled_dot_product_attention_flash_attention: Expected data type in FP32, FP64, BF16, FP16, but got {} "
             "instead.",
             scalar_type_name(dtype));
  if (ctx.vals.rank(q) != 4 || ctx.vals.rank(k) != 4 || ctx.vals.rank(v) != 4)
    ctx.fail("scaled_dot_product_attention_flash_attention: Accept only 4 dims inputs shape of {{B, H, T, K}}");
  if (!ctx.is_none(ctx.arg(3)) && ctx.float_const(ctx.arg(3)) != 0.0)
    ctx.fail("scaled_dot_product_attention_flash_attention: Currently do not support dropout > 0");
  const Dims sq(ctx.vals.sizes(q)), sk(ctx.vals.sizes(k)), sv(ctx.vals.sizes(v));
  if (!holds(ctx, ar.logical_and(ar.eq(sq[3], sv[3]), ar.eq(sk[3], sv[3]))))
    ctx.fail("scaled_dot_product_attention_flash_attention: Q/K/V should have the same head size");
  if (const std::optional<TensorId> mask = ctx.opt_tensor(ctx.kwarg(Key::attn_mask))) {
    const DType md = ctx.vals.dtype(*mask);
    if (md != DType::Float32 && md != dtype)
      ctx.fail("scaled_dot_product_attention_flash_attention: Attention mask is the same data type as query");
    const uint32_t mr = ctx.vals.rank(*mask);
    if (mr != 2 && mr != 4)
      ctx.fail("scaled_dot_product_attention_flash_attention: Attention mask dim in {{2, 4}}");
  }
  // output: empty_like(query) (2.x meta and CPU kernel: the query's layout, dense strides
  // in its order when it is not dense); logsumexp (B, L, H) transposed
  Dims ostrides;
  refs_empty_like_strides(ctx, q, ostrides);  // the meta's empty_like is torch._refs'
  const ExprId lse_alloc[] = {sq[0], sq[2], sq[1]};
  const DType acc = dtype == DType::Float64 ? DType::Float64 : DType::Float32;
  const TensorId out[] = {ctx.new_tensor(dtype, sq, ostrides), transposed_alloc(ctx, acc, lse_alloc)};
  ctx.set_tensors(out);
}

// _scaled_dot_product_flash_attention(query, key, value, dropout_p=0.0, is_causal=False,
// return_debug_mask=False, *, scale=None) -> (output, logsumexp, cum_seq_q, cum_seq_k,
// max_q, max_k, philox_seed, philox_offset, debug_attn_mask)
void flash_attention(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId q = ctx.tensor_arg(0), k = ctx.tensor_arg(1);
  need_rank4(ctx, q);
  ctx.wrap_dim(2, ctx.vals.rank(k));
  const Dims sq(ctx.vals.sizes(q)), st(ctx.vals.strides(q));
  const ExprId batch = sq[0], heads = sq[1], L = sq[2], head_dim = sq[3];
  const ExprId S = ctx.vals.sizes(k)[2];
  const DType dtype = ctx.vals.dtype(q);
  // empty_like(query.transpose(1, 2)).transpose(1, 2)
  Dims tsizes(sq), tstrides(st);
  std::swap(tsizes[1], tsizes[2]);
  std::swap(tstrides[1], tstrides[2]);
  const TensorId qt = ctx.new_view(q, tsizes, tstrides, ctx.vals.tensor(q).storage_offset);
  Dims like;
  refs_empty_like_strides(ctx, qt, like);
  std::swap(like[1], like[2]);
  const TensorId attention = ctx.new_tensor(dtype, sq, like);
  const ExprId lse_sizes[] = {batch, heads, L};
  const TensorId lse = ctx.new_contiguous(DType::Float32, lse_sizes);
  const TensorId seed = ctx.new_contiguous(DType::Int64, {});
  const TensorId offset = ctx.new_contiguous(DType::Int64, {});
  TensorId debug;
  if (ctx.bool_const(ctx.arg(5))) {
    const ExprId block = ar.integer(ctx.guard(ar.gt(head_dim, ar.integer(64))) ? 128 : 256);
    ExprId max_k = ar.ceildiv(L, block);
    if (ctx.guard(ar.le(S, ar.integer(128))))
      max_k = ar.integer(128);
    else if (ctx.guard(ar.le(S, ar.integer(256))))
      max_k = ar.integer(256);
    const ExprId sizes[] = {batch, heads, L, max_k};
    debug = ctx.new_contiguous(dtype, sizes);
  } else {
    const ExprId sizes[] = {ar.zero()};
    debug = ctx.new_contiguous(dtype, sizes);
  }
  ValueTable& vals = ctx.vals;
  vals.begin_list();
  vals.list_push(vals.of_tensor(attention));
  vals.list_push(vals.of_tensor(lse));
  vals.list_push(vals.none());
  vals.list_push(vals.none());
  vals.list_push(vals.of_int(L));
  vals.list_push(vals.of_int(S));
  vals.list_push(vals.of_tensor(seed));
  vals.list_push(vals.of_tensor(offset));
  vals.list_push(vals.of_tensor(debug));
  ctx.set_value(vals.end_list());
}

// _scaled_dot_product_efficient_attention(query, key, value, attn_bias, compute_log_sumexp,
// dropout_p=0.0, is_causal=False, *, scale=None) -> (output, log_sumexp, philox_seed,
// philox_offset)
void efficient_attention(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId q = ctx.tensor_arg(0), v = ctx.tensor_arg(2);
  need_rank4(ctx, q);
  need_rank4(ctx, v);
  const Dims sq(ctx.vals.sizes(q));
  const ExprId batch = sq[0], heads = sq[1], M = sq[2];
  const ExprId out_alloc[] = {batch, M, heads, ctx.vals.sizes(v)[3]};
  const TensorId out = transposed_alloc(ctx, ctx.vals.dtype(q), out_alloc);
  const ExprId thirty_two = ar.integer(32);
  const ExprId lse_dim = ctx.bool_const(ctx.arg(4)) ? ar.mul(ar.ceildiv(M, thirty_two), thirty_two) : ar.zero();
  const ExprId lse_sizes[] = {batch, heads, lse_dim};
  const TensorId ts[] = {out, ctx.new_contiguous(DType::Float32, lse_sizes), ctx.new_contiguous(DType::Int64, {}),
                         ctx.new_contiguous(DType::Int64, {})};
  ctx.set_tensors(ts);
}

constexpr OpRuleEntry kRules[] = {
    {"aten._scaled_dot_product_flash_attention_for_cpu.default", flash_attention_cpu},
    {"aten._scaled_dot_product_flash_attention.default", flash_attention},
    {"aten._scaled_dot_product_efficient_attention.default", efficient_attention},
};

}  // namespace

std::span<const OpRuleEntry> fused_attention_rules() { return kRules; }

}  // namespace symshape::mm
