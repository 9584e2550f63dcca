// Pointwise ops (semantics.md H.4): unary, binary and ternary TensorIterator ops and
// their in-place forms. Output shape = broadcast of the tensor operands, dtype = H.3
// promotion of the op's kind, strides = eager TensorIterator allocation.
#include <algorithm>
#include <vector>

#include "prop/ops/elementwise_common.h"
#include "prop/fake_elementwise_questions.h"
#include "prop/memory_format.h"
#include "prop/ops/view_geometry.h"
#include "prop/shape_helpers.h"

namespace symshape {

// ---- shared helpers -------------------------------------------------------------------

// fake_impls' make_fast_binary_impl over the op's operands in argument order, a Python
// scalar as the shape () (compute_shape's infer_size against it picks the literal 1 where a
// size is guarded equal to 1: `x * 0.5` of a length-1 sequence has the size 1, not the
// expression). When the fast path is taken its final_shape is the output's sizes; shape
// inference keeps the symbolic ones (batch_norm_2x_guards says why).
static bool fake_binary_fast_path(PropContext& ctx, std::span<const ArgId> operands, Dims& shape, MemoryFormat& format) {
  FixedVector<OperandLayout, 8> ops;
  for (ArgId a : operands) {
    if (ctx.is_none(a) || ops.size() == 8) continue;
    if (!ctx.is_tensor(a)) {
      ops.push_back({{}, {}, /*scalar=*/true});
      continue;
    }
    const TensorId t = ctx.tensor(a);
    ops.push_back({ctx.vals.sizes(t), ctx.vals.strides(t)});
  }
  if (ops.empty() || ops[0].scalar) return false;
  Dims final_shape;
  if (!fake_binary_fast_path_guards(ctx, ops.span(), &final_shape, &format)) return false;
  if (final_shape.size() == shape.size() && !ctx.inference_mode()) shape = final_shape;
  return true;
}

void pointwise_layout(PropContext& ctx, std::span<const ArgId> operands, Dims& shape, Dims& strides,
                      PointwisePath path) {
  FixedVector<TensorId, 8> tensors;
  bool scalar = false, any = false;
  shape.clear();
  for (ArgId a : operands) {
    if (ctx.is_none(a)) continue;
    if (!ctx.is_tensor(a)) {
      scalar = true;
      continue;
    }
    const TensorId t = ctx.tensor(a);
    tensors.push_back(t);
    if (!any)
      shape.assign(ctx.vals.sizes(t));
    else
      broadcast_shapes(ctx, shape, ctx.vals.sizes(t), shape);
    any = true;
  }
  // PyTorch 2.x's questions record the guards; eager 1.13's layout (the goldens) follows
  // from the same answers, read off the hints
  MemoryFormat fast_format = MemoryFormat::Contiguous;
  const bool fast = path == PointwisePath::FastBinary && any && fake_binary_fast_path(ctx, operands, shape, fast_format);
  if (!fast) fake_elementwise_layout_questions(ctx, tensors.span(), shape, /*fast_binary=*/false);
  ShapeEnv::SuppressGuards eager_layout(ctx.env);
  // FakeTensorMode's own strides (ReferenceHost::fake_strides): the fast path's torch.empty,
  // which differs from TensorIterator's only at size-1 dims. FakeTensorMode tries the fast
  // path only when an argument has symbolic sizes or strides (_dispatch_impl)
  if (fast && ctx.host.fake_strides &&
      std::any_of(tensors.begin(), tensors.end(), [&](TensorId t) { return has_symbolic_layout(ctx, t); }))
    return format_strides(ctx, shape, fast_format, strides);
  // ... and torch._refs' layout where the refs run (the slow path included)
  if (ctx.host.fake_strides && path != PointwisePath::Eager) return refs_elementwise_strides(ctx, tensors.span(), shape, strides);
  elementwise_strides(ctx, tensors.span(), shape, strides, scalar);
  if (path == PointwisePath::Refs) prims_dense_form(ctx, shape, strides);
}

TensorId pointwise_result(PropContext& ctx, std::span<const ArgId> operands, DType dtype, PointwisePath path) {
  Dims shape, strides;
  pointwise_layout(ctx, operands, shape, strides, path);
  return ctx.new_tensor(dtype, shape, strides);
}

void check_inplace(PropContext& ctx, TensorId self, std::span<const ArgId> operands, DType computed) {
  // Under PyTorch 2.x's Python dispatcher an in-place op runs its torch._refs form
  // (_make_inplace): _broadcast_shapes' questions, `Eq(other, self)` before anything else,
  // not the fast path's infer_size `Eq(self, other)` (timm's aa stems: the guard's sides)
  FixedVector<Dims, 8> shapes;  // copied: the value table may grow while guards are recorded
  for (ArgId a : operands)
    if (ctx.is_tensor(a) && shapes.size() < 8) shapes.push_back(Dims(ctx.vals.sizes(ctx.tensor(a))));
  Dims shape;
  if (shapes.size() == 1) shape = shapes[0];
  if (shapes.size() > 1 && !refs_broadcast_shapes(ctx, shapes.span(), shape, /*raise=*/false)) {
    shape = shapes[0];  // eager's message for shapes that do not broadcast
    for (size_t k = 1; k < shapes.size(); ++k) broadcast_shapes(ctx, shape, shapes[k], shape);
  }
  const auto self_sizes = ctx.vals.sizes(self);
  bool same = shape.size() == self_sizes.size();
  for (size_t i = 0; same && i < shape.size(); ++i)
    same = shape[i] == self_sizes[i] || ctx.guard(ctx.ar.eq(shape[i], self_sizes[i]));
  if (!same)
    ctx.fail("output with shape {} doesn't match the broadcast shape {}", ctx.shape_str(self_sizes),
             ctx.shape_str(shape));
  const DType out = ctx.vals.dtype(self);
  if (!can_cast(computed, out))
    ctx.fail("result type {} can't be cast to the desired output type {}", scalar_type_name(computed),
             scalar_type_name(out));
}

DType dtype_or(PropContext& ctx, ArgId a, DType dflt) { return ctx.opt_dtype(a).value_or(dflt); }

ArgId rounding_mode_kwarg(PropContext& ctx) {
  // most nodes carry no kwargs: nothing to resolve for them
  if (ctx.graph.node_kwargs(ctx.node()).empty()) return {};
  thread_local uint64_t table = 0;  // OpTable::serial(); an address could be reused
  thread_local KeyId key;
  if (table != ctx.graph.ops().serial() || !key.valid()) {
    table = ctx.graph.ops().serial();
    key = ctx.graph.ops().find_key("rounding_mode");
  }
  return key.valid() ? ctx.graph.kwarg(ctx.node(), key) : ArgId();
}

namespace {

DType self_dtype(PropContext& ctx) { return ctx.vals.dtype(ctx.tensor_arg(0)); }

// ---- unary -------------------------------------------------------------------------------

// f(self): a TensorIterator unary op; scalar parameters are not operands. Under symbolic
// sizes FakeTensorMode runs its torch._refs form through a prims elementwise meta.
template <PromotionKind K>
void unary(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(0)};
  ctx.set_tensor(pointwise_result(ctx, ops, result_type(ctx, ops, K), PointwisePath::Refs));
}

// A unary op whose decomposition starts with a binary op on the fast path (mish, hardswish,
// hardsigmoid, frac, square, isfinite: `x * ...`, `x - trunc(x)`): eager's stride forms.
template <PromotionKind K>
void unary_composite(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(0)};
  ctx.set_tensor(pointwise_result(ctx, ops, result_type(ctx, ops, K)));
}

