// Sub-range views (semantics.md H.11-H.12): slice, select, narrow and the ops that cut a
// dim into several views (split, split_with_sizes, chunk, unbind, tensor_split).
#include <limits>

#include "prop/ops/slice_geometry.h"
#include "prop/ops/view_family.h"
#include "prop/ops/view_geometry.h"

namespace symshape {

namespace {

// The sliced dim of a splitting op: wrapped against a rank >= 1.
size_t split_dim(PropContext& ctx, TensorId x, ArgId dim_arg, const char* no_dims_message) {
  const int64_t rank = ctx.vals.rank(x);
  if (rank == 0) ctx.fail("{}", no_dims_message);
  return static_cast<size_t>(ctx.wrap_dim(ctx.int_const(dim_arg), rank));
}

void slice(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  const int64_t rank = ctx.vals.rank(x);
  if (rank == 0) ctx.fail("IndexError: slice() cannot be applied to a 0-dim tensor.");
  const size_t d = static_cast<size_t>(ctx.wrap_dim(ctx.int_const(ctx.arg(1)), rank));
  const ArgId s = ctx.arg(2), e = ctx.arg(3), st = ctx.arg(4);
  const ExprId start = ctx.is_none(s) ? ctx.ar.zero() : ctx.int_expr(s);
  const ExprId end = ctx.is_none(e) ? ctx.ar.integer(std::numeric_limits<int64_t>::max()) : ctx.int_expr(e);
  const ExprId step = ctx.is_none(st) ? ctx.ar.one() : ctx.int_expr(st);
  ctx.set_tensor(slice_tensor(ctx, x, d, start, end, step));
}

void select(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  const int64_t rank = ctx.vals.rank(x);
  if (rank == 0) ctx.fail("IndexError: select() cannot be applied to a 0-dim tensor.");
  const size_t d = static_cast<size_t>(ctx.wrap_dim(ctx.int_const(ctx.arg(1)), rank));
  ctx.set_tensor(select_tensor(ctx, x, d, ctx.int_expr(ctx.arg(2))));
}

void narrow(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId x = ctx.tensor_arg(0);
  const size_t d = split_dim(ctx, x, ctx.arg(1), "narrow() cannot be applied to a 0-dim tensor.");
  ExprId start = ctx.int_expr(ctx.arg(2));
  const ExprId length = ctx.int_expr(ctx.arg(3));
  if (!holds(ctx, ar.ge(length, ar.zero()))) ctx.fail("narrow(): length must be non-negative.");
  const ExprId n = ctx.vals.sizes(x)[d];
  if (!holds(ctx, ar.logical_and(ar.le(ar.neg(n), start), ar.le(start, n))))
    ctx.fail("IndexError: start out of range (expected to be in range of [{}, {}], but got {})", ctx.str(ar.neg(n)),
             ctx.str(n), ctx.str(start));
  if (ctx.guard(ar.lt(start, ar.zero()))) start = ar.add(start, n);
  if (!holds(ctx, ar.le(start, ar.sub(n, length))))
    ctx.fail("start ({}) + length ({}) exceeds dimension size ({}).", ctx.str(start), ctx.str(length), ctx.str(n));
  ctx.set_tensor(narrow_view(ctx, x, d, start, length));
}

// Pieces of `split_size` along d, the last one shorter (eager split.Tensor).
void split_by(PropContext& ctx, TensorId x, size_t d, ExprId split_size) {
  ExprArena& ar = ctx.ar;
  const ExprId n = ctx.vals.sizes(x)[d];
  if (!holds(ctx, ar.ge(split_size, ar.zero())))
    ctx.fail("split expects split_size be non-negative, but got split_size={}", ctx.str(split_size));
  if (!holds(ctx, ar.logical_or(ar.gt(split_size, ar.zero()), ar.eq(n, ar.zero()))))
    ctx.fail("split_size can only be 0 if dimension size is 0, but got dimension size of {}", ctx.str(n));
  int64_t num = 1;
  if (!ctx.guard(ar.eq(split_size, ar.zero()))) {
    // std::max(ceil(n / split_size), 1): the piece count must be a plain int
    ExprId q = ar.floordiv(ar.add(n, ar.sub(split_size, ar.one())), split_size);
    if (ctx.guard(ar.lt(q, ar.one()))) q = ar.one();
    num = ctx.guard_int(q);
  }
  const ExprId last = ar.sub(n, ar.mul(split_size, ar.integer(num - 1)));
  std::vector<TensorId>& pieces = ctx.scratch_tensors;
  pieces.clear();
  for (int64_t i = 0; i < num; ++i)
    pieces.push_back(
        narrow_view(ctx, x, d, ar.mul(ar.integer(i), split_size), i + 1 < num ? split_size : last));
  ctx.set_tensors(pieces);
}

void split(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  const size_t d = split_dim(ctx, x, ctx.arg(2), "split expects at least a 1-dimensional tensor");
  split_by(ctx, x, d, ctx.int_expr(ctx.arg(1)));
}

void split_with_sizes(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId x = ctx.tensor_arg(0);
  const size_t d = split_dim(ctx, x, ctx.arg(2), "split expects at least a 1-dimensional tensor");
  Dims lengths;
  ctx.int_list(ctx.arg(1), lengths);
  const ExprId n = ctx.vals.sizes(x)[d];
  ExprId total = ar.zero();
  for (ExprId len : lengths) {
    if (!holds(ctx, ar.ge(len, ar.zero())))
      ctx.fail("split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes={}",
               ctx.shape_str(lengths));
    total = ar.add(total, len);
  }
  if (!ctx.require(ar.eq(total, n), CheckKind::SumEq))
    ctx.fail(
        "split_with_sizes expects split_sizes to sum exactly to {} (input tensor's size at dimension {}), but got "
        "split_sizes={}",
        ctx.str(n), d, ctx.shape_str(lengths));
  std::vector<TensorId>& pieces = ctx.scratch_tensors;
  pieces.clear();
  ExprId start = ar.zero();
  for (ExprId len : lengths) {
    pieces.push_back(narrow_view(ctx, x, d, start, len));
    start = ar.add(start, len);
  }
  ctx.set_tensors(pieces);
}

// chunk: pieces of ceil(size / chunks); a 0-size dim still gives `chunks` empty pieces.
void chunk(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId x = ctx.tensor_arg(0);
  const size_t d = split_dim(ctx, x, ctx.arg(2), "chunk expects at least a 1-dimensional tensor");
  const int64_t chunks = ctx.int_const(ctx.arg(1));
  if (chunks <= 0) ctx.fail("chunk expects `chunks` to be greater than 0, got: {}", chunks);
  const ExprId n = ctx.vals.sizes(x)[d];
  const ExprId split_size = ar.floordiv(ar.add(n, ar.integer(chunks - 1)), ar.integer(chunks));
  if (ctx.guard_or_false(ar.eq(split_size, ar.zero())) && ctx.guard_or_false(ar.eq(n, ar.zero()))) {
    std::vector<TensorId>& pieces = ctx.scratch_tensors;
    pieces.clear();
    for (int64_t i = 0; i < chunks; ++i) pieces.push_back(narrow_view(ctx, x, d, ar.zero(), ar.zero()));
    return ctx.set_tensors(pieces);
  }
  split_by(ctx, x, d, split_size);
}

void unbind(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  const int64_t dim = ctx.int_const(ctx.arg(1));
  if (ctx.vals.rank(x) == 0) ctx.fail("Dimension specified as {} but tensor has no dimensions", dim);
  const size_t d = static_cast<size_t>(ctx.wrap_dim(dim, ctx.vals.rank(x)));
  // the number of outputs must be a plain int: a symbolic size is specialised
  const int64_t n = ctx.guard_int(ctx.vals.sizes(x)[d]);
  std::vector<TensorId>& pieces = ctx.scratch_tensors;
  pieces.clear();
  for (int64_t i = 0; i < n; ++i) pieces.push_back(select_tensor(ctx, x, d, ctx.ar.integer(i)));
  ctx.set_tensors(pieces);
}

size_t tensor_split_dim(PropContext& ctx, TensorId x) {
  const int64_t rank = ctx.vals.rank(x);
  if (rank == 0)
    ctx.fail("tensor_split expected at least a 1-dimensional tensor, but got a tensor with {} dims", rank);
  return static_cast<size_t>(ctx.wrap_dim(ctx.int_const(ctx.arg(2)), rank));
}

// tensor_split(sections): exactly `sections` pieces, the first size % sections one longer.
void tensor_split_sections(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId x = ctx.tensor_arg(0);
  const size_t d = tensor_split_dim(ctx, x);
  const int64_t sections = ctx.int_const(ctx.arg(1));
  if (sections <= 0) ctx.fail("number of sections must be larger than 0, got {}", sections);
  const ExprId n = ctx.vals.sizes(x)[d];
  const ExprId k = ar.integer(sections);
  const ExprId min_size = ar.floordiv(n, k);
  const ExprId extra = ar.mod(n, k);
  std::vector<TensorId>& pieces = ctx.scratch_tensors;
  pieces.clear();
  ExprId start = ar.zero();
  for (int64_t i = 0; i < sections; ++i) {
    const ExprId len = ctx.guard(ar.gt(extra, ar.integer(i))) ? ar.add(min_size, ar.one()) : min_size;
    const ExprId end = ar.add(start, len);
    pieces.push_back(slice_tensor(ctx, x, d, start, end, ar.one()));
    start = end;
  }
  ctx.set_tensors(pieces);
}

// tensor_split(indices): slices between consecutive split points (clamped like slicing).
void tensor_split_indices(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  const size_t d = tensor_split_dim(ctx, x);
  Dims points;
  ctx.int_list(ctx.arg(1), points);
  std::vector<TensorId>& pieces = ctx.scratch_tensors;
  pieces.clear();
  ExprId start = ctx.ar.zero();
  for (ExprId p : points) {
    pieces.push_back(slice_tensor(ctx, x, d, start, p, ctx.ar.one()));
    start = p;
  }
  pieces.push_back(slice_tensor(ctx, x, d, start, ctx.vals.sizes(x)[d], ctx.ar.one()));
  ctx.set_tensors(pieces);
}

// hsplit / vsplit / dsplit: tensor_split along dim 1 (0 for 1-D) / 0 / 2; an int count
// must divide the dim exactly.
void split_along(PropContext& ctx, const char* name, int64_t min_rank, int64_t dim, bool sections) {
  ExprArena& ar = ctx.ar;
  const TensorId x = ctx.tensor_arg(0);
  const int64_t rank = ctx.vals.rank(x);
  if (rank < min_rank)
    ctx.fail("torch.{} requires a tensor with at least {} dimension, but got a tensor with {} dimensions!", name, min_rank,
             rank);
  if (dim < 0) dim = rank == 1 ? 0 : 1;
  const size_t d = static_cast<size_t>(dim);
  const ExprId n = ctx.vals.sizes(x)[d];
  std::vector<TensorId>& pieces = ctx.scratch_tensors;
  pieces.clear();
  if (sections) {
    const int64_t k = ctx.int_const(ctx.arg(1));
    if (k == 0 || !holds(ctx, ar.eq(ar.mod(n, ar.integer(k)), ar.zero())))
      ctx.fail("torch.{} attempted to split along dimension {}, but the size of the dimension {} is not divisible by the "
               "split_size {}!",
               name, d, ctx.str(n), k);
    const ExprId len = ar.floordiv(n, ar.integer(k));
    for (int64_t i = 0; i < k; ++i) pieces.push_back(narrow_view(ctx, x, d, ar.mul(ar.integer(i), len), len));
    return ctx.set_tensors(pieces);
  }
  Dims points;
  ctx.int_list(ctx.arg(1), points);
  ExprId start = ar.zero();
  for (ExprId p : points) {
    pieces.push_back(slice_tensor(ctx, x, d, start, p, ar.one()));
    start = p;
  }
  pieces.push_back(slice_tensor(ctx, x, d, start, n, ar.one()));
  ctx.set_tensors(pieces);
}

void hsplit_int(PropContext& ctx) { split_along(ctx, "hsplit", 1, -1, true); }
void hsplit_array(PropContext& ctx) { split_along(ctx, "hsplit", 1, -1, false); }
void vsplit_int(PropContext& ctx) { split_along(ctx, "vsplit", 2, 0, true); }
void vsplit_array(PropContext& ctx) { split_along(ctx, "vsplit", 2, 0, false); }
void dsplit_int(PropContext& ctx) { split_along(ctx, "dsplit", 3, 2, true); }
void dsplit_array(PropContext& ctx) { split_along(ctx, "dsplit", 3, 2, false); }

constexpr OpRuleEntry kEntries[] = {
    {"aten.hsplit.int", hsplit_int},
    {"aten.hsplit.array", hsplit_array},
    {"aten.vsplit.int", vsplit_int},
    {"aten.vsplit.array", vsplit_array},
    {"aten.dsplit.int", dsplit_int},
    {"aten.dsplit.array", dsplit_array},
    {"aten.slice.Tensor", slice},
    {"aten.select.int", select},
    {"aten.narrow.default", narrow},
    {"aten.split.Tensor", split},
    {"aten.unsafe_split.Tensor", split},
    {"aten.split.sizes", split_with_sizes},
    {"aten.split_with_sizes.default", split_with_sizes},
    {"aten.unsafe_split_with_sizes.default", split_with_sizes},
    {"aten.chunk.default", chunk},
    {"aten.unsafe_chunk.default", chunk},
    {"aten.unbind.int", unbind},
    {"aten.tensor_split.sections", tensor_split_sections},
    {"aten.tensor_split.indices", tensor_split_indices},
};

}  // namespace

std::span<const OpRuleEntry> slice_entries() { return kEntries; }

}  // namespace symshape
