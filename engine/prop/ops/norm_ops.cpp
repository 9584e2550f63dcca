// Normalisation and softmax (semantics.md H.20) as eager CPU 1.13 allocates them:
// softmax / layer_norm / instance_norm results are contiguous, batch_norm keeps a
// contiguous or channels_last input's format (else its suggested format), group_norm
// uses the input's suggested memory format.
#include <initializer_list>
#include <optional>

#include "prop/dtype_rules.h"
#include "prop/fake_elementwise_questions.h"
#include "prop/memory_format.h"
#include "prop/ops/elementwise_common.h"
#include "prop/ops/reduction_common.h"
#include "prop/ops/view_geometry.h"
#include "prop/shape_helpers.h"

namespace symshape {

namespace {

// ---- softmax ---------------------------------------------------------------------------

template <bool Log>
DType softmax_dtype(PropContext& ctx, DType d, int64_t dim, int64_t rank) {
  if (!is_integral(d, true)) return d;
  const bool last = rank == 0 || dim == rank - 1;
  ctx.fail("\"{}{}_kernel_impl\" not implemented for '{}'", Log ? "log_softmax" : "softmax", last ? "_lastdim" : "",
           scalar_type_name(d));
}

// softmax.int / log_softmax.int(self, dim, dtype?): the input is cast to dtype first.
template <bool Log>
void softmax(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const int64_t rank = ctx.vals.rank(self);
  const int64_t d = ctx.wrap_dim(ctx.int_const(ctx.arg(1)), rank);
  const DType dt = softmax_dtype<Log>(ctx, dtype_or(ctx, ctx.arg(2), ctx.vals.dtype(self)), d, rank);
  ctx.set_tensor(ctx.new_contiguous(dt, ctx.vals.sizes(self)));
}

// _softmax / _log_softmax(self, dim, half_to_float)
template <bool Log>
void softmax_internal(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const int64_t rank = ctx.vals.rank(self);
  const int64_t d = ctx.wrap_dim(ctx.int_const(ctx.arg(1)), rank);
  if (ctx.bool_const(ctx.arg(2)))
    ctx.fail("{} with half to float conversion is not supported on CPU", Log ? "log_softmax" : "softmax");
  ctx.set_tensor(ctx.new_contiguous(softmax_dtype<Log>(ctx, ctx.vals.dtype(self), d, rank), ctx.vals.sizes(self)));
}

// ---- layer_norm / rms_norm ---------------------------------------------------------------

bool same_sizes(PropContext& ctx, std::span<const ExprId> a, std::span<const ExprId> b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i] && !ctx.guard(ctx.ar.eq(a[i], b[i]))) return false;
  return true;
}

// 1.13 CPU layer_norm / group_norm kernels read weight and bias with the input's scalar type:
// a parameter of another dtype fails ("expected scalar type Double but found Float").
void check_param_dtypes(PropContext& ctx, TensorId input, std::initializer_list<ArgId> params) {
  const DType in = ctx.vals.dtype(input);
  for (ArgId a : params) {
    if (ctx.is_none(a)) continue;
    if (auto t = ctx.opt_tensor(a); t && ctx.vals.dtype(*t) != in)
      ctx.fail("expected scalar type {} but found {}", dtype_name(in), dtype_name(ctx.vals.dtype(*t)));
  }
}

// 1.13 batch_norm_cpu (is_mixed_type / check_mixed_data_type): when the first defined parameter
// (weight, bias, running_mean, running_var) has the input's dtype every parameter must; otherwise
// only a BFloat16 input with Float parameters is accepted. Returns the dtype of save_mean /
// save_invstd (the parameters' dtype).
DType check_batch_norm_dtypes(PropContext& ctx, TensorId input, std::initializer_list<ArgId> params) {
  const DType in = ctx.vals.dtype(input);
  std::optional<DType> first;
  for (ArgId a : params) {
    if (ctx.is_none(a)) continue;
    if (auto t = ctx.opt_tensor(a)) {
      first = ctx.vals.dtype(*t);
      break;
    }
  }
  if (!first || *first == in) {
    check_param_dtypes(ctx, input, params);
    return in;
  }
  for (ArgId a : params) {
    if (ctx.is_none(a)) continue;
    if (auto t = ctx.opt_tensor(a); t && ctx.vals.dtype(*t) != DType::Float32)
      ctx.fail("mixed dtype (CPU): expect parameter to have scalar type of Float");
  }
  if (in != DType::BFloat16) ctx.fail("mixed dtype (CPU): expect input to have scalar type of BFloat16");
  return DType::Float32;
}