template <PromotionKind K>
void unary_(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(0)};
  const TensorId self = ctx.tensor_arg(0);
  check_inplace(ctx, self, ops, result_type(ctx, ops, K));
  ctx.set_tensor(self);
}

// Under FakeTensorMode an in-place pointwise op runs its functional meta or reference with
// out=self (_meta_registrations' out_wrapper, torch/_refs _make_inplace): the functional
// result's empty_like asks the refs layout questions of self (is_contiguous, then
// is_channels_last_contiguous_2d), then the copy into self keeps self. relu_ asks nothing
// (measured: 2.13, a stride-2 conv's output), so it stays unary_.
template <PromotionKind K>
void unary_refs_(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(0)};
  const TensorId result = pointwise_result(ctx, ops, result_type(ctx, ops, K), PointwisePath::Refs);
  const Dims self_sizes(ctx.vals.sizes(ctx.tensor_arg(0))), result_sizes(ctx.vals.sizes(result));
  meta_copy_questions(ctx, self_sizes, result_sizes);  // `self.copy_(result)`
  unary_<K>(ctx);
}

// Kernels that allocate `empty_like(self)` and then run an out= TensorIterator over it
// (hardtanh / relu6, nan_to_num, bernoulli): the output keeps self's layout (preserve
// format); PyTorch 2.x runs their refs (prims_dense_form).
void unary_like_self(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  Dims strides;
  empty_like_strides(ctx, self, MemoryFormat::Preserve, strides);
  prims_dense_form(ctx, ctx.vals.sizes(self), strides);
  ctx.set_tensor(ctx.new_tensor(ctx.vals.dtype(self), ctx.vals.sizes(self), strides));
}

// hardtanh (and relu6, its clamp to [0, 6]): eager's layout is empty_like(self); under the
// Python dispatcher its reference clamps, asking the refs layout questions of self first.
void hardtanh(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(0)};
  pointwise_result(ctx, ops, result_type(ctx, ops, PromotionKind::Default), PointwisePath::Refs);
  unary_like_self(ctx);
}

// Kernels that allocate a contiguous result (log_sigmoid_forward_cpu).
void unary_contiguous(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(self), ctx.vals.sizes(self)));
}

void relu(PropContext& ctx) {
  if (self_dtype(ctx) == DType::Bool) ctx.fail("Boolean inputs not supported for relu");
  unary<PromotionKind::Default>(ctx);
}

void gelu(PropContext& ctx) {
  const ArgId approx = ctx.kwarg(Key::approximate);
  if (!ctx.is_none(approx)) {
    const std::string_view a = ctx.string_arg(approx);
    if (a != "none" && a != "tanh") ctx.fail("approximate argument must be either none or tanh.");
  }
  // FakeTensorMode runs torch._refs.nn.functional.gelu (no Python meta, in the decomposition
  // table) when sizes are symbolic: its first op, `a * 0.5`, goes through the fast binary
  // path against a Python scalar, so a size guarded equal to 1 becomes the literal 1
  // (fake_binary_fast_path); shape inference keeps the symbolic sizes
  const ArgId ops[] = {ctx.arg(0)};
  Dims literal_ones;
  if (!ctx.inference_mode()) broadcast_shapes(ctx, ctx.vals.sizes(ctx.tensor_arg(0)), {}, literal_ones);
  Dims shape, strides;
  pointwise_layout(ctx, ops, shape, strides);
  if (literal_ones.size() == shape.size()) shape = literal_ones;
  if (ctx.host.fake_strides) {
    // FakeTensorMode's strides: `a * 0.5` lays out as the refs do (a fast path only for a
    // contiguous or channels_last input), and the decomposition's later products of
    // same-layout operands take the fast path, allocating contiguous or channels_last.
    const TensorId self[] = {ctx.tensor_arg(0)};
    refs_elementwise_strides(ctx, self, shape, strides);
    if (!has_symbolic_layout(ctx, self[0])) {
      // Without a symbolic size or stride there is no fast path: the reference (gelu's
      // Python meta) runs on prims throughout, and its last product of two operands laid out
      // like `a * 0.5` sorts their strides (2.13: a (1, 128, 1, 1) channel slice of strides
      // (259, 1, 259, 259) gives (128, 1, 128, 128), where the fast path's would be
      // contiguous)
      refs_permuted_strides(ctx, ctx.new_tensor(ctx.vals.dtype(self[0]), shape, strides), strides);
      return ctx.set_tensor(ctx.new_tensor(result_type(ctx, ops, PromotionKind::Default), shape, strides));
    }
    ShapeEnv::SuppressGuards read_off_hints(ctx.env);
    if (prims_is_contiguous_or_false(ctx, {shape, strides}))
      ctx.contiguous_strides(shape, strides);
    else if (prims_is_channels_last_contiguous_2d_or_false(ctx, {shape, strides}))
      format_strides(ctx, shape, MemoryFormat::ChannelsLast, strides);
  }
  ctx.set_tensor(ctx.new_tensor(result_type(ctx, ops, PromotionKind::Default), shape, strides));
}

