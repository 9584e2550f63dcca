// Padding (semantics.md H.18): aten.pad (mode dispatch and its length checks),
// constant_pad_nd (negative pads crop; a result of crops only is a clone), reflection /
// replication pads (1-d/2-d/3-d) and circular padding, with eager 1.13's messages and
// layouts: constant_pad_nd keeps the input's suggested layout, the reflection / replication
// kernels write contiguous output. Pads may be symbolic (e.g. pad-to-multiple).
#include <fmt/format.h>

#include "prop/memory_format.h"
#include "prop/ops/conv_family.h"

namespace symshape::conv {

namespace {

enum class Mode : uint8_t { Constant, Reflect, Replicate, Circular };

bool is_neg(PropContext& ctx, ExprId e) { return ctx.guard(ctx.ar.lt(e, ctx.ar.zero())); }

// at::constant_pad_nd
TensorId constant_pad_nd(PropContext& ctx, TensorId in, const Dims& pad) {
  ExprArena& ar = ctx.ar;
  if (pad.size() % 2 != 0) ctx.fail("Length of pad must be even but instead it equals {}", pad.size());
  const auto s = ctx.vals.sizes(in);
  const size_t l_inp = s.size(), l_pad = pad.size() / 2;
  if (l_inp < l_pad)
    ctx.fail("Length of pad should be no more than twice the number of dimensions of the input. Pad length is {}while "
             "the input has {}dimensions.",
             pad.size(), l_inp);
  const size_t l_diff = l_inp - l_pad;
  Dims shape(s);
  // PyTorch 2.x's _constant_pad_nd_meta takes the crop path only when every pad is a plain
  // int <= 0; a symbolic pad never is, and its sign is not asked (no guard).
  bool all_non_positive = true;
  for (ExprId p : pad)
    if (!ar.is_integer_const(p) || ar.int_value(p) > 0) all_non_positive = false;
  for (size_t i = l_diff; i < l_inp; ++i) {
    const ExprId left = pad[2 * (l_inp - i - 1)], right = pad[2 * (l_inp - i - 1) + 1];
    shape[i] = ar.add(ar.add(s[i], left), right);
  }
  if (all_non_positive) {
    // only crops: narrow views, then clone (preserve_format)
    for (size_t i = l_diff; i < l_inp; ++i)
      if (is_neg(ctx, shape[i])) ctx.fail("narrow(): length must be non-negative.");
    const TensorId narrowed = ctx.new_view(in, shape, ctx.vals.strides(in), ctx.vals.tensor(in).storage_offset);
    // PyTorch 2.x's _constant_pad_nd_meta clones through prims.clone (its questions);
    // eager's clone keeps empty_like's preserve_format strides
    Dims fake_strides, strides;
    prims_clone_strides(ctx, narrowed, fake_strides);
    if (ctx.host.fake_strides) return ctx.new_tensor(ctx.vals.dtype(in), shape, fake_strides);
    empty_like_strides(ctx, narrowed, MemoryFormat::Preserve, strides);
    return ctx.new_tensor(ctx.vals.dtype(in), shape, strides);
  }
  // mixed signs: eager narrows by the negative pads first (left, then right), so each crop
  // must leave a non-negative length even when the positive pad would refill the dim; only
  // plain-int pads are known negative without a question
  for (size_t i = l_diff; i < l_inp; ++i) {
    const ExprId left = pad[2 * (l_inp - i - 1)], right = pad[2 * (l_inp - i - 1) + 1];
    ExprId kept = s[i];
    bool cropped = false;
    if (ar.is_integer_const(left) && ar.int_value(left) < 0) kept = ar.add(kept, left), cropped = true;
    if (ar.is_integer_const(right) && ar.int_value(right) < 0) kept = ar.add(kept, right), cropped = true;
    if (cropped && !holds(ctx, ar.ge(kept, ar.zero())))
      ctx.fail("start (0) + length ({}) exceeds dimension size ({}).", ctx.str(kept), ctx.str(s[i]));
  }
  // the padded size: 1.13's C++ requires > 0, 2.x's meta (and eager) >= 0
  const bool empty_dim_ok = ctx.host.eager_torch.major >= 2;
  for (size_t i = l_diff; i < l_inp; ++i) {
    if (!holds(ctx, empty_dim_ok ? ar.ge(shape[i], ar.zero()) : ar.gt(shape[i], ar.zero())))
      ctx.fail("The input size {}, plus negative padding {} and {} resulted in a negative output size, which is "
               "invalid. Check dimension {} of your input.",
               ctx.str(s[i]), ctx.str(pad[2 * (l_inp - i - 1)]), ctx.str(pad[2 * (l_inp - i - 1) + 1]), i);
  }
  return new_in_format(ctx, ctx.vals.dtype(in), shape, suggest_memory_format(ctx, in));
}

// reflection_pad{N}d: each pad < its input dim. The 2-d kernel (not structured in 1.13)
// names the input by its rank, the structured 1-d/3-d ones by its sizes.
template <size_t N>
TensorId reflection_pad(PropContext& ctx, TensorId in, const Dims& pad) {
  ExprArena& ar = ctx.ar;
  const auto s = ctx.vals.sizes(in);
  const size_t ndim = s.size();
  if (pad.size() != 2 * N) ctx.fail("padding size is expected to be {}", 2 * N);
  bool valid = ndim == N + 1 || ndim == N + 2;
  for (size_t i = ndim - N; valid && i < ndim; ++i) valid = !ctx.guard(ar.eq(s[i], ar.zero()));
  if (valid && ndim == N + 2) valid = !ctx.guard(ar.eq(s[1], ar.zero()));
  if (!valid)
    ctx.fail("{}D or {}D (batch mode) tensor expected for input, but got: {}", N + 1, N + 2, ctx.shape_str(s));
  Dims shape(s);
  // pads are (left, right, top, bottom, front, back) from the last dim backwards
  for (size_t j = 0; j < N; ++j) {
    const size_t dim = ndim - 1 - j;
    const ExprId l = pad[2 * j], r = pad[2 * j + 1];
    if (!holds(ctx, ar.lt(l, s[dim])) || !holds(ctx, ar.lt(r, s[dim])))
      ctx.fail("Argument #{}: Padding size should be less than the corresponding input dimension, but got: padding "
               "({}, {}) at dimension {} of input {}",
               4 + 2 * j, ctx.str(l), ctx.str(r), dim, N == 2 ? fmt::format("{}", ndim) : ctx.shape_str(s));
    shape[dim] = ar.add(ar.add(s[dim], l), r);
  }
  bool any_positive = false;
  for (size_t j = 0; j < N; ++j) any_positive = any_positive || holds(ctx, ar.ge(shape[ndim - 1 - j], ar.one()));
  if (!any_positive) {
    if (N == 1)
      ctx.fail("input (W: {})is too small. Calculated output W: {}", ctx.str(s[ndim - 1]), ctx.str(shape[ndim - 1]));
    if (N == 2)
      ctx.fail("input (H: {}, W: {})is too small.  Calculated output H: {} W: {}", ctx.str(s[ndim - 2]),
               ctx.str(s[ndim - 1]), ctx.str(shape[ndim - 2]), ctx.str(shape[ndim - 1]));
    ctx.fail("input (D: {} H: {}, W: {}) is too small. Calculated output D: {} H: {} W: {}", ctx.str(s[ndim - 3]),
             ctx.str(s[ndim - 2]), ctx.str(s[ndim - 1]), ctx.str(shape[ndim - 3]), ctx.str(shape[ndim - 2]),
             ctx.str(shape[ndim - 1]));
  }
  // eager 1.13.1 writes a contiguous output for every rank, channels_last inputs included
  // (checked: reflection_pad2d / pad(mode='reflect') of a channels_last 4-d input is contiguous)
  return new_in_format(ctx, ctx.vals.dtype(in), shape, MemoryFormat::Contiguous);
}

// replication_pad{N}d (structured meta): contiguous output, each output dim >= 1.
template <size_t N>
TensorId replication_pad(PropContext& ctx, TensorId in, const Dims& pad) {
  ExprArena& ar = ctx.ar;
  const auto s = ctx.vals.sizes(in);
  const size_t ndim = s.size();
  if (pad.size() != 2 * N) ctx.fail("padding size is expected to be {}", 2 * N);
  bool valid = ndim == N + 1 || ndim == N + 2;
  for (size_t i = ndim == N + 2 ? 1 : 0; valid && i < ndim; ++i) valid = !ctx.guard(ar.eq(s[i], ar.zero()));
  if (!valid)
    ctx.fail("Expected {}D or {}D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for "
             "input, but got: {}",
             N + 1, N + 2, ctx.shape_str(s));
  Dims shape(s);
  bool ok = true;
  for (size_t j = 0; j < N; ++j) {
    const size_t dim = ndim - 1 - j;
    shape[dim] = ar.add(ar.add(s[dim], pad[2 * j]), pad[2 * j + 1]);
    ok = ok && holds(ctx, ar.ge(shape[dim], ar.one()));
  }
  if (!ok) {
    if (N == 1)
      ctx.fail("input (W: {}) is too small. Calculated output W: {}", ctx.str(s[ndim - 1]), ctx.str(shape[ndim - 1]));
    if (N == 2)
      ctx.fail("input (H: {}, W: {} ) is too small. Calculated output H: {} W: {}", ctx.str(s[ndim - 2]),
               ctx.str(s[ndim - 1]), ctx.str(shape[ndim - 2]), ctx.str(shape[ndim - 1]));
    ctx.fail("input (D: {} H: {}, W: {}) is too small. Calculated output D: {} H: {} W: {}", ctx.str(s[ndim - 3]),
             ctx.str(s[ndim - 2]), ctx.str(s[ndim - 1]), ctx.str(shape[ndim - 3]), ctx.str(shape[ndim - 2]),
             ctx.str(shape[ndim - 1]));
  }
  return ctx.new_contiguous(ctx.vals.dtype(in), shape);
}

// _pad_circular: batched input with one pad pair per spatial dim; each pad <= its dim.
TensorId pad_circular(PropContext& ctx, TensorId in, const Dims& pad) {
  ExprArena& ar = ctx.ar;
  const auto s = ctx.vals.sizes(in);
  const int64_t ndim = static_cast<int64_t>(s.size()) - 2;
  if (pad.size() + 4 != s.size() * 2) ctx.fail("Expected padding of length {} but got {}", ndim * 2, pad.size());
  Dims shape(s);
  for (int64_t i = 0; i < ndim; ++i) {
    const ExprId l = pad[2 * (ndim - i - 1)], r = pad[2 * (ndim - i - 1) + 1];
    const ExprId size = s[2 + i];
    shape[2 + i] = ar.add(ar.add(size, l), r);
    if (!holds(ctx, ar.le(l, size)) || !holds(ctx, ar.le(r, size)))
      ctx.fail("Padding value causes wrapping around more than once.");
    if (!holds(ctx, ar.ge(shape[2 + i], ar.zero())))
      ctx.fail("Negative padding value is resulting in an empty dimension");
  }
  return ctx.new_contiguous(ctx.vals.dtype(in), shape);
}

// ---- rules ------------------------------------------------------------------------------

// pad.default(self, pad, mode, value): _pad_enum.
void pad_rule(PropContext& ctx) {
  const TensorId in = ctx.tensor_arg(0);
  Dims pad;
  ctx.int_list(ctx.arg(1), pad);
  const ArgId mode_arg = ctx.arg(2);
  const std::string_view mode_s = ctx.is_none(mode_arg) ? "constant" : ctx.string_arg(mode_arg);
  Mode mode;
  if (mode_s == "reflect") {
    mode = Mode::Reflect;
  } else if (mode_s == "constant") {
    mode = Mode::Constant;
  } else if (mode_s == "replicate") {
    mode = Mode::Replicate;
  } else if (mode_s == "circular") {
    mode = Mode::Circular;
  } else {
    ctx.fail("Unrecognised padding mode {}", mode_s);
  }
  const size_t dim = ctx.vals.rank(in);
  if (pad.size() % 2 != 0) ctx.fail("Padding length must be divisible by 2");
  if (pad.size() > dim * 2) ctx.fail("Padding length too large");
  if (mode == Mode::Constant) return ctx.set_tensor(constant_pad_nd(ctx, in, pad));
  const ArgId value = ctx.arg(3);
  if (!ctx.is_none(value) && ctx.float_const(value) != 0.0)
    ctx.fail("Padding mode \"{}\" doesn't take in value argument", mode_s);
  if (mode == Mode::Circular && pad.size() >= 2 && pad.size() <= 6 && dim >= pad.size() / 2 + 1 &&
      dim <= pad.size() / 2 + 2)
    return ctx.set_tensor(pad_circular(ctx, in, pad));
  const bool reflect = mode == Mode::Reflect;
  if (pad.size() == 2 && (dim == 2 || dim == 3))
    return ctx.set_tensor(reflect ? reflection_pad<1>(ctx, in, pad) : replication_pad<1>(ctx, in, pad));
  if (pad.size() == 4 && (dim == 3 || dim == 4))
    return ctx.set_tensor(reflect ? reflection_pad<2>(ctx, in, pad) : replication_pad<2>(ctx, in, pad));
  if (pad.size() == 6 && (dim == 4 || dim == 5))
    return ctx.set_tensor(reflect ? reflection_pad<3>(ctx, in, pad) : replication_pad<3>(ctx, in, pad));
  ctx.fail("Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now");
}

// constant_pad_nd(self, pad, value)
void constant_pad_nd_rule(PropContext& ctx) {
  Dims pad;
  ctx.int_list(ctx.arg(1), pad);
  ctx.set_tensor(constant_pad_nd(ctx, ctx.tensor_arg(0), pad));
}

template <size_t N>
void reflection_pad_rule(PropContext& ctx) {
  Dims pad;
  ctx.int_list(ctx.arg(1), pad);
  ctx.set_tensor(reflection_pad<N>(ctx, ctx.tensor_arg(0), pad));
}

template <size_t N>
void replication_pad_rule(PropContext& ctx) {
  Dims pad;
  ctx.int_list(ctx.arg(1), pad);
  ctx.set_tensor(replication_pad<N>(ctx, ctx.tensor_arg(0), pad));
}

void pad_circular_rule(PropContext& ctx) {
  Dims pad;
  ctx.int_list(ctx.arg(1), pad);
  ctx.set_tensor(pad_circular(ctx, ctx.tensor_arg(0), pad));
}

constexpr OpRuleEntry kRules[] = {
    {"aten.pad.default", pad_rule},
    {"aten.constant_pad_nd.default", constant_pad_nd_rule},
    {"aten.reflection_pad1d.default", reflection_pad_rule<1>},
    {"aten.reflection_pad2d.default", reflection_pad_rule<2>},
    {"aten.reflection_pad3d.default", reflection_pad_rule<3>},
    {"aten.replication_pad1d.default", replication_pad_rule<1>},
    {"aten.replication_pad2d.default", replication_pad_rule<2>},
    {"aten.replication_pad3d.default", replication_pad_rule<3>},
    {"aten._pad_circular.default", pad_circular_rule},
};

}  // namespace

std::span<const OpRuleEntry> pad_rules() { return kRules; }

}  // namespace symshape::conv