// _check_layer_norm_inputs (shared by rms_norm): returns the first normalised axis.
size_t check_layer_norm(PropContext& ctx, TensorId input, std::span<const ExprId> normalized, ArgId weight, ArgId bias) {
  if (normalized.empty())
    ctx.fail("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got "
             "normalized_shape = {}",
             ctx.shape_str(normalized));
  if (auto w = ctx.opt_tensor(weight); w && !same_sizes(ctx, ctx.vals.sizes(*w), normalized))
    ctx.fail("Expected weight to be of same shape as normalized_shape, but got weight of shape {} and normalized_shape = {}",
             ctx.shape_str(ctx.vals.sizes(*w)), ctx.shape_str(normalized));
  if (auto b = ctx.opt_tensor(bias); b && !same_sizes(ctx, ctx.vals.sizes(*b), normalized))
    ctx.fail("Expected bias to be of same shape as normalized_shape, but got bias of shape {} and normalized_shape = {}",
             ctx.shape_str(ctx.vals.sizes(*b)), ctx.shape_str(normalized));
  const auto sizes = ctx.vals.sizes(input);
  if (sizes.size() < normalized.size() || !same_sizes(ctx, sizes.subspan(sizes.size() - normalized.size()), normalized)) {
    std::string expected = "[*";
    for (ExprId s : normalized) expected += ", " + ctx.str(s);
    ctx.fail("Given normalized_shape={}, expected input with shape {}], but got input of size{}", ctx.shape_str(normalized),
             expected, ctx.shape_str(sizes));
  }
  return sizes.size() - normalized.size();
}

// The (.., 1, ..) shape of layer_norm's mean and rstd: the input's sizes, 1 from `axis` on.
Dims layer_norm_stat_sizes(PropContext& ctx, TensorId input, size_t axis) {
  Dims stat(ctx.vals.sizes(input));
  for (size_t i = axis; i < stat.size(); ++i) stat[i] = ctx.ar.one();
  return stat;
}

// FakeTensorMode runs torch._refs.native_layer_norm for native_layer_norm (its registered
// op impl). Its steps ask, in order:
//   contiguous(input)          prims is_contiguous of the input (`numel < 2` first);
//   var_mean(keepdim)          prims.var's TensorMeta is an empty_strided of the reduced
//                              shape (computeStorageNbytes: `size == 0` per dim), then mean's
//                              true_divide lays out the keepdim statistics `stat`;
//   rsqrt(var + eps)           `+ eps` takes fake_impls' binary fast path (a size guarded 1
//                              becomes the literal 1), rsqrt lays its result out;
//   (x - mean) * rstd, * weight, + bias   binary fast paths, the same literal 1s.
// Over plain symbols all of it is decided; over a conv feature length such as `t // 5 - 1`,
// or the view helper's sizes, these are guards (wav2vec2 / data2vec, mobilevit). Returns the
// sizes of `out` and `rstd` (mobilevit's patches: `ceil(W'/2) == 1` at 64x64 gives out
// (N, 1, C) and strides (C, C, 1)); shape inference keeps the symbolic sizes (its checks
// must stay constraints on the inputs it searches, batch_norm_2x_guards says why).
struct LayerNormSizes {
  Dims out, rstd;
  Dims out_strides;  // FakeTensorMode's strides of `out` (ReferenceHost::fake_strides)
};

// Without a symbolic size or stride FakeTensorMode takes no fast path: the refs lay out
// (x - mean) * rstd * weight + bias step by step (a (1, 1, 1, C) input keeps its size-1
// strides through them). With one, the fast paths allocate contiguous results.
void layer_norm_fake_strides(PropContext& ctx, TensorId input, std::span<const ExprId> x_strides,
                             std::span<const ExprId> stat, std::span<const ExprId> rstd, ArgId weight, ArgId bias,
                             LayerNormSizes& r) {
  if (has_symbolic_layout(ctx, input)) return ctx.contiguous_strides(r.out, r.out_strides);
  const Dims sizes(ctx.vals.sizes(input));
  const DType dt = ctx.vals.dtype(input);
  Dims stat_strides, rstd_strides;
  ctx.contiguous_strides(stat, stat_strides);
  ctx.contiguous_strides(rstd, rstd_strides);
  TensorId a = ctx.new_tensor(dt, sizes, x_strides);
  const TensorId mean = ctx.new_tensor(dt, stat, stat_strides), inv = ctx.new_tensor(dt, rstd, rstd_strides);
  auto step = [&](TensorId rhs) {
    Dims shape, strides;
    broadcast_shapes(ctx, ctx.vals.sizes(a), ctx.vals.sizes(rhs), shape);
    const TensorId ops[] = {a, rhs};
    refs_elementwise_strides(ctx, ops, shape, strides);
    a = ctx.new_tensor(dt, shape, strides);
  };
  ShapeEnv::SuppressGuards read_off_hints(ctx.env);
  step(mean);
  step(inv);
  for (ArgId param : {weight, bias})
    if (const auto p = ctx.opt_tensor(param)) step(*p);
  r.out_strides.assign(ctx.vals.strides(a));
}

