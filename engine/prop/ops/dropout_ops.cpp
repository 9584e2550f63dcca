// Dropout family on CPU (eager 1.13 `_dropout_impl`): identity when not training, p == 0
// or the input is empty; otherwise input * noise, a TensorIterator product whose noise
// is a contiguous tensor of the input's shape (or (N, C, 1, ...) for feature dropout).
#include "prop/memory_format.h"
#include "prop/ops/elementwise_common.h"
#include "prop/shape_helpers.h"

namespace symshape {

namespace {

// True when the op returns its input unchanged.
bool dropout_is_identity(PropContext& ctx, TensorId input, double p, bool train) {
  if (!(p >= 0 && p <= 1)) ctx.fail("dropout probability has to be between 0 and 1, but got {}", p);
  if (p == 0 || !train) return true;
  return ctx.guard_or_false(ctx.ar.eq(numel(ctx, ctx.vals.sizes(input)), ctx.ar.zero()));
}

// input * noise, laid out by TensorIterator (p == 1 multiplies by a 0-dim zero instead).
TensorId dropout_product(PropContext& ctx, TensorId input, double p, bool feature) {
  const Dims sizes(ctx.vals.sizes(input));  // a copy: new tensors may move the value table
  Dims strides;
  if (p == 1) {
    const TensorId one[] = {input};
    elementwise_strides(ctx, one, sizes, strides, /*has_cpu_scalar=*/true);
    return ctx.new_tensor(ctx.vals.dtype(input), sizes, strides);
  }
  Dims noise_shape(sizes);
  if (feature)
    for (size_t i = 2; i < noise_shape.size(); ++i) noise_shape[i] = ctx.ar.one();
  const TensorId ops[] = {input, ctx.new_contiguous(ctx.vals.dtype(input), noise_shape)};
  elementwise_strides(ctx, ops, sizes, strides);
  return ctx.new_tensor(ctx.vals.dtype(input), sizes, strides);
}

// dropout / alpha_dropout / feature_dropout / feature_alpha_dropout(input, p, train)
template <bool Feature, bool Alpha>
void dropout(PropContext& ctx) {
  const TensorId input = ctx.tensor_arg(0);
  const double p = ctx.float_const(ctx.arg(1));
  const bool train = ctx.bool_const(ctx.arg(2));
  if (Feature && ctx.vals.rank(input) < 2 && train && p != 0)
    ctx.fail("Feature dropout requires at least 2 dimensions in the input");
  if (dropout_is_identity(ctx, input, p, train)) {
    // PyTorch 2.x under the Python dispatcher (export, Dynamo) runs aten.dropout's
    // CompositeImplicitAutograd decomposition (torch/_decomp/decompositions.py dropout):
    // `input.clone()` when not training or p == 0, whose prims.clone meta takes
    // compute_elementwise_output_strides of the input: rank >= 2 asks whether it is
    // non-overlapping and dense (then its strides), and lays out a tensor that is not as
    // refs' empty_like (its permutation's questions, dense strides in the input's order).
    // Eager returns the input itself, and so does symshape unless FakeTensorMode's strides
    // are asked for (ReferenceHost::fake_strides): only the questions differ.
    if (!Feature && !Alpha && (!train || p == 0)) {
      Dims strides;
      prims_clone_strides(ctx, input, strides);
      if (ctx.host.fake_strides) {
        const Dims sizes(ctx.vals.sizes(input));
        return ctx.set_tensor(ctx.new_tensor(ctx.vals.dtype(input), sizes, strides));
      }
    }
    return ctx.set_tensor(input);
  }
  ctx.set_tensor(dropout_product(ctx, input, p, Feature));
}

template <bool Feature>
void dropout_(PropContext& ctx) {
  ctx.set_tensor(ctx.tensor_arg(0));
}

// native_dropout(input, p, train?) -> (output, bool mask)
void native_dropout(PropContext& ctx) {
  const TensorId input = ctx.tensor_arg(0);
  const bool train = ctx.is_none(ctx.arg(2)) || ctx.bool_const(ctx.arg(2));
  const Dims sizes(ctx.vals.sizes(input));  // a copy: new tensors may move the value table
  Dims strides;
  if (ctx.guard_or_false(ctx.ar.eq(numel(ctx, sizes), ctx.ar.zero()))) {
    empty_like_strides(ctx, input, MemoryFormat::Preserve, strides);
    const TensorId out[] = {input, ctx.new_tensor(ctx.vals.dtype(input), sizes, strides)};
    return ctx.set_tensors(out);
  }
  if (train) {
    // 1.13 native_dropout_cpu: mask = empty_like(input, bool) (preserve format), then
    // output = input.mul(mask).mul_(scale), a TensorIterator product of input and mask.
    Dims mask_strides;
    empty_like_strides(ctx, input, MemoryFormat::Preserve, mask_strides);
    const TensorId mask = ctx.new_tensor(DType::Bool, sizes, mask_strides);
    const TensorId ops[] = {input, mask};
    elementwise_strides(ctx, ops, sizes, strides);
    const TensorId out[] = {ctx.new_tensor(ctx.vals.dtype(input), sizes, strides), mask};
    return ctx.set_tensors(out);
  }
  // eval: a clone and a ones_like mask, both preserving the input's layout
  empty_like_strides(ctx, input, MemoryFormat::Preserve, strides);
  const TensorId out[] = {ctx.new_tensor(ctx.vals.dtype(input), sizes, strides), ctx.new_tensor(DType::Bool, sizes, strides)};
  ctx.set_tensors(out);
}

constexpr OpRuleEntry kRules[] = {
    {"aten.dropout.default", dropout<false, false>},
    {"aten.alpha_dropout.default", dropout<false, true>},
    {"aten.feature_dropout.default", dropout<true, false>},
    {"aten.feature_alpha_dropout.default", dropout<true, true>},
    {"aten.dropout_.default", dropout_<false>},
    {"aten.alpha_dropout_.default", dropout_<false>},
    {"aten.feature_dropout_.default", dropout_<true>},
    {"aten.feature_alpha_dropout_.default", dropout_<true>},
    {"aten.native_dropout.default", native_dropout},
};

}  // namespace

std::span<const OpRuleEntry> dropout_rules() { return kRules; }

}  // namespace symshape