// clamp(self, min?, max?) with Scalar bounds: the bounds take part in type promotion
// unless self is floating, but are not TensorIterator operands.
void clamp_scalar(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const bool has_min = !ctx.is_none(ctx.arg(1)), has_max = !ctx.is_none(ctx.arg(2));
  if (!has_min && !has_max) ctx.fail("torch.clamp: At least one of 'min' or 'max' must not be None");
  DType dt = ctx.vals.dtype(self);
  if (dt == DType::Complex64) ctx.fail("clamp is not supported for complex types");
  if (!is_floating(dt)) {
    const ArgId ops[] = {ctx.arg(0), ctx.arg(1), ctx.arg(2)};
    dt = result_type(ctx, ops, PromotionKind::Default);
  }
  const ArgId operand[] = {ctx.arg(0)};
  ctx.set_tensor(pointwise_result(ctx, operand, dt));
}

// clamp(self, min?, max?) with Tensor bounds: all defined tensors are operands.
void clamp_tensor(PropContext& ctx) {
  if (ctx.is_none(ctx.arg(1)) && ctx.is_none(ctx.arg(2)))
    ctx.fail("torch.clamp: At least one of 'min' or 'max' must not be None");
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1), ctx.arg(2)};
  ctx.set_tensor(pointwise_result(ctx, ops, result_type(ctx, ops, PromotionKind::Default)));
}

// clamp_min / clamp_max with one Scalar bound.
void clamp_bound_scalar(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  DType dt = ctx.vals.dtype(self);
  if (!is_floating(dt)) {
    const ArgId ops[] = {ctx.arg(0), ctx.arg(1)};
    dt = result_type(ctx, ops, PromotionKind::Default);
  }
  const ArgId operand[] = {ctx.arg(0)};
  ctx.set_tensor(pointwise_result(ctx, operand, dt));
}

// 1.13 pow(Tensor, Scalar): an integral (or bool) base with a negative integral exponent
// is an error.
void check_int_pow(PropContext& ctx, TensorId base, ArgId exponent) {
  if (!is_integral(ctx.vals.dtype(base), true)) return;
  const ScalarCategory c = ctx.scalar_category(exponent);
  if (c != ScalarCategory::Integer && c != ScalarCategory::Bool) return;
  if (ctx.is_tensor(exponent) || c == ScalarCategory::Bool) return;
  if (ctx.int_const(exponent) < 0) ctx.fail("Integers to negative integer powers are not allowed.");
}

// pow(Tensor self, Scalar exponent): the exponent only promotes.
void pow_tensor_scalar(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1)};
  check_int_pow(ctx, ctx.tensor_arg(0), ctx.arg(1));
  const ArgId operand[] = {ctx.arg(0)};
  ctx.set_tensor(pointwise_result(ctx, operand, result_type(ctx, ops, PromotionKind::BoolToLong)));
}

// pow(Scalar self, Tensor exponent): a contiguous result of the exponent's shape.
void pow_scalar(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1)};
  const TensorId e = ctx.tensor_arg(1);
  ctx.set_tensor(ctx.new_contiguous(result_type(ctx, ops, PromotionKind::BoolToLong), ctx.vals.sizes(e)));
}

// float_power: computed and returned in double precision (complex128 is not modelled).
void float_power(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1)};
  for (ArgId a : ops)
    if (ctx.scalar_category(a) == ScalarCategory::Complex) ctx.fail("float_power to complex128 is not modelled");
  // a Scalar base goes through pow(Scalar, Tensor): a contiguous result
  if (!ctx.is_tensor(ops[0])) return ctx.set_tensor(ctx.new_contiguous(DType::Float64, ctx.vals.sizes(ctx.tensor(ops[1]))));
  FixedVector<ArgId, 2> tensors;
  for (ArgId a : ops)
    if (ctx.is_tensor(a)) tensors.push_back(a);
  ctx.set_tensor(pointwise_result(ctx, tensors.span(), DType::Float64));
}

void pow_tensor_scalar_(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1)};
  check_int_pow(ctx, ctx.tensor_arg(0), ctx.arg(1));
  const TensorId self = ctx.tensor_arg(0);
  check_inplace(ctx, self, std::span<const ArgId>(ops, 1), result_type(ctx, ops, PromotionKind::BoolToLong));
  ctx.set_tensor(self);
}

// glu(self, dim): a binary op over the two halves of `dim`.
void glu(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const int64_t rank = ctx.vals.rank(self);
  if (rank == 0) ctx.fail("glu does not support scalars because halving size must be even");
  const int64_t d = ctx.wrap_dim(ctx.int_const(ctx.arg(1)), rank);
  ExprArena& ar = ctx.ar;
  const ExprId n = ctx.vals.sizes(self)[d];
  if (!check_ok(ctx, ar.eq(ar.mod(n, ar.integer(2)), ar.zero())))
    ctx.fail("Halving dimension must be even, but dimension {} is size {}", d, ctx.str(n));
  Dims half(ctx.vals.sizes(self));
  half[d] = ar.floordiv(n, ar.integer(2));
  const Dims st(ctx.vals.strides(self));  // a copy: new views may move the value table
  const TensorId halves[] = {ctx.new_view(self, half, st, ctx.vals.tensor(self).storage_offset),
                             ctx.new_view(self, half, st, ctx.vals.tensor(self).storage_offset)};
  Dims strides;
  elementwise_strides(ctx, halves, half, strides);
  ctx.set_tensor(ctx.new_tensor(ctx.vals.dtype(self), half, strides));
}