LayerNormSizes layer_norm_2x(PropContext& ctx, TensorId input, size_t axis, ArgId weight, ArgId bias) {
  const Dims sizes(ctx.vals.sizes(input));  // copied: new tensors below may grow the value table
  const Dims stat = layer_norm_stat_sizes(ctx, input, axis);
  Dims stat_strides, x_strides;
  ctx.contiguous_strides(stat, stat_strides);
  if (prims_is_contiguous_or_false(ctx, {sizes, ctx.vals.strides(input)}))
    x_strides.assign(ctx.vals.strides(input));
  else
    ctx.contiguous_strides(sizes, x_strides);
  const std::span<const ExprId> reduced = std::span<const ExprId>(sizes).first(axis);
  empty_strided_questions(ctx, reduced);
  // prims.var's result leaves through FakeTensorMode's dispatch cache, whose metadata asks
  // suggest_memory_format of it: a question when it is 4-d / 5-d (a 5-d input normalized
  // over its last dim, video swin's (B, D, H, W, C))
  Dims var_strides;
  ctx.contiguous_strides(reduced, var_strides);
  fake_cache_metadata_questions(ctx, {reduced, var_strides});
  const TensorId stats[] = {ctx.new_tensor(ctx.vals.dtype(input), stat, stat_strides)};
  fake_elementwise_layout_questions(ctx, stats, stat, /*fast_binary=*/false);

  // one binary op through the fast path: its questions, then its result (contiguous over
  // the broadcast shape, as the fast path allocates it when every operand is contiguous)
  Dims a_sizes, a_strides, result, result_strides;
  auto binary = [&](std::span<const ExprId> lhs, std::span<const ExprId> lhs_strides, OperandLayout rhs) {
    const OperandLayout ops[] = {{lhs, lhs_strides}, rhs};
    fake_binary_fast_path_guards(ctx, ops, &result);
    ctx.contiguous_strides(result, result_strides);
  };
  LayerNormSizes r;
  binary(stat, stat_strides, {{}, {}, /*scalar=*/true});  // var + eps
  r.rstd = result;
  Dims rstd_strides(result_strides);
  const TensorId rstd[] = {ctx.new_tensor(ctx.vals.dtype(input), r.rstd, rstd_strides)};
  fake_elementwise_layout_questions(ctx, rstd, r.rstd, /*fast_binary=*/false);
  binary(sizes, x_strides, {stat, stat_strides});  // x - mean
  a_sizes = result, a_strides = result_strides;
  binary(a_sizes, a_strides, {r.rstd, rstd_strides});  // * rstd
  for (ArgId param : {weight, bias}) {
    const auto p = ctx.opt_tensor(param);
    if (!p) continue;
    a_sizes = result, a_strides = result_strides;
    binary(a_sizes, a_strides, {ctx.vals.sizes(*p), ctx.vals.strides(*p)});
  }
  r.out = result;
  if (ctx.inference_mode()) {
    r.out = sizes;
    r.rstd = stat;
  }
  if (ctx.host.fake_strides) layer_norm_fake_strides(ctx, input, x_strides, stat, r.rstd, weight, bias, r);
  return r;
}

// native_layer_norm(input, normalized_shape, weight, bias, eps) -> (out, mean, rstd)
void native_layer_norm(PropContext& ctx) {
  const TensorId input = ctx.tensor_arg(0);
  Dims normalized;
  ctx.int_list(ctx.arg(1), normalized);
  const size_t axis = check_layer_norm(ctx, input, normalized, ctx.arg(2), ctx.arg(3));
  check_param_dtypes(ctx, input, {ctx.arg(2), ctx.arg(3)});
  const DType dt = ctx.vals.dtype(input);
  const LayerNormSizes ln = layer_norm_2x(ctx, input, axis, ctx.arg(2), ctx.arg(3));
  const TensorId ts[] = {ln.out_strides.empty() ? ctx.new_contiguous(dt, ln.out) : ctx.new_tensor(dt, ln.out, ln.out_strides),
                         ctx.new_contiguous(dt, layer_norm_stat_sizes(ctx, input, axis)),
                         ctx.new_contiguous(dt, ln.rstd)};
  ctx.set_tensors(ts);
}

