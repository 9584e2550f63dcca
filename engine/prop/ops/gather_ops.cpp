// Index-driven gathers and scatters (semantics.md H.13): index_select, gather, the
// scatter / index_add / index_copy / index_fill family, take, take_along_dim, embedding,
// masked_scatter, bucketize / searchsorted. Results are fresh tensors laid out as the eager
// CPU kernels allocate them.
#include "prop/dtype_rules.h"
#include "prop/memory_format.h"
#include "prop/ops/index_family.h"
#include "prop/ops/view_geometry.h"
#include "prop/shape_helpers.h"

namespace symshape {

namespace {

bool is_index_dtype(DType d) { return d == DType::Int64 || d == DType::Int32; }

// ensure_nonempty_dim / ensure_nonempty_size: a 0-D tensor counts as (1,).
size_t nonempty_rank(PropContext& ctx, TensorId t) { return std::max<size_t>(ctx.vals.rank(t), 1); }
ExprId nonempty_size(PropContext& ctx, TensorId t, size_t d) {
  return ctx.vals.rank(t) == 0 ? ctx.ar.one() : ctx.vals.sizes(t)[d];
}

bool known_empty(PropContext& ctx, TensorId t) {
  return ctx.guard_or_false(ctx.ar.eq(numel(ctx, ctx.vals.sizes(t)), ctx.ar.zero()));
}

void index_select(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0), index = ctx.tensor_arg(2);
  const int64_t rank = ctx.vals.rank(x);
  const size_t d = static_cast<size_t>(ctx.wrap_dim(ctx.int_const(ctx.arg(1)), rank));
  if (ctx.vals.rank(index) > 1) ctx.fail("IndexError: index_select(): Index is supposed to be a vector");
  const ExprId n = numel(ctx, ctx.vals.sizes(index));
  if (rank == 0 && !holds(ctx, ctx.ar.eq(n, ctx.ar.one())))
    ctx.fail("index_select(): Index to scalar can have only 1 value, got {} value(s)", ctx.str(n));
  if (!is_index_dtype(ctx.vals.dtype(index))) ctx.fail("index_select(): Expected dtype int32 or int64 for index");
  Dims sizes(ctx.vals.sizes(x));
  if (rank > 0) sizes[d] = n;
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(x), sizes));
}

// gather: the index's shape; index.size(k) <= self.size(k) for k != dim.
void gather(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0), index = ctx.tensor_arg(2);
  const size_t d = static_cast<size_t>(ctx.wrap_dim(ctx.int_const(ctx.arg(1)), ctx.vals.rank(x)));
  if (!known_empty(ctx, index)) {
    if (ctx.vals.dtype(index) != DType::Int64) ctx.fail("gather(): Expected dtype int64 for index");
    const size_t rank = nonempty_rank(ctx, x);
    if (rank != nonempty_rank(ctx, index))
      ctx.fail("Index tensor must have the same number of dimensions as input tensor");
    for (size_t k = 0; k < rank; ++k) {
      if (k == d || holds(ctx, ctx.ar.le(nonempty_size(ctx, index, k), nonempty_size(ctx, x, k)))) continue;
      ctx.fail("Size does not match at dimension {} expected index {} to be smaller than self {} apart from dimension {}",
               k, ctx.shape_str(ctx.vals.sizes(index)), ctx.shape_str(ctx.vals.sizes(x)), d);
    }
  }
  const Dims sizes(ctx.vals.sizes(index));
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(x), sizes));
}

// scatter_shape_check: index.size(k) <= self.size(k) for k != dim and <= src.size(k).
void scatter_check(PropContext& ctx, const char* name, TensorId x, size_t d, TensorId index, std::optional<TensorId> src) {
  ExprArena& ar = ctx.ar;
  if (ctx.vals.dtype(index) != DType::Int64) ctx.fail("{}(): Expected dtype int64 for index", name);
  if (src && ctx.vals.dtype(*src) != ctx.vals.dtype(x)) ctx.fail("{}(): Expected self.dtype to be equal to src.dtype", name);
  if (known_empty(ctx, index)) return;
  const size_t rank = nonempty_rank(ctx, x);
  if (rank != nonempty_rank(ctx, index)) ctx.fail("Index tensor must have the same number of dimensions as self tensor");
  bool wrong = false;
  for (size_t k = 0; k < rank && !wrong; ++k)
    wrong = k != d && !holds(ctx, ar.le(nonempty_size(ctx, index, k), nonempty_size(ctx, x, k)));
  if (src) {
    for (size_t k = 0; k < rank && !wrong; ++k)
      wrong = !holds(ctx, ar.le(nonempty_size(ctx, index, k), nonempty_size(ctx, *src, k)));
    if (nonempty_rank(ctx, *src) != nonempty_rank(ctx, index))
      ctx.fail("Index tensor must have the same number of dimensions as src tensor");
    if (wrong)
      ctx.fail("Expected index {} to be smaller than self {} apart from dimension {} and to be smaller size than src {}",
               ctx.shape_str(ctx.vals.sizes(index)), ctx.shape_str(ctx.vals.sizes(x)), d,
               ctx.shape_str(ctx.vals.sizes(*src)));
  } else if (wrong) {
    ctx.fail("Expected index {} to be smaller than self {} apart from dimension {}",
             ctx.shape_str(ctx.vals.sizes(index)), ctx.shape_str(ctx.vals.sizes(x)), d);
  }
}