// prelu(self, weight): one weight or one per channel (dim 1); the result is laid out in
// self's suggested memory format.
void prelu(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0), w = ctx.tensor_arg(1);
  ExprArena& ar = ctx.ar;
  if (ctx.vals.rank(w) > 1) ctx.fail("prelu: Expected `weight` to be a scalar or 1D tensor, but got ndim = {}", ctx.vals.rank(w));
  const ExprId wn = numel(ctx, ctx.vals.sizes(w));
  if (!ctx.guard(ar.eq(wn, ar.one()))) {
    if (ctx.vals.rank(self) == 0) ctx.fail("Not allow zero-dim input tensor.");
    const ExprId channels = ctx.vals.rank(self) >= 2 ? ctx.vals.sizes(self)[1] : ar.one();
    if (!check_ok(ctx, ar.eq(wn, channels)))
      ctx.fail("Mismatch of parameter numbers and input channel size. Found parameter numbers = {} and channel size = {}.",
               ctx.str(wn), ctx.str(channels));
  }
  Dims strides;
  format_strides(ctx, ctx.vals.sizes(self), suggest_memory_format(ctx, self), strides);
  ctx.set_tensor(ctx.new_tensor(ctx.vals.dtype(self), ctx.vals.sizes(self), strides));
}

// neg / negative: 1.13's neg_check rejects bool.
void check_neg(PropContext& ctx) {
  if (ctx.vals.dtype(ctx.tensor_arg(0)) == DType::Bool)
    ctx.fail("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the "
             "`~` or `logical_not()` operator instead.");
}

void neg(PropContext& ctx) {
  check_neg(ctx);
  unary<PromotionKind::Default>(ctx);
}

void neg_(PropContext& ctx) {
  check_neg(ctx);
  unary_refs_<PromotionKind::Default>(ctx);
}

// ---- binary ------------------------------------------------------------------------------

template <PromotionKind K>
void binary(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1)};
  ctx.set_tensor(pointwise_result(ctx, ops, result_type(ctx, ops, K)));
}

template <PromotionKind K>
void binary_(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1)};
  const TensorId self = ctx.tensor_arg(0);
  check_inplace(ctx, self, ops, result_type(ctx, ops, K));
  ctx.set_tensor(self);
}

// add/sub's alpha_check: the alpha scalar must fit the result's category.
void check_alpha(PropContext& ctx, ArgId alpha, DType result) {
  if (ctx.is_none(alpha)) return;
  const ScalarCategory c = ctx.scalar_category(alpha);
  if (c == ScalarCategory::Bool && result != DType::Bool) ctx.fail("Boolean alpha only supported for Boolean results.");
  if (is_integral(result, true) && (c == ScalarCategory::Floating || c == ScalarCategory::Complex))
    ctx.fail("For integral input tensors, argument alpha must not be a floating point number.");
  if (c == ScalarCategory::Complex && result != DType::Complex64) ctx.fail("Complex alpha only supported for complex results.");
}

ArgId alpha_arg(PropContext& ctx) {
  const ArgId a = ctx.arg(2);
  return a.valid() ? a : ctx.kwarg(Key::alpha);
}

// 1.13 sub_check: two bool operands, then any bool operand, are errors. A Python bool
// is a bool operand when bound to a Tensor parameter (sub.Tensor) but an int when bound to
// a Scalar one (sub.Scalar / rsub.Scalar through torch.ops).
void check_sub_bool(PropContext& ctx, std::span<const ArgId> ops) {
  const bool scalar_as_int = scalar_params_take_bool_as_int(ctx.target());
  int bools = 0;
  for (ArgId a : ops) {
    const bool is_bool = ctx.is_tensor(a) ? ctx.vals.dtype(ctx.tensor(a)) == DType::Bool
                                          : !scalar_as_int && ctx.scalar_category(a) == ScalarCategory::Bool;
    bools += is_bool ? 1 : 0;
  }
  if (bools == static_cast<int>(ops.size()))
    ctx.fail("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.");
  if (bools > 0)
    ctx.fail("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use "
             "the `~` or `logical_not()` operator instead.");
}

// add / sub (self, other, alpha)
// FastBinary: the .Tensor overload, which FakeTensor serves by fake_impls' binary fast path
template <bool Sub, bool FastBinary = false>
void add_sub(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1)};
  if (Sub) check_sub_bool(ctx, ops);
  const DType dt = result_type(ctx, ops, PromotionKind::Default);
  check_alpha(ctx, alpha_arg(ctx), dt);
  ctx.set_tensor(pointwise_result(ctx, ops, dt, FastBinary ? PointwisePath::FastBinary : PointwisePath::Eager));
}

template <bool Sub>
void add_sub_(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1)};
  if (Sub) check_sub_bool(ctx, ops);
  const DType dt = result_type(ctx, ops, PromotionKind::Default);
  check_alpha(ctx, alpha_arg(ctx), dt);
  const TensorId self = ctx.tensor_arg(0);
  check_inplace(ctx, self, ops, dt);
  ctx.set_tensor(self);
}

// rsub(self, other, alpha) = other - alpha * self: `other` is the first operand.
void rsub(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(1), ctx.arg(0)};
  check_sub_bool(ctx, ops);
  const DType dt = result_type(ctx, ops, PromotionKind::Default);
  check_alpha(ctx, alpha_arg(ctx), dt);
  ctx.set_tensor(pointwise_result(ctx, ops, dt));
}