// layer_norm(input, normalized_shape, weight, bias, eps, cudnn_enable): the output only
void layer_norm(PropContext& ctx) {
  const TensorId input = ctx.tensor_arg(0);
  Dims normalized;
  ctx.int_list(ctx.arg(1), normalized);
  const size_t axis = check_layer_norm(ctx, input, normalized, ctx.arg(2), ctx.arg(3));
  check_param_dtypes(ctx, input, {ctx.arg(2), ctx.arg(3)});
  // C++ layer_norm calls native_layer_norm: its statistics are asked about there too
  const LayerNormSizes ln = layer_norm_2x(ctx, input, axis, ctx.arg(2), ctx.arg(3));
  const DType dt = ctx.vals.dtype(input);
  ctx.set_tensor(ln.out_strides.empty() ? ctx.new_contiguous(dt, ln.out) : ctx.new_tensor(dt, ln.out, ln.out_strides));
}

// rms_norm(input, normalized_shape, weight?, eps?): input * rsqrt(mean(x^2)) * weight
void rms_norm(PropContext& ctx) {
  const TensorId input = ctx.tensor_arg(0);
  Dims normalized;
  ctx.int_list(ctx.arg(1), normalized);
  check_layer_norm(ctx, input, normalized, ctx.arg(2), {});
  const ArgId ops[] = {ctx.arg(0), ctx.arg(2)};
  ctx.set_tensor(pointwise_result(ctx, ops, result_type(ctx, ops, PromotionKind::Default)));
}

// ---- batch_norm --------------------------------------------------------------------------

// batch_norm_cpu's output: the input's format when it is contiguous in one, else its
// suggested format, laid out over `out_sizes` (the input's sizes, or the same values with
// guarded 1s as literals).
void batch_norm_strides(PropContext& ctx, TensorId input, std::span<const ExprId> out_sizes, Dims& out) {
  const auto sizes = ctx.vals.sizes(input);
  MemoryFormat fmt;
  if (layout_is_contiguous(ctx, input))
    fmt = MemoryFormat::Contiguous;
  else if ((sizes.size() == 4 || sizes.size() == 5) && layout_is_channels_last(ctx, input))
    fmt = sizes.size() == 4 ? MemoryFormat::ChannelsLast : MemoryFormat::ChannelsLast3d;
  else
    fmt = suggest_memory_format(ctx, input);
  format_strides(ctx, out_sizes, fmt, out);
}

ExprId channels(PropContext& ctx, TensorId input) {
  ctx.wrap_dim(1, ctx.vals.rank(input));
  return ctx.vals.sizes(input)[1];
}

void check_features(PropContext& ctx, ArgId a, std::string_view name, ExprId c) {
  auto t = ctx.opt_tensor(a);
  if (!t) return;
  const ExprId n = numel(ctx, ctx.vals.sizes(*t));
  if (!check_ok(ctx, ctx.ar.eq(n, c))) ctx.fail("{} should contain {} elements not {}", name, ctx.str(c), ctx.str(n));
}

// PyTorch 2.x runs every batch_norm variant (batch_norm, native_batch_norm,
// _native_batch_norm_legit*, training or not) through the decomposition
// torch/_decomp/decompositions.py native_batch_norm_helper, whose first pointwise op is
// `input - mean` (eval: running_mean unsqueezed to (C, 1, ...); training: var_mean's keepdim
// (1, C, 1, ...)). Under FakeTensorMode that op takes fake_impls' binary fast path, which asks
// `size == 1` of every dim of the input (infer_size, innermost first) and then its layout
// (is_contiguous, is_channels_last_contiguous_2d): on a conv output of a new spatial size
// these are Ne(W', 1), Ne(H', 1) and, from the channels stride, Ne(H'*W', 1). The later ops
// of the decomposition ask the same questions again (already decided). The output sizes
// are that broadcast's (`out`): where the input's size is guarded equal to 1 the stat's
// literal 1 replaces it, as fake_impls.infer_size picks the other side of a 1; the layout
// stays eager 1.13's (batch_norm_strides).
void batch_norm_2x_guards(PropContext& ctx, TensorId input, ExprId c, bool training, Dims& out) {
  const Dims sizes(ctx.vals.sizes(input));  // a copy: the stat tensor below may grow the value table
  const size_t rank = sizes.size();
  Dims stat, stat_strides;
  if (training) stat.push_back(ctx.ar.one());
  stat.push_back(c);
  while (stat.size() < rank - (training ? 0 : 1)) stat.push_back(ctx.ar.one());
  ctx.contiguous_strides(stat, stat_strides);
  const OperandLayout ops[] = {{sizes, ctx.vals.strides(input)}, {stat, stat_strides}};
  if (!fake_binary_fast_path_guards(ctx, ops, &out)) {
    // an input neither contiguous nor channels_last (a channel split of a conv output):
    // `input - mean` runs the refs, whose layout sort asks its own questions
    const TensorId operands[] = {input, ctx.new_tensor(ctx.vals.dtype(input), stat, stat_strides)};
    fake_elementwise_layout_questions(ctx, operands, out, /*fast_binary=*/false);
  }
  // shape inference keeps the symbolic sizes: its later checks must stay constraints on the
  // inputs it searches, not literals of the branch one trace took
  if (out.size() != rank || ctx.inference_mode()) out.assign(sizes);
}