// scatter-like ops: checks, then self's shape in a fresh contiguous tensor (structured
// kernels allocate without strides) or, in place, self itself.
void scatter_like(PropContext& ctx, const char* name, bool src_is_tensor, bool inplace) {
  const TensorId x = ctx.tensor_arg(0), index = ctx.tensor_arg(2);
  const size_t d = static_cast<size_t>(ctx.wrap_dim(ctx.int_const(ctx.arg(1)), ctx.vals.rank(x)));
  std::optional<TensorId> src;
  if (src_is_tensor) src = ctx.tensor_arg(3);
  scatter_check(ctx, name, x, d, index, src);
  if (inplace) return ctx.set_tensor(x);
  const Dims sizes(ctx.vals.sizes(x));
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(x), sizes));
}

void scatter_src(PropContext& ctx) { scatter_like(ctx, "scatter", true, false); }
void scatter_value(PropContext& ctx) { scatter_like(ctx, "scatter", false, false); }
void scatter_src_(PropContext& ctx) { scatter_like(ctx, "scatter", true, true); }
void scatter_value_(PropContext& ctx) { scatter_like(ctx, "scatter", false, true); }
void scatter_add(PropContext& ctx) { scatter_like(ctx, "scatter_add", true, false); }
void scatter_add_(PropContext& ctx) { scatter_like(ctx, "scatter_add", true, true); }
void scatter_reduce(PropContext& ctx) { scatter_like(ctx, "scatter_reduce", true, false); }
void scatter_reduce_(PropContext& ctx) { scatter_like(ctx, "scatter_reduce", true, true); }

// index_add / index_copy: a vector index whose length equals source.size(dim).
void index_func(PropContext& ctx, const char* name, bool inplace) {
  const TensorId x = ctx.tensor_arg(0), index = ctx.tensor_arg(2), source = ctx.tensor_arg(3);
  const int64_t d = ctx.wrap_dim(ctx.int_const(ctx.arg(1)), ctx.vals.rank(x));
  if (ctx.vals.rank(index) > 1) ctx.fail("IndexError: {}_(): Index is supposed to be a vector", name);
  if (!is_index_dtype(ctx.vals.dtype(index))) ctx.fail("{}_(): Expected dtype int32/int64 for index", name);
  if (ctx.vals.dtype(x) != ctx.vals.dtype(source))
    ctx.fail("{}_(): self ({}) and source ({}) must have the same scalar type", name, dtype_name(ctx.vals.dtype(x)),
             dtype_name(ctx.vals.dtype(source)));
  const int64_t src_rank = ctx.vals.rank(source);
  if (!(d == 0 || d < src_rank))
    ctx.fail("IndexError: {}_(): Indexing dim {} is out of bounds of the source tensor with dim {}", name, d, src_rank);
  const ExprId n = numel(ctx, ctx.vals.sizes(index));
  const ExprId want = src_rank == 0 ? ctx.ar.one() : ctx.vals.sizes(source)[static_cast<size_t>(d)];
  if (!holds(ctx, ctx.ar.eq(n, want)))
    ctx.fail("{}_(): Number of indices ({}) should be equal to source.size(dim) ({})", name, ctx.str(n), ctx.str(want));
  if (inplace) return ctx.set_tensor(x);
  const Dims sizes(ctx.vals.sizes(x));
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(x), sizes));
}

void index_add(PropContext& ctx) { index_func(ctx, "index_add", false); }
void index_add_(PropContext& ctx) { index_func(ctx, "index_add", true); }
void index_copy(PropContext& ctx) { index_func(ctx, "index_copy", false); }
void index_copy_(PropContext& ctx) { index_func(ctx, "index_copy", true); }