// div with an optional rounding_mode: true division promotes integers to float.
PromotionKind div_kind(PropContext& ctx) {
  ArgId mode = rounding_mode_kwarg(ctx);
  if (!mode.valid() && ctx.num_args() > 2) mode = ctx.arg(2);
  if (ctx.is_none(mode)) return PromotionKind::IntToFloat;
  const std::string_view m = ctx.string_arg(mode);
  if (m != "trunc" && m != "floor")
    ctx.fail("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{}'", m);
  return PromotionKind::Default;
}

void div(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1)};
  ctx.set_tensor(pointwise_result(ctx, ops, result_type(ctx, ops, div_kind(ctx))));
}

// div.Tensor: FakeTensor's binary fast path (div.Tensor_mode has none)
void div_tensor(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1)};
  ctx.set_tensor(pointwise_result(ctx, ops, result_type(ctx, ops, div_kind(ctx)), PointwisePath::FastBinary));
}

// mul.Tensor: FakeTensor's binary fast path
void mul_tensor(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1)};
  ctx.set_tensor(pointwise_result(ctx, ops, result_type(ctx, ops, PromotionKind::Default), PointwisePath::FastBinary));
}

void div_(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1)};
  const TensorId self = ctx.tensor_arg(0);
  check_inplace(ctx, self, ops, result_type(ctx, ops, div_kind(ctx)));
  ctx.set_tensor(self);
}

// Scalar-first binary overloads (remainder.Scalar_Tensor, bitwise_*.Scalar_Tensor, ...).
template <PromotionKind K>
void binary_scalar_first(PropContext& ctx) {
  binary<K>(ctx);
}

// ---- ternary -------------------------------------------------------------------------------

void check_condition(PropContext& ctx, TensorId cond) {
  const DType d = ctx.vals.dtype(cond);
  if (d != DType::Bool && d != DType::UInt8)
    ctx.fail("where expected condition to be a boolean tensor, but got a tensor with dtype {}", scalar_type_name(d));
}

// where(cond, self, other): operands in that order; dtype from self and other (scalars
// are 0-dim operands).
// A non-tensor self/other of where.ScalarSelf/ScalarOther/Scalar is a Scalar parameter:
// result_type binds a Python bool there as an int (where.Scalar(c, True, False) is int64).
void where(PropContext& ctx) {
  check_condition(ctx, ctx.tensor_arg(0));
  const ArgId values[] = {ctx.arg(1), ctx.arg(2)};
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1), ctx.arg(2)};
  ctx.set_tensor(pointwise_result(ctx, ops, result_type(ctx, values, PromotionKind::NoOpMath)));
}

void check_mask(PropContext& ctx, TensorId mask) {
  if (ctx.vals.dtype(mask) != DType::Bool)
    ctx.fail("masked_fill_ only supports boolean masks, but got mask with dtype {}", scalar_type_name(ctx.vals.dtype(mask)));
}

void check_fill_value(PropContext& ctx, ArgId value) {
  if (ctx.is_tensor(value) && ctx.vals.rank(ctx.tensor(value)) != 0)
    ctx.fail("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).",
             ctx.vals.rank(ctx.tensor(value)));
}

// masked_fill(self, mask, value): eager expands mask and self (expand_outplace) into a
// contiguous result. FakeTensorMode runs torch._refs.masked_fill: where(mask, value, self)
// (_maybe_broadcast's questions, whose common shape keeps a literal 1 for a size guarded
// == 1, and prims.where's layout sort), then `.contiguous()` asks C++ is_contiguous of it.
// The same values; 2.x's shape.
void masked_fill(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0), mask = ctx.tensor_arg(1);
  check_mask(ctx, mask);
  check_fill_value(ctx, ctx.arg(2));
  Dims shape, strides;
  FixedVector<TensorId, 3> operands;
  operands.push_back(mask);
  if (ctx.is_tensor(ctx.arg(2))) operands.push_back(ctx.tensor(ctx.arg(2)));
  operands.push_back(self);
  if (!refs_broadcast_shape(ctx, operands.span(), shape, /*raise=*/false))
    broadcast_shapes(ctx, ctx.vals.sizes(mask), ctx.vals.sizes(self), shape);  // raises eager's message
  fake_elementwise_layout_questions(ctx, operands.span(), shape, /*fast_binary=*/false);
  {
    ShapeEnv::SuppressGuards layout(ctx.env);
    refs_elementwise_strides(ctx, operands.span(), shape, strides);
  }
  ctx.is_contiguous(ctx.new_tensor(ctx.vals.dtype(self), shape, strides));
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(self), shape));
}

void masked_fill_(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0), mask = ctx.tensor_arg(1);
  check_mask(ctx, mask);
  check_fill_value(ctx, ctx.arg(2));
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1)};
  check_inplace(ctx, self, ops, ctx.vals.dtype(self));
  ctx.set_tensor(self);
}

// lerp(self, end, weight): weight is an operand only when it is a tensor.
void lerp(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0), end = ctx.tensor_arg(1);
  if (ctx.vals.dtype(self) != ctx.vals.dtype(end))
    ctx.fail("expected dtype {} for `end` but got dtype {}", scalar_type_name(ctx.vals.dtype(self)),
             scalar_type_name(ctx.vals.dtype(end)));
  const ArgId w = ctx.arg(2);
  if (ctx.is_tensor(w)) {
    const ArgId ops[] = {ctx.arg(0), ctx.arg(1), w};
    ctx.set_tensor(pointwise_result(ctx, ops, ctx.vals.dtype(self)));
  } else {
    const ArgId ops[] = {ctx.arg(0), ctx.arg(1)};
    ctx.set_tensor(pointwise_result(ctx, ops, ctx.vals.dtype(self)));
  }
}

// addcmul / addcdiv(self, tensor1, tensor2, *, value)
template <bool Div>
void addc(PropContext& ctx) {
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1), ctx.arg(2)};
  if (Div && is_integral(ctx.vals.dtype(ctx.tensor_arg(1)), true) && is_integral(ctx.vals.dtype(ctx.tensor_arg(2)), true))
    ctx.fail("Integer division with addcdiv is no longer supported, and in a future release addcdiv will perform a "
             "true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value "
             "* torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
             "tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value "
             "* tensor1 / tensor2), for all dtypes.");
  ctx.set_tensor(pointwise_result(ctx, ops, result_type(ctx, ops, PromotionKind::Default)));
}