// The shared body: (input, weight, bias, running_mean?, running_var?, training) ->
// (out, save_mean, save_invstd); the stats are (C,) when training and (0,) otherwise.
void batch_norm_impl(PropContext& ctx, ArgId weight, ArgId bias, ArgId mean, ArgId var, bool training, bool tuple) {
  const TensorId input = ctx.tensor_arg(0);
  const ExprId c = channels(ctx, input);
  const DType dt = ctx.vals.dtype(input);
  DType stat_dt = dt;
  Dims strides, out_sizes(ctx.vals.sizes(input));
  // aten.batch_norm returns early on an empty input; native_batch_norm always runs the CPU kernel
  if (tuple) stat_dt = check_batch_norm_dtypes(ctx, input, {weight, bias, mean, var});
  if (ctx.guard_or_false(ctx.ar.eq(numel(ctx, ctx.vals.sizes(input)), ctx.ar.zero()))) {
    empty_like_strides(ctx, input, MemoryFormat::Preserve, strides);
  } else {
    if (!tuple) stat_dt = check_batch_norm_dtypes(ctx, input, {weight, bias, mean, var});
    if (!ctx.is_none(mean))
      check_features(ctx, mean, "running_mean", c);
    else if (!training)
      ctx.fail("running_mean must be defined in evaluation mode");
    if (!ctx.is_none(var))
      check_features(ctx, var, "running_var", c);
    else if (!training)
      ctx.fail("running_var must be defined in evaluation mode");
    check_features(ctx, weight, "weight", c);
    check_features(ctx, bias, "bias", c);
    batch_norm_2x_guards(ctx, input, c, training, out_sizes);
    batch_norm_strides(ctx, input, out_sizes, strides);
  }
  const TensorId out = ctx.new_tensor(dt, out_sizes, strides);
  if (!tuple) return ctx.set_tensor(out);
  const ExprId stat[] = {training ? c : ctx.ar.zero()};
  const TensorId ts[] = {out, ctx.new_contiguous(stat_dt, stat), ctx.new_contiguous(stat_dt, stat)};
  ctx.set_tensors(ts);
}

// batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn)
void batch_norm(PropContext& ctx) {
  batch_norm_impl(ctx, ctx.arg(1), ctx.arg(2), ctx.arg(3), ctx.arg(4), ctx.bool_const(ctx.arg(5)), false);
}

// native_batch_norm / _native_batch_norm_legit(input, weight, bias, rm, rv, training, momentum, eps)
void native_batch_norm(PropContext& ctx) {
  batch_norm_impl(ctx, ctx.arg(1), ctx.arg(2), ctx.arg(3), ctx.arg(4), ctx.bool_const(ctx.arg(5)), true);
}

// _native_batch_norm_legit.no_stats(input, weight, bias, training, momentum, eps)
void native_batch_norm_no_stats(PropContext& ctx) {
  batch_norm_impl(ctx, ctx.arg(1), ctx.arg(2), {}, {}, ctx.bool_const(ctx.arg(3)), true);
}

// _native_batch_norm_legit_no_training(input, weight, bias, rm, rv, momentum, eps)
void native_batch_norm_no_training(PropContext& ctx) {
  batch_norm_impl(ctx, ctx.arg(1), ctx.arg(2), ctx.arg(3), ctx.arg(4), false, true);
}

// instance_norm(input, weight, bias, rm, rv, use_input_stats, momentum, eps, cudnn): a
// batch_norm over a contiguous (1, N*C, ...) view, viewed back.
void instance_norm(PropContext& ctx) {
  const TensorId input = ctx.tensor_arg(0);
  channels(ctx, input);
  const bool use_input_stats = ctx.bool_const(ctx.arg(5));
  if (!use_input_stats && (ctx.is_none(ctx.arg(3)) || ctx.is_none(ctx.arg(4))))
    ctx.fail("Expected running_mean and running_var to be defined when use_input_stats is false");
  const ExprId c = ctx.vals.sizes(input)[1];
  check_features(ctx, ctx.arg(1), "weight", c);
  check_features(ctx, ctx.arg(2), "bias", c);
  check_features(ctx, ctx.arg(3), "running_mean", c);
  check_features(ctx, ctx.arg(4), "running_var", c);
  check_batch_norm_dtypes(ctx, input, {ctx.arg(1), ctx.arg(2), ctx.arg(3), ctx.arg(4)});
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(input), ctx.vals.sizes(input)));
}

