// Upsampling / interpolate (semantics.md H.17). The .vec overloads take exactly one of
// output_size and scale_factors; with scales, eager computes each size as
// int64(double(S) * scale), symbolically TruncToInt(ToFloat(S) * scale), and PyTorch 2.x's
// decompositions S * scale for an integral scale (vec_output_size): both evaluate exactly
// like eager for every hint. Output layout (eager 1.13):
// nearest2d/3d, bilinear2d and trilinear3d keep the input's suggested layout; the 1-d
// ops and bicubic2d are contiguous (bicubic2d follows the suggested layout from 2.x on).
#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "prop/fake_elementwise_questions.h"
#include "prop/memory_format.h"
#include "prop/ops/conv_family.h"
#include "prop/shape_helpers.h"

namespace symshape::conv {

namespace {

// SuggestedSince2: bicubic2d (and its antialiased form), contiguous in eager 1.13 and in the
// input's suggested format from 2.x on (2.13: a channels_last (1, 32, 3, 3) input gives
// strides (512, 1, 128, 32) from .vec, .default and _aa alike).
enum class Layout : uint8_t { Suggested, Contiguous, SuggestedSince2 };

constexpr const char* kAxes[3][3] = {{"W", "", ""}, {"H", "W", ""}, {"D", "H", "W"}};

// upsample_{1,2,3}d_common_check and the meta's non-empty check, then the result.
template <size_t N, Layout L>
void finish(PropContext& ctx, TensorId in, const Dims& out, std::optional<MemoryFormat> layout = std::nullopt) {
  ExprArena& ar = ctx.ar;
  const auto s = ctx.vals.sizes(in);
  if (out.size() != N) ctx.fail("It is expected output_size equals to {}, but got size {}", N, out.size());
  if (s.size() != N + 2) ctx.fail("It is expected input_size equals to {}, but got size {}", N + 2, s.size());
  bool positive = true;
  for (size_t i = 0; i < N && positive; ++i) positive = holds(ctx, ar.gt(s[i + 2], ar.zero()));
  for (size_t i = 0; i < N && positive; ++i) positive = holds(ctx, ar.gt(out[i], ar.zero()));
  if (!positive) {
    std::string in_s, out_s;
    for (size_t i = 0; i < N; ++i) {
      const char* sep = i ? ", " : "";
      in_s += fmt::format("{}{}: {}", sep, kAxes[N - 1][i], ctx.str(s[i + 2]));
      out_s += fmt::format("{}{}: {}", sep, kAxes[N - 1][i], ctx.str(out[i]));
    }
    ctx.fail("Input and output sizes should be greater than 0, but got input ({}){} output ({})", in_s,
             N == 1 ? " and" : "", out_s);
  }
  // batch may be empty, the channel dim may not
  if (ctx.guard(ar.eq(s[1], ar.zero())))
    ctx.fail("Non-empty {}D data tensor expected but got a tensor with sizes {}", N + 2, ctx.shape_str(s));
  Dims shape;
  shape.push_back(s[0]);
  shape.push_back(s[1]);
  for (ExprId e : out) shape.push_back(e);
  const bool suggested =
      L == Layout::Suggested || (L == Layout::SuggestedSince2 && ctx.host.eager_torch.major >= 2);
  const MemoryFormat format = layout ? *layout : suggested ? suggest_memory_format(ctx, in) : MemoryFormat::Contiguous;
  ctx.set_tensor(new_in_format(ctx, ctx.vals.dtype(in), shape, format));
}

// upsample::compute_output_size of the .vec overloads. `exact_integral_scale`: the size
// PyTorch 2.x's Python decompositions compute (decompositions.py
// upsample_compute_output_size, used by every .vec overload but bicubic2d's): an integral
// scale multiplies the size exactly (`S * 2`, an integer expression), another is
// sym_int(S * scale). Eager's C++ (and bicubic2d's decomposition) truncate double(S) * scale:
// the same value at every size, not the same expression.
void vec_output_size(PropContext& ctx, TensorId in, ArgId size_arg, ArgId scales_arg, Dims& out,
                     bool exact_integral_scale = true) {
  ExprArena& ar = ctx.ar;
  const auto s = ctx.vals.sizes(in);
  const size_t spatial = s.size() < 2 ? 0 : s.size() - 2;
  const bool has_size = !ctx.is_none(size_arg), has_scales = !ctx.is_none(scales_arg);
  if (has_size == has_scales) ctx.fail("Must specify exactly one of output_size and scale_factors");
  out.clear();
  if (has_size) {
    ctx.int_list(size_arg, out);
    if (out.size() != spatial)
      ctx.fail("It is expected output_size equals to {}, but got size {}", spatial, out.size());
    return;
  }
  const auto items = ctx.graph.list_items(scales_arg);
  if (ctx.graph.arg_kind(scales_arg) != ArgKind::List || items.size() != spatial)
    ctx.fail("It is expected scale_factors to have {} elements", spatial);
  for (size_t i = 0; i < spatial; ++i) {
    const double scale = ctx.float_const(items[i]);
    if (exact_integral_scale && scale == std::trunc(scale) && std::fabs(scale) < 1e15) {
      out.push_back(ar.mul(s[i + 2], ar.integer(static_cast<int64_t>(scale))));
      continue;
    }
    // trunc(double(S) * scale): the cast in compute_output_size
    out.push_back(ar.trunc_to_int(ar.mul(ar.to_float(s[i + 2]), ar.floating(scale))));
  }
}

// The nearest .vec overloads' CompositeImplicitAutograd decomposition (decompositions.py
// _upsample_nearest), run under the Python dispatcher (export, Dynamo):
// `aten._unsafe_index(input, [None, None, rows, cols...])`, whose meta (meta_index_Tensor)
// asks `numel == 0`, then compute_elementwise_output_logical_to_physical_perm of the input
// restrided to the output shape (stride 0 over the indexed dims); last,
// utils.suggest_memory_format(input) for the result's `.contiguous(memory_format=...)`.
void nearest_decomposition_questions(PropContext& ctx, TensorId in, const Dims& out) {
  ExprArena& ar = ctx.ar;
  const Dims sizes(ctx.vals.sizes(in)), strides(ctx.vals.strides(in));
  if (ctx.guard_or_false(ar.eq(numel(ctx, sizes), ar.zero()))) return;
  Dims shape, restrided;
  for (size_t i = 0; i < 2; ++i) shape.push_back(sizes[i]), restrided.push_back(strides[i]);
  for (ExprId o : out) shape.push_back(o), restrided.push_back(ar.zero());
  const TensorId src[] = {ctx.new_tensor(ctx.vals.dtype(in), shape, restrided)};
  fake_elementwise_layout_questions(ctx, src, shape, /*fast_binary=*/false);
  prims_suggest_memory_format(ctx, {sizes, strides});
}

// Nearest kinds: (input, output_size?, scale_factors?)
template <size_t N, Layout L>
void nearest_vec_rule(PropContext& ctx) {
  const TensorId in = ctx.tensor_arg(0);
  Dims out;
  vec_output_size(ctx, in, ctx.arg(1), ctx.arg(2), out);
  if (ctx.vals.rank(in) == N + 2 && out.size() == N) nearest_decomposition_questions(ctx, in, out);
  finish<N, L>(ctx, in, out);
}

// Interpolating kinds: (input, output_size?, align_corners, scale_factors?)
template <size_t N, Layout L>
void interp_vec_rule(PropContext& ctx) {
  const TensorId in = ctx.tensor_arg(0);
  Dims out;
  vec_output_size(ctx, in, ctx.arg(1), ctx.arg(3), out);
  finish<N, L>(ctx, in, out);
}

// _upsample_linear's last step for an input PyTorch suggests a channels_last format of:
// `result.contiguous(memory_format=...)`. Its pointwise blend is row-major (the _unsafe_index
// outputs sort a channels_last input's N and C as row-major, and the blend keeps that), and
// C++ contiguous() returns the blend itself when it already counts as contiguous in that
// format, which a row-major layout does only where the spatial sizes are all 1 (Pvt's
// position embedding resized to 1x1: FakeTensorMode reports the row-major strides there, eager
// the format's). Asked as C++ is_contiguous(memory_format) asks it (the guard_or_false walk
// of _compute_channels_last_contiguous_2d_sym / _3d_sym).
bool linear_blend_kept(PropContext& ctx, TensorId in, const Dims& out) {
  const auto s = ctx.vals.sizes(in);
  Dims shape, row_major;
  shape.push_back(s[0]);
  shape.push_back(s[1]);
  for (ExprId e : out) shape.push_back(e);
  ctx.contiguous_strides(shape, row_major);
  return ctx.is_channels_last_contiguous(ctx.new_tensor(ctx.vals.dtype(in), shape, row_major));
}

// The linear kinds' and bicubic2d's .vec overloads have CompositeImplicitAutograd Python
// decompositions (torch/_decomp/decompositions.py _upsample_linear_vec,
// upsample_bicubic2d_vec), which PyTorch 2.x runs under the Python dispatcher (export,
// Dynamo). Their questions: per spatial dim `arange(out).to(dtype)`, whose
// prims.convert_element_type meta asks `out < 2` (is_non_overlapping_and_dense_or_false of a
// 1-d tensor); last, `result.contiguous(memory_format=utils.suggest_memory_format(input))`.
// The output layout of bicubic2d is that format too, where eager 1.13's CPU kernel writes a
// contiguous output: reported when FakeTensorMode's strides are asked for.
// `Bicubic`: upsample_bicubic2d_vec computes its sizes itself, as sym_int(sym_float(S) * scale).
template <size_t N, Layout L, bool Bicubic = false>
void decomposed_interp_vec_rule(PropContext& ctx) {
  const TensorId in = ctx.tensor_arg(0);
  Dims out;
  vec_output_size(ctx, in, ctx.arg(1), ctx.arg(3), out, /*exact_integral_scale=*/!Bicubic);
  if (ctx.vals.rank(in) != N + 2 || out.size() != N) return finish<N, L>(ctx, in, out);
  for (ExprId o : out) ctx.guard_or_false(ctx.ar.lt(o, ctx.ar.integer(2)));
  const MemoryFormat fake = prims_suggest_memory_format(ctx, {ctx.vals.sizes(in), ctx.vals.strides(in)});
  std::optional<MemoryFormat> fake_format;
  if (L == Layout::SuggestedSince2) fake_format = fake;
  if (!Bicubic && fake != MemoryFormat::Contiguous && linear_blend_kept(ctx, in, out))
    fake_format = MemoryFormat::Contiguous;
  finish<N, L>(ctx, in, out, ctx.host.fake_strides ? fake_format : std::nullopt);
}

// .default overloads: (self, output_size, ...); the scales do not change the size.
template <size_t N, Layout L>
void default_rule(PropContext& ctx) {
  const TensorId in = ctx.tensor_arg(0);
  Dims out;
  ctx.int_list(ctx.arg(1), out);
  finish<N, L>(ctx, in, out);
}

constexpr Layout S = Layout::Suggested;
constexpr Layout C = Layout::Contiguous;
constexpr Layout B = Layout::SuggestedSince2;

constexpr OpRuleEntry kRules[] = {
    {"aten.upsample_nearest1d.vec", nearest_vec_rule<1, C>},
    {"aten.upsample_nearest2d.vec", nearest_vec_rule<2, S>},
    {"aten.upsample_nearest3d.vec", nearest_vec_rule<3, S>},
    {"aten._upsample_nearest_exact1d.vec", nearest_vec_rule<1, C>},
    {"aten._upsample_nearest_exact2d.vec", nearest_vec_rule<2, S>},
    {"aten._upsample_nearest_exact3d.vec", nearest_vec_rule<3, S>},
    {"aten.upsample_linear1d.vec", decomposed_interp_vec_rule<1, C>},
    {"aten.upsample_bilinear2d.vec", decomposed_interp_vec_rule<2, S>},
    {"aten.upsample_bicubic2d.vec", decomposed_interp_vec_rule<2, B, true>},
    {"aten.upsample_trilinear3d.vec", decomposed_interp_vec_rule<3, S>},
    {"aten._upsample_bilinear2d_aa.vec", interp_vec_rule<2, S>},
    {"aten._upsample_bicubic2d_aa.vec", interp_vec_rule<2, B>},
    {"aten.upsample_nearest1d.default", default_rule<1, C>},
    {"aten.upsample_nearest2d.default", default_rule<2, S>},
    {"aten.upsample_nearest3d.default", default_rule<3, S>},
    {"aten._upsample_nearest_exact1d.default", default_rule<1, C>},
    {"aten._upsample_nearest_exact2d.default", default_rule<2, S>},
    {"aten._upsample_nearest_exact3d.default", default_rule<3, S>},
    {"aten.upsample_linear1d.default", default_rule<1, C>},
    {"aten.upsample_bilinear2d.default", default_rule<2, S>},
    {"aten.upsample_bicubic2d.default", default_rule<2, B>},
    {"aten.upsample_trilinear3d.default", default_rule<3, S>},
    {"aten._upsample_bilinear2d_aa.default", default_rule<2, S>},
    {"aten._upsample_bicubic2d_aa.default", default_rule<2, B>},
};

}  // namespace

std::span<const OpRuleEntry> upsample_rules() { return kRules; }

}  // namespace symshape::conv