// index_fill: clone(preserve_format) of self, then filled in place.
void index_fill(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0), index = ctx.tensor_arg(2);
  ctx.wrap_dim(ctx.int_const(ctx.arg(1)), ctx.vals.rank(x));
  if (ctx.vals.rank(index) > 1) ctx.fail("IndexError: index_fill_(): Index is supposed to be a vector");
  if (ctx.vals.dtype(index) != DType::Int64) ctx.fail("index_fill_(): Expected dtype int64 for index.");
  const Dims sizes(ctx.vals.sizes(x));
  Dims strides;
  empty_like_strides(ctx, x, MemoryFormat::Preserve, strides);
  ctx.set_tensor(ctx.new_tensor(ctx.vals.dtype(x), sizes, strides));
}

// take: elements of the flattened input at `index`, in the index's shape.
void take(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0), index = ctx.tensor_arg(1);
  if (ctx.vals.dtype(index) != DType::Int64) ctx.fail("take(): Expected a long tensor for index, but got {}", dtype_name(ctx.vals.dtype(index)));
  const Dims sizes(ctx.vals.sizes(index));
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(x), sizes));
}

// take_along_dim: gather over the broadcast of self and indices outside `dim`; with no
// dim, over the flattened input.
void take_along_dim(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0), index = ctx.tensor_arg(1);
  if (ctx.vals.dtype(index) != DType::Int64)
    ctx.fail("torch.take_along_dim(): dtype of indices should be Long but got {}", dtype_name(ctx.vals.dtype(index)));
  const ArgId dim_arg = ctx.arg(2);
  if (ctx.is_none(dim_arg)) {
    const ExprId n[] = {numel(ctx, ctx.vals.sizes(index))};
    return ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(x), n));
  }
  const int64_t rank = ctx.vals.rank(x);
  if (rank != static_cast<int64_t>(ctx.vals.rank(index)))
    ctx.fail("torch.take_along_dim(): input and indices should have the same number of dimensions, but got {} dimensions "
             "for input, and {} dimensions for indices",
             rank, ctx.vals.rank(index));
  const size_t d = static_cast<size_t>(ctx.wrap_dim(ctx.int_const(dim_arg), rank));
  Dims self_sizes(ctx.vals.sizes(x)), shape;
  if (rank > 0) self_sizes[d] = ctx.vals.sizes(index)[d];
  broadcast_shapes(ctx, self_sizes, ctx.vals.sizes(index), shape);
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(x), shape));
}

// embedding: index_select of weight rows; indices.shape + (embedding_dim,), contiguous.
void embedding(PropContext& ctx) {
  const TensorId weight = ctx.tensor_arg(0), indices = ctx.tensor_arg(1);
  if (ctx.vals.rank(weight) != 2) ctx.fail("'weight' must be 2-D");
  if (!is_index_dtype(ctx.vals.dtype(indices)))
    ctx.fail("Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got {} "
             "instead (while checking arguments for embedding)",
             dtype_name(ctx.vals.dtype(indices)));
  Dims sizes(ctx.vals.sizes(indices));
  sizes.push_back(ctx.vals.sizes(weight)[1]);
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(weight), sizes));
}

// masked_scatter: the broadcast of self and mask, cloned contiguous.
void masked_scatter(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0), mask = ctx.tensor_arg(1), source = ctx.tensor_arg(2);
  const DType md = ctx.vals.dtype(mask);
  if (md != DType::Bool && md != DType::UInt8)
    ctx.fail("masked_scatter_ only supports boolean masks, but got mask with dtype {}", dtype_name(md));
  if (ctx.vals.dtype(source) != ctx.vals.dtype(x))
    ctx.fail("masked_scatter: expected self and source to have same dtypes but got{} and {}", dtype_name(ctx.vals.dtype(x)),
             dtype_name(ctx.vals.dtype(source)));
  Dims shape;
  broadcast_shapes(ctx, ctx.vals.sizes(x), ctx.vals.sizes(mask), shape);
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(x), shape));
}

void index_fill_(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0), index = ctx.tensor_arg(2);
  ctx.wrap_dim(ctx.int_const(ctx.arg(1)), ctx.vals.rank(x));
  if (ctx.vals.rank(index) > 1) ctx.fail("IndexError: index_fill_(): Index is supposed to be a vector");
  if (ctx.vals.dtype(index) != DType::Int64) ctx.fail("index_fill_(): Expected dtype int64 for index.");
  ctx.set_tensor(x);
}