// ---- group_norm ----------------------------------------------------------------------------

void check_group_norm(PropContext& ctx, TensorId input, ArgId weight, ArgId bias, ExprId c, int64_t groups) {
  ExprArena& ar = ctx.ar;
  if (groups <= 0) ctx.fail("Expected num groups to be greater than 0, got {}", groups);
  const auto sizes = ctx.vals.sizes(input);
  if (!check_ok(ctx, ar.eq(ar.mod(c, ar.integer(groups)), ar.zero())))
    ctx.fail("Expected number of channels in input to be divisible by num_groups, but got input of shape {} and "
             "num_groups={}",
             ctx.shape_str(sizes), groups);
  if (auto w = ctx.opt_tensor(weight)) {
    if (ctx.vals.rank(*w) != 1 || !ctx.guard(ar.eq(numel(ctx, ctx.vals.sizes(*w)), c)))
      ctx.fail("Expected weight to be a vector of size equal to the number of channels in input, but got weight of "
               "shape {} and input of shape {}",
               ctx.shape_str(ctx.vals.sizes(*w)), ctx.shape_str(sizes));
  }
  if (auto b = ctx.opt_tensor(bias)) {
    // eager prints the weight's shape here
    if (ctx.vals.rank(*b) != 1 || !ctx.guard(ar.eq(numel(ctx, ctx.vals.sizes(*b)), c))) {
      auto w = ctx.opt_tensor(weight);
      ctx.fail("Expected bias to be a vector of size equal to the number of channels in input, but got bias of shape "
               "{} and input of shape {}",
               ctx.shape_str(w ? ctx.vals.sizes(*w) : ctx.vals.sizes(*b)), ctx.shape_str(sizes));
    }
  }
}

// The binary ops of torch/_refs native_group_norm that take the whole input, each through
// FakeTensorMode's binary fast path (its per-operand is_contiguous and
// is_channels_last_contiguous_2d ask of H and W: a contiguous input's `H*W != 1`).
// On CPU with a weight: `x * w + b`, where w and b are the per-(N, C) scale and shift made
// contiguous, as_strided to (N, C) and unsqueezed to the input's rank (strides (C, 1, ..., 1)).
// Without a weight: `(x_reshaped - mean) * rstd` on the reshaped (N, G, C // G, HxW) view
// (`reshaped`: the view helper's sizes and strides) and the (N, G, 1, 1) statistics,
// `.view(input.shape)`, then `+ bias` unsqueezed to (1, C, 1, ...). `out` receives the
// result's sizes: the last op's, where a size guarded == 1 takes the broadcast operand's
// literal 1 (fake_impls infer_size) and the view keeps its helper's expressions (a tail
// size 1 is `HxW // HxW`, a literal 1).
void group_norm_output_questions(PropContext& ctx, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                                 const OperandLayout& reshaped, bool has_weight, bool has_bias, Dims& out) {
  ExprArena& ar = ctx.ar;
  const size_t rank = sizes.size();
  Dims result;
  const auto take = [&](const Dims& shape) {
    if (shape.size() == rank) out = shape;
  };
  if (has_weight) {
    Dims scale, scale_strides;
    scale.resize(rank, ar.one());
    scale_strides.resize(rank, ar.one());
    scale[0] = sizes[0], scale[1] = sizes[1];
    scale_strides[0] = sizes[1];
    const OperandLayout mul_ops[] = {{sizes, strides}, {scale, scale_strides}};
    MemoryFormat format = MemoryFormat::Contiguous;
    if (!fake_binary_fast_path_guards(ctx, mul_ops, &result, &format)) return;
    take(result);
    Dims product_strides, sum;
    format_strides(ctx, result, format, product_strides);
    const OperandLayout add_ops[] = {{result, product_strides}, {scale, scale_strides}};
    if (fake_binary_fast_path_guards(ctx, add_ops, &sum)) take(sum);
    return;
  }
  Dims stat, stat_strides;
  stat.resize(reshaped.sizes.size(), ar.one());
  stat[0] = reshaped.sizes[0], stat[1] = reshaped.sizes[1];
  ctx.contiguous_strides(stat, stat_strides);
  Dims x(reshaped.sizes), x_strides(reshaped.strides);
  for (int step = 0; step < 2; ++step) {  // - mean, * rstd: each result is a new tensor
    const OperandLayout ops[] = {{x, x_strides}, {stat, stat_strides}};
    MemoryFormat format = MemoryFormat::Contiguous;
    if (!fake_binary_fast_path_guards(ctx, ops, &result, &format)) return;
    x = result;
    format_strides(ctx, x, format, x_strides);
  }
  Dims view_strides, view_sizes;
  if (!reshape_view_helper_guards(ctx, x, x_strides, sizes, &view_strides, &view_sizes)) return;
  take(view_sizes);
  if (!has_bias) return;
  Dims bias, bias_strides;
  bias.resize(rank, ar.one());
  bias_strides.resize(rank, ar.one());
  bias[1] = sizes[1];
  bias_strides[0] = sizes[1];
  const OperandLayout add_ops[] = {{view_sizes, view_strides}, {bias, bias_strides}};
  if (fake_binary_fast_path_guards(ctx, add_ops, &result)) take(result);
}

