// Ops that copy elements into a new order (semantics.md H.8, H.19): repeat, tile, flip,
// roll, rot90, channel_shuffle (pixel_shuffle lives with the conv family). Each allocates a fresh
// tensor whose layout follows what the eager CPU kernel allocates.
#include "prop/memory_format.h"
#include "prop/ops/concat.h"
#include "prop/ops/slice_geometry.h"
#include "prop/ops/view_family.h"
#include "prop/ops/view_geometry.h"
#include "prop/shape_helpers.h"

namespace symshape {

namespace {

// repeat: sizes padded with leading 1s times the repeats; a fresh contiguous tensor.
TensorId repeat_tensor(PropContext& ctx, TensorId x, std::span<const ExprId> reps) {
  ExprArena& ar = ctx.ar;
  const auto sizes = ctx.vals.sizes(x);
  if (reps.size() < sizes.size())
    ctx.fail("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  const size_t lead = reps.size() - sizes.size();
  Dims out;
  for (size_t i = 0; i < reps.size(); ++i) out.push_back(ar.mul(i < lead ? ar.one() : sizes[i - lead], reps[i]));
  check_size_nonnegative(ctx, out);
  return ctx.new_contiguous(ctx.vals.dtype(x), out);
}

void repeat(PropContext& ctx) {
  Dims reps;
  ctx.int_list(ctx.arg(1), reps);
  ctx.set_tensor(repeat_tensor(ctx, ctx.tensor_arg(0), reps));
}

// tile: repeat after padding the repeats with leading 1s up to the rank.
void tile(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  Dims reps;
  ctx.int_list(ctx.arg(1), reps);
  while (reps.size() < ctx.vals.rank(x)) reps.insert(0, ctx.ar.one());
  ctx.set_tensor(repeat_tensor(ctx, x, reps));
}

// empty_like(x, preserve_format): flip's and clone's allocation.
TensorId preserved_copy(PropContext& ctx, TensorId x) {
  const Dims sizes(ctx.vals.sizes(x));
  Dims strides;
  empty_like_strides(ctx, x, MemoryFormat::Preserve, strides);
  return ctx.new_tensor(ctx.vals.dtype(x), sizes, strides);
}

void flip(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  IntDims dims;
  ctx.int_list_const(ctx.arg(1), dims);
  dim_mask(ctx, dims, ctx.vals.rank(x));
  ctx.set_tensor(preserved_copy(ctx, x));
}

void flip_lr_ud(PropContext& ctx, uint32_t min_rank) {
  const TensorId x = ctx.tensor_arg(0);
  if (ctx.vals.rank(x) < min_rank) ctx.fail("Input must be >= {}-d.", min_rank);
  ctx.set_tensor(preserved_copy(ctx, x));
}
void fliplr(PropContext& ctx) { flip_lr_ud(ctx, 2); }
void flipud(PropContext& ctx) { flip_lr_ud(ctx, 1); }

// roll_cpu on one dim: cat of the two narrowed halves, so the result takes cat's layout.
TensorId roll_one(PropContext& ctx, TensorId x, ExprId shift, int64_t dim) {
  ExprArena& ar = ctx.ar;
  const size_t d = static_cast<size_t>(ctx.wrap_dim(dim, ctx.vals.rank(x)));
  const ExprId n = ctx.vals.sizes(x)[d];
  // C++ % followed by "+ size when negative" is Python's modulo
  const ExprId start = ar.mod(ar.sub(n, shift), n);
  const TensorId halves[] = {narrow_view(ctx, x, d, start, ar.sub(n, start)), narrow_view(ctx, x, d, ar.zero(), start)};
  return cat_tensors(ctx, halves, static_cast<int64_t>(d));
}

void roll(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId x = ctx.tensor_arg(0);
  Dims shifts;
  IntDims dims;
  ctx.int_list(ctx.arg(1), shifts);
  ctx.int_list_const(ctx.arg(2), dims);
  if (shifts.empty()) ctx.fail("`shifts` required");
  if (dims.empty() && shifts.size() == 1) {
    // rolled as a flat contiguous copy, then viewed back
    const Dims sizes(ctx.vals.sizes(x));
    return ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(x), sizes));
  }
  if (shifts.size() != dims.size())
    ctx.fail("shifts and dimensions must align. shifts: {}, dims:{}", shifts.size(), dims.size());
  for (int64_t d : dims) ctx.wrap_dim(d, ctx.vals.rank(x));
  // an empty tensor is cloned with its layout preserved
  if (ctx.guard_or_false(ar.eq(numel(ctx, ctx.vals.sizes(x)), ar.zero())))
    return ctx.set_tensor(preserved_copy(ctx, x));
  // 2.x runs torch/_refs roll one dim at a time: index_select(dim, fmod(start +
  // arange(size), size)). arange's (size,) result goes through the binary fast path twice,
  // whose is_contiguous asks `size < 2` (video swin's shifted windows: `D >= 2`)
  for (int64_t d : dims) {
    const ExprId n = ctx.vals.sizes(x)[static_cast<size_t>(ctx.wrap_dim(d, ctx.vals.rank(x)))];
    const ExprId idx_sizes[] = {n}, idx_strides[] = {ar.one()};
    empty_strided_questions(ctx, idx_sizes);
    const OperandLayout ops[] = {{idx_sizes, idx_strides}, {{}, {}, /*scalar=*/true}};
    fake_binary_fast_path_guards(ctx, ops);  // start + idx
    fake_binary_fast_path_guards(ctx, ops);  // fmod(start + idx, size)
  }
  // the narrows' bounds (`size - start != 0`) that 1.13's roll_cpu checks decide eager's
  // layout here without becoming guards
  ShapeEnv::SuppressGuards quiet(ctx.env);
  TensorId cur = x;
  for (size_t i = 0; i < dims.size(); ++i) cur = roll_one(ctx, cur, shifts[i], dims[i]);
  ctx.set_tensor(cur);
}

// rot90(k, dims): flips and a transpose; k % 4 == 0 is a contiguous clone.
void rot90(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  const int64_t k = ctx.int_const(ctx.arg(1));
  IntDims dims;
  ctx.int_list_const(ctx.arg(2), dims);
  const int64_t rank = ctx.vals.rank(x);
  if (dims.size() != 2) ctx.fail("expected total rotation dims == 2, but got dims = {}", dims.size());
  if (rank < 2) ctx.fail("expected total dims >= 2, but got total dims = {}", rank);
  const size_t d0 = static_cast<size_t>(ctx.wrap_dim(dims[0], rank)), d1 = static_cast<size_t>(ctx.wrap_dim(dims[1], rank));
  if (d0 == d1) ctx.fail("expected rotation dims to be different, but got dim0 = {} and dim1 = {}", dims[0], dims[1]);
  const int64_t turns = ((k % 4) + 4) % 4;
  if (turns == 0) {
    const Dims sizes(ctx.vals.sizes(x));
    return ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(x), sizes));
  }
  const TensorId flipped = preserved_copy(ctx, x);
  if (turns == 2) return ctx.set_tensor(flipped);
  Dims sizes(ctx.vals.sizes(flipped)), strides(ctx.vals.strides(flipped));
  std::swap(sizes[d0], sizes[d1]);
  std::swap(strides[d0], strides[d1]);
  ctx.set_tensor(ctx.new_view(flipped, sizes, strides, ctx.vals.tensor(flipped).storage_offset));
}

