// scaled_dot_product_attention (semantics.md H.23, a "current" op: 1.13 has none):
// q (..., Hq, L, E), k (..., H, S, E), v (..., H, S, Ev) -> (..., Hq, L, Ev).
// Batch dims broadcast; with enable_gqa the key/value heads repeat to Hq (Hq % H == 0);
// an attention mask must broadcast to (..., Hq, L, S).
//
// Output layout, PyTorch 2.x on CPU (aten/src/ATen/native/transformers/attention.cpp
// `scaled_dot_product_attention`): `_fused_sdp_choice_cpp` -> `sdp::select_sdp_backend_cpp`
// (sdp_utils_cpp.{h,cpp}) picks flash attention when `use_flash_attention_cpp` holds, else
// the math fallback. Flash runs `_scaled_dot_product_flash_attention_for_cpu`, whose output
// is `empty_like(query)` (its meta in torch/_meta_registrations.py, and the CPU kernel:
// measured with 2.13 / 2.14 on contiguous, BLHE, LBHE, HBLE and sliced queries); math runs
// `_scaled_dot_product_attention_math`, whose result is `matmul(attn, value)`: contiguous.
// The selection's size comparisons are SymInt comparisons in C++, so each one the ranges
// do not decide is a guard, asked in the C++ order (`flash_selected`).
//
// 2.14 selects flash for two more kinds of input (sdp_utils_cpp.h of 2.14): unbatched 3-d
// q, k, v (`normalize_unbatched_input` gives them, and the mask up to 4-d, a leading 1), and
// key / value heads of 1 against more query heads (`check_batch_size_and_num_heads_dense`'s
// `supports_mqa`: `q_num_heads > 0 && k_num_heads == 1 && v_num_heads == 1`); 2.13 runs the
// math path for both. The graph's producer picks (ReferenceHost::eager_torch).
#include "prop/fake_elementwise_questions.h"
#include "prop/memory_format.h"
#include "prop/ops/matmul_family.h"
#include "prop/shape_helpers.h"