// Under the Python dispatcher (export, Dynamo) the native_group_norm that C++ group_norm
// calls on its input made contiguous in the suggested format runs torch/_refs
// native_group_norm, whose first step reshapes that input to (N, G, C // G, HxW): the
// reshape's _reshape_view_helper questions (`numel == 0`, is_contiguous's `numel < 2`, the
// view's own) are guards. var_mean and the statistics' arithmetic on (N, G, ...) ask
// nothing of H and W; the ops on the whole input do (group_norm_output_questions).
void group_norm_decomposition_guards(PropContext& ctx, std::span<const ExprId> input_sizes,
                                     std::span<const ExprId> strides, ExprId groups, bool has_weight, bool has_bias,
                                     Dims& out) {
  ExprArena& ar = ctx.ar;
  const Dims sizes(input_sizes);  // copied: the view helper may grow the value table
  out = sizes;
  if (sizes.size() < 2 || !ctx.known_true(ar.eq(ar.mod(sizes[1], groups), ar.zero()))) return;
  ExprId hxw = ar.one();
  for (size_t i = 2; i < sizes.size(); ++i) hxw = ar.mul(hxw, sizes[i]);
  const ExprId shape[] = {sizes[0], groups, ar.floordiv(sizes[1], groups), hxw};
  Dims reshaped_strides, reshaped_sizes;
  // a copy (or a helper that stopped) leaves the requested shape, contiguous
  if (!reshape_view_helper_guards(ctx, sizes, strides, shape, &reshaped_strides, &reshaped_sizes)) {
    reshaped_sizes.assign(shape);
    ctx.contiguous_strides(shape, reshaped_strides);
  }
  group_norm_output_questions(ctx, sizes, strides, {reshaped_sizes, reshaped_strides}, has_weight, has_bias, out);
}

// group_norm(input, num_groups, weight, bias, eps, cudnn_enabled)
void group_norm(PropContext& ctx) {
  const TensorId input = ctx.tensor_arg(0);
  if (ctx.vals.rank(input) < 2)
    ctx.fail("Expected at least 2 dimensions for input tensor but received {}", ctx.vals.rank(input));
  const ExprId c = ctx.vals.sizes(input)[1];
  check_group_norm(ctx, input, ctx.arg(2), ctx.arg(3), c, ctx.int_const(ctx.arg(1)));
  check_param_dtypes(ctx, input, {ctx.arg(2), ctx.arg(3)});
  Dims strides, sizes;
  const MemoryFormat format = suggest_memory_format(ctx, input);
  // X = input.contiguous(memory_format): the input itself, strides and all, when it already
  // is (a clone's `Max(1, size)` strides stay, which the decomposition's reshape then asks of)
  if (is_contiguous_as(ctx, input, format)) strides.assign(ctx.vals.strides(input));
  else format_strides(ctx, ctx.vals.sizes(input), format, strides);
  group_norm_decomposition_guards(ctx, ctx.vals.sizes(input), strides, ctx.int_expr(ctx.arg(1)),
                                  ctx.opt_tensor(ctx.arg(2)).has_value(), ctx.opt_tensor(ctx.arg(3)).has_value(), sizes);
  // the decomposition's sizes (the same values) in the input's layout
  format_strides(ctx, sizes, format, strides);
  ctx.set_tensor(ctx.new_tensor(ctx.vals.dtype(input), sizes, strides));
}

