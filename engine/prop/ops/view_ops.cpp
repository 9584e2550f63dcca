// The view family's rule table, and the reshaping views (semantics.md H.6, H.9): view,
// reshape, flatten, unflatten, as_strided, unfold, diagonal, view.dtype.
#include <algorithm>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "prop/ops/slice_geometry.h"
#include "prop/ops/view_family.h"
#include "prop/ops/view_geometry.h"
#include "prop/shape_helpers.h"

namespace symshape {

namespace {

void view(PropContext& ctx) {
  Dims shape;
  ctx.int_list(ctx.arg(1), shape);
  ctx.set_tensor(view_tensor(ctx, ctx.tensor_arg(0), shape));
}

void reshape(PropContext& ctx) {
  Dims shape;
  ctx.int_list(ctx.arg(1), shape);
  ctx.set_tensor(reshape_tensor(ctx, ctx.tensor_arg(0), shape));
}

void view_as(PropContext& ctx) {
  const Dims shape(ctx.vals.sizes(ctx.tensor_arg(1)));
  ctx.set_tensor(view_tensor(ctx, ctx.tensor_arg(0), shape));
}

void reshape_as(PropContext& ctx) {
  const Dims shape(ctx.vals.sizes(ctx.tensor_arg(1)));
  ctx.set_tensor(reshape_tensor(ctx, ctx.tensor_arg(0), shape));
}

void ravel(PropContext& ctx) {
  const ExprId shape[] = {ctx.ar.integer(-1)};
  ctx.set_tensor(reshape_tensor(ctx, ctx.tensor_arg(0), shape));
}

// flatten(start, end): the dim range collapses to its product (never a -1, so a range
// holding a 0 cannot make the result ambiguous); a 0-D tensor becomes (1,).
void flatten(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  const int64_t rank = ctx.vals.rank(x);
  const int64_t start = ctx.wrap_dim(ctx.int_const(ctx.arg(1)), rank);
  const int64_t end = ctx.wrap_dim(ctx.int_const(ctx.arg(2)), rank);
  if (start > end) ctx.fail("flatten() has invalid args: start_dim cannot come after end_dim");
  if (rank == 0) {
    const ExprId one[] = {ctx.ar.one()};
    return ctx.set_tensor(reshape_tensor(ctx, x, one));
  }
  if (start == end) return ctx.set_tensor(alias_tensor(ctx, x));
  const auto sizes = ctx.vals.sizes(x);
  Dims shape;
  for (int64_t i = 0; i < start; ++i) shape.push_back(sizes[static_cast<size_t>(i)]);
  shape.push_back(numel(ctx, sizes.subspan(static_cast<size_t>(start), static_cast<size_t>(end - start + 1))));
  for (int64_t i = end + 1; i < rank; ++i) shape.push_back(sizes[static_cast<size_t>(i)]);
  ctx.set_tensor(reshape_tensor(ctx, x, shape));
}

// unflatten(dim, sizes): sizes (one -1 allowed) must multiply up to size[dim]; a view.
void unflatten(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  const size_t d = static_cast<size_t>(ctx.wrap_dim(ctx.int_const(ctx.arg(1)), ctx.vals.rank(x)));
  Dims parts, inferred;
  ctx.int_list(ctx.arg(2), parts);
  if (parts.empty()) ctx.fail("unflatten: sizes must be non-empty");
  const ExprId n = ctx.vals.sizes(x)[d];
  try {
    infer_size(ctx, parts, n, inferred);
  } catch (const Error& e) {
    // eager rewords infer_size's size mismatch; other failures pass through
    if (e.kind() != ErrorKind::Shape || std::string_view(e.what()).find("is invalid for input of size") == std::string_view::npos)
      throw;
    ctx.fail("unflatten: Provided sizes {} don't multiply up to the size of dim {} ({}) in the input tensor",
             ctx.shape_str(parts), d, ctx.str(n));
  }
  Dims shape(ctx.vals.sizes(x));
  shape.erase(d);
  for (size_t i = 0; i < inferred.size(); ++i) shape.insert(d + i, inferred[i]);
  ctx.set_tensor(view_tensor(ctx, x, shape));
}

void as_strided(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  Dims sizes, strides;
  ctx.int_list(ctx.arg(1), sizes);
  ctx.int_list(ctx.arg(2), strides);
  if (sizes.size() != strides.size()) ctx.fail("mismatch in length of strides and shape");
  check_size_nonnegative(ctx, sizes);
  for (ExprId s : strides)
    if (!holds(ctx, ctx.ar.ge(s, ctx.ar.zero())))
      ctx.fail("as_strided: Negative strides are not supported at the moment, got strides: {}", ctx.shape_str(strides));
  const ArgId off = ctx.arg(3);
  const ExprId offset = ctx.is_none(off) ? ctx.vals.tensor(x).storage_offset : ctx.int_expr(off);
  if (!holds(ctx, ctx.ar.ge(offset, ctx.ar.zero())))
    ctx.fail("Tensor: invalid storage offset {}", ctx.str(offset));
  ctx.set_tensor(ctx.new_view(x, sizes, strides, offset));
}

// unfold(dim, size, step): sliding windows; the window index replaces dim, the window
// contents become a new last dim.
void unfold(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId x = ctx.tensor_arg(0);
  const int64_t rank = ctx.vals.rank(x);
  const size_t d = static_cast<size_t>(ctx.wrap_dim(ctx.int_const(ctx.arg(1)), rank));
  const ExprId size = ctx.int_expr(ctx.arg(2));
  const ExprId step = ctx.int_expr(ctx.arg(3));
  Dims sizes(ctx.vals.sizes(x)), strides(ctx.vals.strides(x));
  const ExprId max_size = rank == 0 ? ar.one() : sizes[d];
  if (!holds(ctx, ar.le(size, max_size)))
    ctx.fail("maximum size for tensor at dimension {} is {} but size is {}", d, ctx.str(max_size), ctx.str(size));
  if (!holds(ctx, ar.ge(size, ar.zero()))) ctx.fail("size is {} but must be >= 0", ctx.str(size));
  if (!holds(ctx, ar.gt(step, ar.zero()))) ctx.fail("step is {} but must be > 0", ctx.str(step));
  const ExprId last_stride = rank == 0 ? ar.one() : strides[d];
  if (rank > 0) {
    sizes[d] = ar.add(ar.floordiv(ar.sub(sizes[d], size), step), ar.one());
    strides[d] = ar.mul(step, strides[d]);
  }
  sizes.push_back(size);
  strides.push_back(last_stride);
  ctx.set_tensor(ctx.new_view(x, sizes, strides, ctx.vals.tensor(x).storage_offset));
}

void diagonal(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  ctx.set_tensor(diagonal_tensor(ctx, x, ctx.int_const(ctx.arg(1)), ctx.int_const(ctx.arg(2)), ctx.int_const(ctx.arg(3))));
}

int64_t element_size(DType d) {
  switch (d) {
    case DType::Bool:
    case DType::Int8:
    case DType::UInt8: return 1;
    case DType::Float16:
    case DType::BFloat16:
    case DType::Int16: return 2;
    case DType::Float32:
    case DType::Int32: return 4;
    case DType::Float64:
    case DType::Int64:
    case DType::Complex64: return 8;
  }
  return 1;
}

// view(dtype): same bytes reinterpreted; with a different element size the last dim
// (stride 1) is rescaled and the other strides and the offset are converted.
void view_dtype(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId x = ctx.tensor_arg(0);
  const DType from = ctx.vals.dtype(x);
  const DType to = *ctx.opt_dtype(ctx.arg(1));
  Dims sizes(ctx.vals.sizes(x)), strides(ctx.vals.strides(x));
  ExprId offset = ctx.vals.tensor(x).storage_offset;
  const int64_t a = element_size(from), b = element_size(to);
  if (a == b) return ctx.set_tensor(ctx.new_view_dtype(x, to, sizes, strides, offset));
  if (sizes.empty())
    ctx.fail("self.dim() cannot be 0 to view {} as {} (different element sizes)", dtype_name(from), dtype_name(to));
  const size_t last = sizes.size() - 1;
  if (!holds(ctx, ar.eq(strides[last], ar.one())))
    ctx.fail("self.stride(-1) must be 1 to view {} as {} (different element sizes), but got {}", dtype_name(from),
             dtype_name(to), ctx.str(strides[last]));
  if (a > b) {
    const ExprId k = ar.integer(a / b);
    for (size_t i = 0; i < last; ++i) strides[i] = ar.mul(strides[i], k);
    sizes[last] = ar.mul(sizes[last], k);
    offset = ar.mul(offset, k);
  } else {
    const ExprId k = ar.integer(b / a);
    if (!holds(ctx, ar.eq(ar.mod(sizes[last], k), ar.zero())))
      ctx.fail("self.size(-1) must be divisible by {} to view {} as {} (different element sizes), but got {}", b / a,
               dtype_name(from), dtype_name(to), ctx.str(sizes[last]));
    if (!holds(ctx, ar.eq(ar.mod(offset, k), ar.zero())))
      ctx.fail("self.storage_offset() must be divisible by {} to view {} as {} (different element sizes), but got {}",
               b / a, dtype_name(from), dtype_name(to), ctx.str(offset));
    for (size_t i = 0; i < last; ++i) {
      if (!holds(ctx, ar.eq(ar.mod(strides[i], k), ar.zero())))
        ctx.fail("self.stride({}) must be divisible by {} to view {} as {} (different element sizes), but got {}", i,
                 b / a, dtype_name(from), dtype_name(to), ctx.str(strides[i]));
      strides[i] = ar.floordiv(strides[i], k);
    }
    sizes[last] = ar.floordiv(sizes[last], k);
    offset = ar.floordiv(offset, k);
  }
  ctx.set_tensor(ctx.new_view_dtype(x, to, sizes, strides, offset));
}

constexpr OpRuleEntry kEntries[] = {
    {"aten.view.default", view},
    {"aten._unsafe_view.default", view},
    {"aten.reshape.default", reshape},
    {"aten.view_as.default", view_as},
    {"aten.reshape_as.default", reshape_as},
    {"aten.ravel.default", ravel},
    {"aten.flatten.using_ints", flatten},
    {"aten.unflatten.int", unflatten},
    {"aten.as_strided.default", as_strided},
    {"aten._reshape_alias.default", as_strided},
    {"aten.unfold.default", unfold},
    {"aten.diagonal.default", diagonal},
    {"aten.view.dtype", view_dtype},
};

}  // namespace

std::span<const OpRuleEntry> reshape_entries() { return kEntries; }

std::span<const OpRuleEntry> view_rules() {
  // concatenated once; rule lookup happens through RuleTable, not here
  static const std::vector<OpRuleEntry> all = [] {
    std::vector<OpRuleEntry> v;
    for (auto part : {reshape_entries(), dim_entries(), slice_entries(), concat_entries(), reorder_entries(),
                      diag_entries(), view_scatter_entries(), copy_variant_entries(), narrow_tensor_entries(),
                      inplace_view_entries()})
      v.insert(v.end(), part.begin(), part.end());
    return v;
  }();
  return all;
}

}  // namespace symshape