namespace symshape::mm {

namespace {

// sdp::use_flash_attention_cpp (PyTorch 2.13 / 2.14, CPU): the gate functions in order,
// each comparison of a symbolic size a guard (`==` / `!=` on SymInt), `&&` / `||`
// short-circuiting as written. Not modelled: the runtime flags (flash and math enabled,
// `torch.nn.attention.sdpa_kernel`), nested tensors, a mask that requires grad (export
// traces without grad).
bool flash_selected(PropContext& ctx, TensorId q, TensorId k, TensorId v, std::optional<TensorId> mask, double dropout,
                    bool gqa) {
  ExprArena& ar = ctx.ar;
  auto eq = [&](ExprId a, ExprId b) { return ctx.guard(ar.eq(a, b)); };
  auto eq_c = [&](ExprId a, int64_t c) { return ctx.guard(ar.eq(a, ar.integer(c))); };
  const bool v2_14 = ctx.host.eager_torch >= TorchVersion{2, 14};
  Dims sq(ctx.vals.sizes(q)), sk(ctx.vals.sizes(k)), sv(ctx.vals.sizes(v)), sm;
  if (mask) sm.assign(ctx.vals.sizes(*mask));
  // 2.14 normalize_unbatched_input: 3-d q, k and v (strided, not nested) are unsqueezed to
  // 4-d, the mask while it has fewer than 4 dims
  if (v2_14 && sq.size() == 3 && sk.size() == 3 && sv.size() == 3) {
    for (Dims* d : {&sq, &sk, &sv}) d->insert(0, ar.one());
    while (mask && sm.size() < 4) sm.insert(0, ar.one());
  }
  // check_for_dropout
  if (dropout > 0.0) return false;
  // check_tensor_shapes: all three 4-d
  if (sq.size() != 4 || sk.size() != 4 || sv.size() != 4) return false;
  // check_batch_size_and_num_heads_dense<supports_gqa = true>: both flags computed first
  const bool same_batch = eq(sq[0], sk[0]) && eq(sq[0], sv[0]);
  const bool same_heads = eq(sq[1], sk[1]) && eq(sq[1], sv[1]);
  if (!same_batch) return false;
  if (gqa) {
    // check_grouped_query_attention
    if (!eq(sk[1], sv[1])) return false;
    if (ctx.guard(ar.ne(ar.mod(sq[1], sk[1]), ar.zero()))) return false;
  } else if (!same_heads) {
    // 2.14's supports_mqa (use_flash_attention_cpp): one key / value head serves them all
    if (!(v2_14 && ctx.guard(ar.gt(sq[1], ar.zero())) && eq_c(sk[1], 1) && eq_c(sv[1], 1))) return false;
  }
  // check_attn_mask_shape
  if (mask) {
    const size_t mr = sm.size();
    if (mr < 2) return false;  // sym_size(-2) of a 1-d mask: validate_sdpa_input refused it earlier
    if (!eq(sm[mr - 2], sq[2]) && !eq_c(sm[mr - 2], 1)) return false;
    if (!eq(sm[mr - 1], sk[2]) && !eq_c(sm[mr - 1], 1)) return false;
    if (mr != 2) {
      if (mr != 4) return false;
      if (!((eq_c(sm[0], 1) || eq(sm[0], sq[0])) && (eq_c(sm[1], 1) || eq(sm[1], sq[1])))) return false;
    }
  }
  // check_head_dim_size_cpp (TORCH_GUARD_OR_FALSE)
  if (!(ctx.guard_or_false(ar.eq(sq[3], sk[3])) && ctx.guard_or_false(ar.eq(sq[3], sv[3])))) return false;
  // check_nonzero_sequence_lengths_dense: both computed
  const bool zero_q = eq_c(sq[2], 0);
  const bool zero_k = eq_c(sk[2], 0);
  if (zero_q || zero_k) return false;
  // check_last_dim_stride_equals_1_dense<false>: the mask's last stride is asked too,
  // though a CPU query ignores the answer
  const bool strides_1 = eq_c(ctx.vals.strides(q).back(), 1) && eq_c(ctx.vals.strides(k).back(), 1) &&
                         eq_c(ctx.vals.strides(v).back(), 1);
  if (mask) (void)eq_c(ctx.vals.strides(*mask).back(), 1);
  if (!strides_1) return false;
  // check_tensor_dtype: q, k, v one of float32, float64, bfloat16, float16 (equal: checked
  // by the caller)
  const DType dt = ctx.vals.dtype(q);
  return dt == DType::Float32 || dt == DType::Float64 || dt == DType::BFloat16 || dt == DType::Float16;
}

// ---- the math fallback, as FakeTensorMode runs it ------------------------------------------
// `_scaled_dot_product_attention_math` (attention.cpp) is C++ calling aten ops, each
// dispatched to FakeTensorMode on its own: the ops below, in its order, ask their questions
// of intermediate tensors laid out as FakeTensorMode lays them out. Traced on 2.13 with a
// chunked query (lowformer's last stride S): `q * scale` is aten.mul.Scalar, run by
// torch._refs through prims.mul (the layout sort's `S <= 1`, `Mod(1, S) == 0`), the scores are
// the matmul decomposition's bmm, `_safe_softmax` runs its torch/_decomp decomposition.

// convert_boolean_attn_mask: a bool mask becomes `where(mask, 0.0, -inf)` (two 0-d CPU
// scalars: only the mask is laid out); any other mask passes unchanged.
TensorId converted_attn_mask(PropContext& ctx, TensorId mask, DType dtype) {
  if (ctx.vals.dtype(mask) != DType::Bool) return mask;
  return refs_pointwise(ctx, mask, dtype);
}

// `attn + mask` through aten.add.Tensor: fake_impls' binary fast path first, torch._refs
// when it declines.
TensorId add_through_fast_path(PropContext& ctx, TensorId a, TensorId b) {
  const Dims sa(ctx.vals.sizes(a)), sta(ctx.vals.strides(a)), sb(ctx.vals.sizes(b)), stb(ctx.vals.strides(b));
  const OperandLayout ops[] = {{sa, sta}, {sb, stb}};
  Dims shape, strides;
  MemoryFormat format = MemoryFormat::Contiguous;
  if (!fake_binary_fast_path_guards(ctx, ops, &shape, &format)) {
    const TensorId ts[] = {a, b};
    return refs_pointwise(ctx, ts, ctx.vals.dtype(a));
  }
  format_strides(ctx, shape, format, strides);
  return ctx.new_tensor(ctx.vals.dtype(a), shape, strides);
}

// torch/_decomp safe_softmax: softmax (a C++ meta, contiguous), `eq(-inf)`, all(dim,
// keepdim) (logical_not(any(logical_not(x))), any as a bool sum after `to`), zeros_like,
// where(masked_rows, zeros, out).
TensorId safe_softmax(PropContext& ctx, TensorId x) {
  const DType dt = ctx.vals.dtype(x);
  const Dims shape(ctx.vals.sizes(x));
  const TensorId out = ctx.new_contiguous(dt, shape);
  const TensorId masked = refs_pointwise(ctx, x, DType::Bool);
  const TensorId inverted = refs_pointwise(ctx, masked, DType::Bool);
  // `to(dtype)` of the sum: _to_copy's convert_element_type asks is_non_overlapping_and_dense
  (void)prims_is_non_overlapping_and_dense_or_false(ctx, {ctx.vals.sizes(inverted), ctx.vals.strides(inverted)});
  Dims rows(shape);
  rows.back() = ctx.ar.one();
  const TensorId any_rows = refs_pointwise(ctx, ctx.new_contiguous(DType::Bool, rows), DType::Bool);  // ne(sum, 0)
  const TensorId masked_rows = refs_pointwise(ctx, any_rows, DType::Bool);                            // logical_not
  const TensorId where_ops[] = {masked_rows, ctx.new_contiguous(dt, shape), out};
  return refs_pointwise(ctx, where_ops, dt);
}

// The math fallback's questions, in its order; its result (matmul(attn, value)) is
// contiguous, so only the guards are kept.
void sdpa_math_questions(PropContext& ctx, TensorId q, TensorId k, TensorId v, std::optional<TensorId> mask,
                         bool is_causal, std::span<const ExprId> batch) {
  const DType dt = ctx.vals.dtype(q);
  const TensorId q_scaled = refs_pointwise(ctx, q, dt);
  if (is_causal) {
    // ones((L, S), bool).tril(), then convert_boolean_attn_mask
    const ExprId ls[] = {ctx.vals.sizes(q)[ctx.vals.rank(q) - 2], ctx.vals.sizes(k)[ctx.vals.rank(k) - 2]};
    mask = converted_attn_mask(ctx, ctx.new_contiguous(DType::Bool, ls), dt);
  }
  // pre_process_group_query_attention_input: with enable_gqa the key / value heads are
  // repeated to the query's (repeat_interleave: a new contiguous tensor)
  auto with_batch = [&](TensorId t) {
    const auto s = ctx.vals.sizes(t);
    if (s.size() < 2 || s.size() - 2 != batch.size()) return t;
    bool same = true;
    for (size_t i = 0; same && i < batch.size(); ++i) same = s[i] == batch[i];
    if (same) return t;
    Dims full(batch);
    full.push_back(s[s.size() - 2]);
    full.push_back(s[s.size() - 1]);
    return ctx.new_contiguous(ctx.vals.dtype(t), full);
  };
  const TensorId k_full = with_batch(k), v_full = with_batch(v);
  const TensorId k_scaled = refs_pointwise(ctx, transposed_last2(ctx, k_full), dt);
  TensorId attn = matmul(ctx, q_scaled, k_scaled);
  if (mask) attn = add_through_fast_path(ctx, attn, *mask);
  attn = safe_softmax(ctx, attn);
  (void)matmul(ctx, attn, v_full);
}

// scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal, *,
// scale, enable_gqa)
void sdpa_rule(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId q = ctx.tensor_arg(0), k = ctx.tensor_arg(1), v = ctx.tensor_arg(2);
  const auto sq = ctx.vals.sizes(q), sk = ctx.vals.sizes(k), sv = ctx.vals.sizes(v);
  if (sq.size() < 2 || sk.size() < 2 || sv.size() < 2)
    ctx.fail("scaled_dot_product_attention: query, key and value must be at least 2-dimensional, got {}D, {}D and {}D",
             sq.size(), sk.size(), sv.size());
  if (ctx.vals.dtype(q) != ctx.vals.dtype(k) || ctx.vals.dtype(q) != ctx.vals.dtype(v))
    ctx.fail("Expected query, key, and value to have the same dtype");
  const ExprId L = sq[sq.size() - 2], E = sq.back();
  const ExprId S = sk[sk.size() - 2];
  if (!holds(ctx, ar.eq(sk.back(), E)))
    ctx.fail("Expected query and key to have the same embedding dimension, but got {} and {}", ctx.str(E),
             ctx.str(sk.back()));
  if (!holds(ctx, ar.eq(sv[sv.size() - 2], S)))
    ctx.fail("Expected key and value to have the same sequence length, but got {} and {}", ctx.str(S),
             ctx.str(sv[sv.size() - 2]));
  const ArgId gqa_arg = ctx.kwarg(Key::enable_gqa);
  const bool gqa = !ctx.is_none(gqa_arg) && ctx.bool_const(gqa_arg);
  Dims bq(sq.first(sq.size() - 2)), bk(sk.first(sk.size() - 2)), bv(sv.first(sv.size() - 2));
  if (gqa && !bq.empty() && !bk.empty() && !bv.empty()) {
    // key/value heads are repeated Hq / H times
    const ExprId hq = bq.back();
    for (Dims* b : {&bk, &bv}) {
      const ExprId h = b->back();
      if (!holds(ctx, ar.eq(ar.mod(hq, h), ar.zero())))
        ctx.fail("number of heads in key and value must divide the number of heads in query, got {} and {}",
                 ctx.str(h), ctx.str(hq));
      b->back() = hq;
    }
  }
  Dims batch, tmp;
  broadcast_shapes(ctx, bq, bk, tmp);
  broadcast_shapes(ctx, tmp, bv, batch);
  const std::optional<TensorId> mask = ctx.opt_tensor(ctx.arg(3).valid() ? ctx.arg(3) : ctx.kwarg(Key::attn_mask));
  if (mask) {
    Dims scores(batch), b;
    scores.push_back(L);
    scores.push_back(S);
    broadcast_shapes(ctx, ctx.vals.sizes(*mask), scores, b);
    bool same = b.size() == scores.size();
    for (size_t i = 0; same && i < b.size(); ++i) same = b[i] == scores[i] || ctx.known_true(ar.eq(b[i], scores[i]));
    if (!same)
      ctx.fail("attn_mask of shape {} does not broadcast to the attention scores of shape {}",
               ctx.shape_str(ctx.vals.sizes(*mask)), ctx.shape_str(scores));
  }
  Dims out(batch);
  out.push_back(L);
  out.push_back(sv.back());
  const ArgId dropout_arg = ctx.arg(4).valid() ? ctx.arg(4) : ctx.kwarg(Key::dropout_p);
  const double dropout = ctx.is_none(dropout_arg) ? 0.0 : ctx.float_const(dropout_arg);
  const ArgId causal_arg = ctx.arg(5).valid() ? ctx.arg(5) : ctx.kwarg(Key::is_causal);
  const bool is_causal = !ctx.is_none(causal_arg) && ctx.bool_const(causal_arg);
  const bool flash = flash_selected(ctx, q, k, v, mask, dropout, gqa);
  const std::optional<TensorId> converted = mask ? std::optional(converted_attn_mask(ctx, *mask, ctx.vals.dtype(q))) : mask;
  if (flash) {
    // _scaled_dot_product_flash_attention_for_cpu: empty_like(query) (sizes are q's: the
    // selection required equal batch, heads (or 2.14's one key / value head) and head dims;
    // 2.14's unbatched input gets the leading 1 back off, leaving q's layout)
    Dims strides;
    refs_empty_like_strides(ctx, q, strides);  // the meta's empty_like is torch._refs'
    ctx.set_tensor(ctx.new_tensor(ctx.vals.dtype(q), ctx.vals.sizes(q), strides));
    return;
  }
  // dropout > 0: the fallback's dropout questions are not modelled (eval exports have none)
  if (dropout == 0.0) {
    const std::span<const ExprId> gqa_batch = gqa ? std::span<const ExprId>(batch) : std::span<const ExprId>();
    sdpa_math_questions(ctx, q, k, v, converted, is_causal, gqa_batch);
  }
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(q), out));
}

constexpr OpRuleEntry kRules[] = {
    {"aten.scaled_dot_product_attention.default", sdpa_rule},
};

}  // namespace

std::span<const OpRuleEntry> attention_rules() { return kRules; }

}  // namespace symshape::mm