// bucketize / searchsorted's keyword-only out_int32 (not in context.h's Key set): its
// KeyId is resolved once per OpTable, and only for nodes that carry kwargs.
bool out_int32(PropContext& ctx) {
  if (ctx.graph.node_kwargs(ctx.node()).empty()) return false;
  thread_local uint64_t table = 0;  // OpTable::serial(); an address could be reused
  thread_local KeyId key;
  if (table != ctx.graph.ops().serial() || !key.valid()) {
    table = ctx.graph.ops().serial();
    key = ctx.graph.ops().find_key("out_int32");
  }
  return key.valid() && ctx.bool_const(ctx.graph.kwarg(ctx.node(), key));
}

// A fresh contiguous index tensor of `shape` (int64, or int32 with out_int32=True).
void bucket_result(PropContext& ctx, std::span<const ExprId> shape) {
  const Dims sizes(shape);
  ctx.set_tensor(ctx.new_contiguous(out_int32(ctx) ? DType::Int32 : DType::Int64, sizes));
}

// bucketize(self, boundaries): 1-D boundaries; the result has self's shape.
void bucketize(PropContext& ctx) {
  const ArgId self = ctx.arg(0);
  const TensorId boundaries = ctx.tensor_arg(1);
  if (ctx.vals.rank(boundaries) != 1)
    ctx.fail("boundaries tensor must be 1 dimension, but got dim({})", ctx.vals.rank(boundaries));
  if (!ctx.is_tensor(self)) return bucket_result(ctx, {});
  bucket_result(ctx, ctx.vals.sizes(ctx.tensor(self)));
}

// searchsorted(sorted_sequence, self): a 1-D sequence, or one whose leading dims match
// self's; the result has self's shape.
void searchsorted(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId seq = ctx.tensor_arg(0);
  const ArgId self = ctx.arg(1);
  const auto s = ctx.vals.sizes(seq);
  if (!ctx.is_tensor(self)) {
    if (s.size() != 1)
      ctx.fail("input value can be a scalar only when boundaries tensor dimension is 1, but we got boundaries tensor "
               "dim({}) and input value's dim(0) numel(1)",
               s.size());
    return bucket_result(ctx, {});
  }
  const auto v = ctx.vals.sizes(ctx.tensor(self));
  if (s.size() != 1) {
    bool match = s.size() == v.size();
    for (size_t i = 0; match && i + 1 < s.size(); ++i) match = holds(ctx, ar.eq(s[i], v[i]));
    if (!match)
      ctx.fail("boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value "
               "tensor must match, but we got boundaries tensor {} and input value tensor {}",
               ctx.shape_str(s), ctx.shape_str(v));
  }
  bucket_result(ctx, v);
}

constexpr OpRuleEntry kEntries[] = {
    {"aten.index_fill_.int_Scalar", index_fill_},
    {"aten.index_fill_.int_Tensor", index_fill_},
    {"aten.bucketize.Tensor", bucketize},
    {"aten.bucketize.Scalar", bucketize},
    {"aten.searchsorted.Tensor", searchsorted},
    {"aten.searchsorted.Scalar", searchsorted},
    {"aten.index_select.default", index_select},
    {"aten.gather.default", gather},
    {"aten.scatter.src", scatter_src},
    {"aten.scatter.value", scatter_value},
    {"aten.scatter.reduce", scatter_src},
    {"aten.scatter.value_reduce", scatter_value},
    {"aten.scatter_.src", scatter_src_},
    {"aten.scatter_.value", scatter_value_},
    {"aten.scatter_.reduce", scatter_src_},
    {"aten.scatter_.value_reduce", scatter_value_},
    {"aten.scatter_add.default", scatter_add},
    {"aten.scatter_add_.default", scatter_add_},
    {"aten.scatter_reduce.two", scatter_reduce},
    {"aten.scatter_reduce_.two", scatter_reduce_},
    {"aten.index_add.default", index_add},
    {"aten.index_add_.default", index_add_},
    {"aten.index_copy.default", index_copy},
    {"aten.index_copy_.default", index_copy_},
    {"aten.index_fill.int_Scalar", index_fill},
    {"aten.index_fill.int_Tensor", index_fill},
    {"aten.take.default", take},
    {"aten.take_along_dim.default", take_along_dim},
    {"aten.embedding.default", embedding},
    {"aten.masked_scatter.default", masked_scatter},
};

}  // namespace

std::span<const OpRuleEntry> gather_entries() { return kEntries; }

}  // namespace symshape