// native_group_norm(input, weight, bias, N, C, HxW, group, eps) -> (out, mean (N, G), rstd (N, G))
void native_group_norm(PropContext& ctx) {
  const TensorId input = ctx.tensor_arg(0);
  const ExprId n = ctx.int_expr(ctx.arg(3));
  const ExprId groups = ctx.int_expr(ctx.arg(6));
  check_param_dtypes(ctx, input, {ctx.arg(1), ctx.arg(2)});
  // 1.13 CPU: TORCH_CHECK(X.is_contiguous(X.suggest_memory_format())); group_norm.default makes
  // its input contiguous first, the native op called directly does not
  const MemoryFormat fmt = suggest_memory_format(ctx, input);
  if (!(fmt == MemoryFormat::Contiguous ? layout_is_contiguous(ctx, input) : layout_is_channels_last(ctx, input)))
    ctx.fail("Expected X.is_contiguous(memory_format) to be true, but got false.");
  const DType dt = ctx.vals.dtype(input);
  Dims strides;
  format_strides(ctx, ctx.vals.sizes(input), fmt, strides);
  const ExprId stat[] = {n, groups};
  const TensorId ts[] = {ctx.new_tensor(dt, ctx.vals.sizes(input), strides), ctx.new_contiguous(dt, stat),
                         ctx.new_contiguous(dt, stat)};
  ctx.set_tensors(ts);
}

// ---- _weight_norm -------------------------------------------------------------------------

// _weight_norm(v, g, dim=0) (PyTorch 2.x, CompositeImplicitAutograd,
// aten/src/ATen/native/WeightNorm.cpp): v and g are made contiguous; without a Half operand
// and with dim 0 or v.dim() - 1 it runs the fused _weight_norm_interface (its CPU kernel
// needs v and g of one dtype: "expected scalar type Float but found Double"; FakeTensor runs
// its decomposition in torch/_decomp/decompositions.py, `v * (g / norm.to(g.dtype))`),
// otherwise `v * (g / norm_except_dim(v, 2, dim))` (norm_except_dim of dim -1 is the whole
// norm, a 0-d tensor). Either way the result is the pointwise product of the contiguous v
// with a broadcast operand: contiguous, in the broadcast shape, dtype promote(v, g).
// Measured with 2.13 / 2.14 (CPU and FakeTensor): contiguous for permuted and channels_last
// v, float16 / bfloat16 kept.
void weight_norm(PropContext& ctx) {
  const TensorId v = ctx.tensor_arg(0), g = ctx.tensor_arg(1);
  const std::optional<int64_t> dim_arg = ctx.opt_int(ctx.arg(2));
  const int64_t dim = dim_arg.value_or(0);
  const int64_t rank = ctx.vals.rank(v);
  const DType vd = ctx.vals.dtype(v), gd = ctx.vals.dtype(g);
  const bool half = vd == DType::Float16 || gd == DType::Float16;
  const bool fused = !half && (dim == 0 || dim == rank - 1);
  if (fused && vd != gd)
    ctx.fail("expected scalar type {} but found {}", scalar_type_name(vd), scalar_type_name(gd));
  // norm_except_dim(v, 2, dim): dim -1 -> v.norm() (0-d); else sizes 1 except v.size(dim)
  Dims norm;
  if (dim != -1) {
    const int64_t d = ctx.wrap_dim(dim, rank);
    for (int64_t i = 0; i < rank; ++i) norm.push_back(i == d ? ctx.vals.sizes(v)[i] : ctx.ar.one());
  }
  Dims gn, out;
  broadcast_shapes(ctx, ctx.vals.sizes(g), norm, gn);
  broadcast_shapes(ctx, ctx.vals.sizes(v), gn, out);
  ctx.set_tensor(ctx.new_contiguous(promote_types(vd, gd), out));
}

constexpr OpRuleEntry kRules[] = {
    {"aten.softmax.int", softmax<false>},
    {"aten.log_softmax.int", softmax<true>},
    {"aten._softmax.default", softmax_internal<false>},
    {"aten._log_softmax.default", softmax_internal<true>},
    {"aten.layer_norm.default", layer_norm},
    {"aten.native_layer_norm.default", native_layer_norm},
    {"aten.rms_norm.default", rms_norm},
    {"aten.batch_norm.default", batch_norm},
    {"aten.native_batch_norm.default", native_batch_norm},
    {"aten._native_batch_norm_legit.default", native_batch_norm},
    {"aten._native_batch_norm_legit.no_stats", native_batch_norm_no_stats},
    {"aten._native_batch_norm_legit_no_training.default", native_batch_norm_no_training},
    {"aten.instance_norm.default", instance_norm},
    {"aten.group_norm.default", group_norm},
    {"aten.native_group_norm.default", native_group_norm},
    {"aten._weight_norm.default", weight_norm},
};

}  // namespace

std::span<const OpRuleEntry> norm_rules() { return kRules; }

}  // namespace symshape