// A fresh tensor of `sizes` in the memory format x suggests (the channels-last aware
// CPU kernel of channel_shuffle).
TensorId like_format(PropContext& ctx, TensorId x, std::span<const ExprId> sizes) {
  Dims strides;
  format_strides(ctx, sizes, suggest_memory_format(ctx, x), strides);
  return ctx.new_tensor(ctx.vals.dtype(x), sizes, strides);
}

void channel_shuffle(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId x = ctx.tensor_arg(0);
  const int64_t groups = ctx.int_const(ctx.arg(1));
  const size_t rank = ctx.vals.rank(x);
  if (rank <= 2)
    ctx.fail("channel_shuffle expects input to have at least 3 dimensions, but got input with {} dimension(s)", rank);
  if (groups <= 0) ctx.fail("Number of groups to divide channels in must be positive. Value of groups:{}", groups);
  const Dims sizes(ctx.vals.sizes(x));
  if (!holds(ctx, ar.eq(ar.mod(sizes[1], ar.integer(groups)), ar.zero())))
    ctx.fail("Number of channels must be divisible by groups. Got {} channels and {} groups.", ctx.str(sizes[1]), groups);
  ctx.set_tensor(like_format(ctx, x, sizes));
}

constexpr OpRuleEntry kEntries[] = {
    {"aten.repeat.default", repeat},
    {"aten.tile.default", tile},
    {"aten.flip.default", flip},
    {"aten.fliplr.default", fliplr},
    {"aten.flipud.default", flipud},
    {"aten.roll.default", roll},
    {"aten.rot90.default", rot90},
    {"aten.channel_shuffle.default", channel_shuffle},
    {"aten.native_channel_shuffle.default", channel_shuffle},
};

}  // namespace

std::span<const OpRuleEntry> reorder_entries() { return kEntries; }

}  // namespace symshape