// triu / tril(self, diagonal): needs a matrix (the 1.13 kernel wraps dim -2); contiguous.
void tri(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  ctx.wrap_dim(-2, ctx.vals.rank(self));
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(self), ctx.vals.sizes(self)));
}

void tri_(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  ctx.wrap_dim(-2, ctx.vals.rank(self));
  ctx.set_tensor(self);
}

// fill_ / zero_ / normal_ / uniform_ ...: in place, self unchanged.
void self_inplace(PropContext& ctx) { ctx.set_tensor(ctx.tensor_arg(0)); }

void fill_tensor_(PropContext& ctx) {
  const ArgId v = ctx.arg(1);
  if (ctx.is_tensor(v) && ctx.vals.rank(ctx.tensor(v)) != 0)
    ctx.fail("fill_ only supports 0-dimension value tensor but got tensor with {} dimensions.", ctx.vals.rank(ctx.tensor(v)));
  ctx.set_tensor(ctx.tensor_arg(0));
}

// fill(self, value): a functional fill, laid out like empty_like(self).
void fill(PropContext& ctx) {
  const ArgId v = ctx.arg(1);
  if (ctx.is_tensor(v) && ctx.vals.rank(ctx.tensor(v)) != 0)
    ctx.fail("fill_ only supports 0-dimension value tensor but got tensor with {} dimensions.", ctx.vals.rank(ctx.tensor(v)));
  unary_like_self(ctx);
}

using PK = PromotionKind;

constexpr OpRuleEntry kRules[] = {
    // unary, dtype kept (DEFAULT over one operand)
    {"aten.relu.default", relu},
    {"aten.relu6.default", hardtanh},
    {"aten.gelu.default", gelu},
    {"aten.silu.default", unary<PK::Default>},
    {"aten.mish.default", unary_composite<PK::Default>},
    {"aten.hardswish.default", unary_composite<PK::Default>},
    {"aten.hardsigmoid.default", unary_composite<PK::Default>},
    {"aten.hardtanh.default", hardtanh},
    {"aten.leaky_relu.default", unary<PK::Default>},
    {"aten.elu.default", unary<PK::Default>},
    {"aten.celu.default", unary<PK::Default>},
    {"aten.selu.default", unary<PK::Default>},
    {"aten.softplus.default", unary<PK::Default>},
    {"aten.softshrink.default", unary<PK::Default>},
    {"aten.hardshrink.default", unary<PK::Default>},
    {"aten.threshold.default", unary<PK::Default>},
    {"aten.log_sigmoid.default", unary_contiguous},
    {"aten.nan_to_num.default", unary_like_self},
    {"aten.bernoulli.default", unary_like_self},
    {"aten.bernoulli.p", unary_like_self},
    {"aten.neg.default", neg},
    {"aten.negative.default", neg},
    {"aten.floor.default", unary<PK::Default>},
    {"aten.ceil.default", unary<PK::Default>},
    {"aten.round.default", unary<PK::Default>},
    {"aten.round.decimals", unary<PK::Default>},
    {"aten.trunc.default", unary<PK::Default>},
    {"aten.frac.default", unary_composite<PK::Default>},
    {"aten.sign.default", unary<PK::Default>},
    {"aten.sgn.default", unary<PK::Default>},
    {"aten.bitwise_not.default", unary<PK::Default>},
    {"aten.square.default", unary_composite<PK::BoolToLong>},
    {"aten.abs.default", unary<PK::ComplexToFloat>},
    {"aten.absolute.default", unary<PK::ComplexToFloat>},
    {"aten.logical_not.default", unary<PK::AlwaysBool>},
    {"aten.isnan.default", unary<PK::AlwaysBool>},
    {"aten.isinf.default", unary<PK::AlwaysBool>},
    {"aten.isfinite.default", unary_composite<PK::AlwaysBool>},
    {"aten.signbit.default", unary<PK::AlwaysBool>},
    // unary, integers to float
    {"aten.sigmoid.default", unary<PK::IntToFloat>},
    {"aten.tanh.default", unary<PK::IntToFloat>},
    {"aten.exp.default", unary<PK::IntToFloat>},
    {"aten.exp2.default", unary<PK::IntToFloat>},
    {"aten.expm1.default", unary<PK::IntToFloat>},
    {"aten.log.default", unary<PK::IntToFloat>},
    {"aten.log2.default", unary<PK::IntToFloat>},
    {"aten.log10.default", unary<PK::IntToFloat>},
    {"aten.log1p.default", unary<PK::IntToFloat>},
    {"aten.sqrt.default", unary<PK::IntToFloat>},
    {"aten.rsqrt.default", unary<PK::IntToFloat>},
    {"aten.reciprocal.default", unary<PK::IntToFloat>},
    {"aten.sin.default", unary<PK::IntToFloat>},
    {"aten.cos.default", unary<PK::IntToFloat>},
    {"aten.tan.default", unary<PK::IntToFloat>},
    {"aten.asin.default", unary<PK::IntToFloat>},
    {"aten.acos.default", unary<PK::IntToFloat>},
    {"aten.atan.default", unary<PK::IntToFloat>},
    {"aten.sinh.default", unary<PK::IntToFloat>},
    {"aten.cosh.default", unary<PK::IntToFloat>},
    {"aten.asinh.default", unary<PK::IntToFloat>},
    {"aten.acosh.default", unary<PK::IntToFloat>},
    {"aten.atanh.default", unary<PK::IntToFloat>},
    {"aten.erf.default", unary<PK::IntToFloat>},
    {"aten.erfc.default", unary<PK::IntToFloat>},
    {"aten.erfinv.default", unary<PK::IntToFloat>},
    {"aten.lgamma.default", unary<PK::IntToFloat>},
    {"aten.digamma.default", unary<PK::IntToFloat>},
    {"aten.logit.default", unary<PK::IntToFloat>},
    {"aten.sinc.default", unary<PK::IntToFloat>},
    {"aten.clamp.default", clamp_scalar},
    {"aten.clip.default", clamp_scalar},
    {"aten.clamp.Tensor", clamp_tensor},
    {"aten.clip.Tensor", clamp_tensor},
    {"aten.clamp_min.default", clamp_bound_scalar},
    {"aten.clamp_max.default", clamp_bound_scalar},
    {"aten.clamp_min.Tensor", binary<PK::Default>},
    {"aten.clamp_max.Tensor", binary<PK::Default>},
    {"aten.pow.Tensor_Scalar", pow_tensor_scalar},
    {"aten.pow.Tensor_Tensor", binary<PK::BoolToLong>},
    {"aten.pow.Scalar", pow_scalar},
    {"aten.float_power.Tensor_Scalar", float_power},
    {"aten.float_power.Tensor_Tensor", float_power},
    {"aten.float_power.Scalar", float_power},
    {"aten.glu.default", glu},
    {"aten.prelu.default", prelu},
    // binary
    {"aten.add.Tensor", add_sub<false, true>},
    {"aten.add.Scalar", add_sub<false>},
    {"aten.sub.Tensor", add_sub<true, true>},
    {"aten.sub.Scalar", add_sub<true>},
    {"aten.subtract.Tensor", add_sub<true, true>},
    {"aten.rsub.Tensor", rsub},
    {"aten.rsub.Scalar", rsub},
    {"aten.mul.Tensor", mul_tensor},
    {"aten.mul.Scalar", binary<PK::Default>},
    {"aten.multiply.Tensor", mul_tensor},
    {"aten.div.Tensor", div_tensor},
    {"aten.div.Scalar", div},
    {"aten.div.Tensor_mode", div},
    {"aten.div.Scalar_mode", div},
    {"aten.divide.Tensor", div_tensor},
    {"aten.true_divide.Tensor", binary<PK::IntToFloat>},
    {"aten.true_divide.Scalar", binary<PK::IntToFloat>},
    {"aten.floor_divide.default", binary<PK::Default>},
    {"aten.floor_divide.Scalar", binary<PK::Default>},
    {"aten.remainder.Tensor", binary<PK::Default>},
    {"aten.remainder.Scalar", binary<PK::Default>},
    {"aten.remainder.Scalar_Tensor", binary_scalar_first<PK::Default>},
    {"aten.fmod.Tensor", binary<PK::Default>},
    {"aten.fmod.Scalar", binary<PK::Default>},
    {"aten.maximum.default", binary<PK::Default>},
    {"aten.minimum.default", binary<PK::Default>},
    {"aten.max.other", binary<PK::Default>},
    {"aten.min.other", binary<PK::Default>},
    {"aten.fmax.default", binary<PK::Default>},
    {"aten.fmin.default", binary<PK::Default>},
    {"aten.atan2.default", binary<PK::IntToFloat>},
    {"aten.hypot.default", binary<PK::Default>},
    {"aten.copysign.Tensor", binary<PK::IntToFloat>},
    {"aten.copysign.Scalar", binary<PK::IntToFloat>},
    {"aten.xlogy.Tensor", binary<PK::IntToFloat>},
    {"aten.xlogy.Scalar_Other", binary<PK::IntToFloat>},
    {"aten.logaddexp.default", binary<PK::Default>},
    {"aten.logaddexp2.default", binary<PK::Default>},
    {"aten.heaviside.default", binary<PK::Default>},
    {"aten.nextafter.default", binary<PK::Default>},
    {"aten.bitwise_and.Tensor", binary<PK::Default>},
    {"aten.bitwise_and.Scalar", binary<PK::Default>},
    {"aten.bitwise_or.Tensor", binary<PK::Default>},
    {"aten.bitwise_or.Scalar", binary<PK::Default>},
    {"aten.bitwise_xor.Tensor", binary<PK::Default>},
    {"aten.bitwise_xor.Scalar", binary<PK::Default>},
    {"aten.bitwise_left_shift.Tensor", binary<PK::Default>},
    // the Python operators (`a & b` on tensors in a torch.export graph): native_functions.yaml's
    // __and__ / __or__ / __xor__ call bitwise_and / bitwise_or / bitwise_xor
    {"aten.__and__.Tensor", binary<PK::Default>},
    {"aten.__and__.Scalar", binary<PK::Default>},
    {"aten.__or__.Tensor", binary<PK::Default>},
    {"aten.__or__.Scalar", binary<PK::Default>},
    {"aten.__xor__.Tensor", binary<PK::Default>},
    {"aten.__xor__.Scalar", binary<PK::Default>},
    {"aten.bitwise_right_shift.Tensor", binary<PK::Default>},
    {"aten.logical_and.default", binary<PK::AlwaysBool>},
    {"aten.logical_or.default", binary<PK::AlwaysBool>},
    {"aten.logical_xor.default", binary<PK::AlwaysBool>},
    {"aten.eq.Tensor", binary<PK::AlwaysBool>},
    {"aten.eq.Scalar", binary<PK::AlwaysBool>},
    {"aten.ne.Tensor", binary<PK::AlwaysBool>},
    {"aten.ne.Scalar", binary<PK::AlwaysBool>},
    {"aten.lt.Tensor", binary<PK::AlwaysBool>},
    {"aten.lt.Scalar", binary<PK::AlwaysBool>},
    {"aten.le.Tensor", binary<PK::AlwaysBool>},
    {"aten.le.Scalar", binary<PK::AlwaysBool>},
    {"aten.gt.Tensor", binary<PK::AlwaysBool>},
    {"aten.gt.Scalar", binary<PK::AlwaysBool>},
    {"aten.ge.Tensor", binary<PK::AlwaysBool>},
    {"aten.ge.Scalar", binary<PK::AlwaysBool>},
    {"aten.greater.Tensor", binary<PK::AlwaysBool>},
    {"aten.less.Tensor", binary<PK::AlwaysBool>},
    {"aten.not_equal.Tensor", binary<PK::AlwaysBool>},
    // ternary
    {"aten.where.self", where},
    {"aten.where.ScalarOther", where},
    {"aten.where.ScalarSelf", where},
    {"aten.where.Scalar", where},
    {"aten.masked_fill.Scalar", masked_fill},
    {"aten.masked_fill.Tensor", masked_fill},
    {"aten.lerp.Scalar", lerp},
    {"aten.lerp.Tensor", lerp},
    {"aten.addcmul.default", addc<false>},
    {"aten.addcdiv.default", addc<true>},
    {"aten.triu.default", tri},
    {"aten.tril.default", tri},
    {"aten.fill.Scalar", fill},
    {"aten.fill.Tensor", fill},
    // in place: the result is self
    {"aten.add_.Tensor", add_sub_<false>},
    {"aten.add_.Scalar", add_sub_<false>},
    {"aten.sub_.Tensor", add_sub_<true>},
    {"aten.sub_.Scalar", add_sub_<true>},
    {"aten.mul_.Tensor", binary_<PK::Default>},
    {"aten.mul_.Scalar", binary_<PK::Default>},
    {"aten.div_.Tensor", div_},
    {"aten.div_.Scalar", div_},
    {"aten.div_.Tensor_mode", div_},
    {"aten.floor_divide_.Tensor", binary_<PK::Default>},
    {"aten.floor_divide_.Scalar", binary_<PK::Default>},
    {"aten.remainder_.Tensor", binary_<PK::Default>},
    {"aten.remainder_.Scalar", binary_<PK::Default>},
    {"aten.fmod_.Tensor", binary_<PK::Default>},
    {"aten.fmod_.Scalar", binary_<PK::Default>},
    {"aten.pow_.Scalar", pow_tensor_scalar_},
    {"aten.pow_.Tensor", binary_<PK::BoolToLong>},
    {"aten.clamp_min_.Tensor", binary_<PK::Default>},
    {"aten.clamp_max_.Tensor", binary_<PK::Default>},
    {"aten.bitwise_and_.Tensor", binary_<PK::Default>},
    {"aten.bitwise_or_.Tensor", binary_<PK::Default>},
    {"aten.logical_and_.default", binary_<PK::Default>},
    {"aten.logical_or_.default", binary_<PK::Default>},
    {"aten.eq_.Scalar", binary_<PK::Default>},
    {"aten.relu_.default", unary_<PK::Default>},
    {"aten.relu6_.default", unary_refs_<PK::Default>},
    {"aten.gelu_.default", unary_refs_<PK::Default>},
    {"aten.silu_.default", unary_refs_<PK::Default>},
    {"aten.mish_.default", unary_refs_<PK::Default>},
    {"aten.hardswish_.default", unary_refs_<PK::Default>},
    {"aten.hardsigmoid_.default", unary_refs_<PK::Default>},
    {"aten.hardtanh_.default", unary_refs_<PK::Default>},
    {"aten.leaky_relu_.default", unary_refs_<PK::Default>},
    {"aten.elu_.default", unary_refs_<PK::Default>},
    {"aten.celu_.default", unary_refs_<PK::Default>},
    {"aten.selu_.default", unary_refs_<PK::Default>},
    {"aten.threshold_.default", unary_refs_<PK::Default>},
    {"aten.clamp_.default", unary_refs_<PK::Default>},
    {"aten.clamp_min_.default", unary_refs_<PK::Default>},
    {"aten.clamp_max_.default", unary_refs_<PK::Default>},
    {"aten.neg_.default", neg_},
    {"aten.abs_.default", unary_refs_<PK::Default>},
    {"aten.floor_.default", unary_refs_<PK::Default>},
    {"aten.ceil_.default", unary_refs_<PK::Default>},
    {"aten.round_.default", unary_refs_<PK::Default>},
    {"aten.sigmoid_.default", unary_refs_<PK::IntToFloat>},
    {"aten.tanh_.default", unary_refs_<PK::IntToFloat>},
    {"aten.exp_.default", unary_refs_<PK::IntToFloat>},
    {"aten.log_.default", unary_refs_<PK::IntToFloat>},
    {"aten.sqrt_.default", unary_refs_<PK::IntToFloat>},
    {"aten.rsqrt_.default", unary_refs_<PK::IntToFloat>},
    {"aten.reciprocal_.default", unary_refs_<PK::IntToFloat>},
    {"aten.sin_.default", unary_refs_<PK::IntToFloat>},
    {"aten.cos_.default", unary_refs_<PK::IntToFloat>},
    {"aten.erf_.default", unary_refs_<PK::IntToFloat>},
    {"aten.masked_fill_.Scalar", masked_fill_},
    {"aten.masked_fill_.Tensor", masked_fill_},
    {"aten.triu_.default", tri_},
    {"aten.tril_.default", tri_},
    {"aten.fill_.Scalar", self_inplace},
    {"aten.fill_.Tensor", fill_tensor_},
    {"aten.zero_.default", self_inplace},
    {"aten.normal_.default", self_inplace},
    {"aten.uniform_.default", self_inplace},
    {"aten.bernoulli_.float", self_inplace},
    {"aten.exponential_.default", self_inplace},
};

}  // namespace

std::span<const OpRuleEntry> pointwise_rules() { return kRules; }

std::span<const OpRuleEntry> elementwise_rules() {
  // the family's sub-tables, concatenated once
  static const std::vector<OpRuleEntry> all = [] {
    std::vector<OpRuleEntry> v;
    for (auto t : {pointwise_rules(), conversion_rules(), factory_rules(), dropout_rules(), diff_cross_rules(),
                   complex_fft_rules()})
      v.insert(v.end(), t.begin(), t.end());
    return v;
  }();
  return all;
}

}  // namespace symshape
