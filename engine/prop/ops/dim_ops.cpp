// Dim-permuting and dim-inserting views (semantics.md H.7-H.9): permute, transpose, t,
// movedim, squeeze, unsqueeze, expand, broadcast_tensors, meshgrid. Sizes and strides
// move together; nothing copies.
#include "prop/ops/view_family.h"
#include "prop/ops/view_geometry.h"
#include "prop/shape_helpers.h"

namespace symshape {

namespace {

// The view of t whose dim i is t's dim order[i].
TensorId permuted(PropContext& ctx, TensorId t, std::span<const size_t> order) {
  const auto sizes = ctx.vals.sizes(t), strides = ctx.vals.strides(t);
  Dims ns, nt;
  for (size_t d : order) {
    ns.push_back(sizes[d]);
    nt.push_back(strides[d]);
  }
  return ctx.new_view(t, ns, nt, ctx.vals.tensor(t).storage_offset);
}

TensorId transposed(PropContext& ctx, TensorId t, int64_t d0, int64_t d1) {
  const int64_t rank = ctx.vals.rank(t);
  const size_t a = static_cast<size_t>(ctx.wrap_dim(d0, rank)), b = static_cast<size_t>(ctx.wrap_dim(d1, rank));
  if (rank == 0) return alias_tensor(ctx, t);
  FixedVector<size_t, kMaxRank> order;
  for (size_t i = 0; i < static_cast<size_t>(rank); ++i) order.push_back(i);
  std::swap(order[a], order[b]);
  return permuted(ctx, t, order);
}

void permute(PropContext& ctx) {
  const TensorId t = ctx.tensor_arg(0);
  IntDims dims;
  ctx.int_list_const(ctx.arg(1), dims);
  const int64_t rank = ctx.vals.rank(t);
  if (static_cast<int64_t>(dims.size()) != rank)
    ctx.fail(
        "number of dimensions in the tensor input does not match the length of the desired ordering of dimensions "
        "i.e. input.dim() = {} is not equal to len(dims) = {}",
        rank, dims.size());
  FixedVector<size_t, kMaxRank> order;
  uint32_t seen = 0;
  for (int64_t d : dims) {
    const size_t w = static_cast<size_t>(ctx.wrap_dim(d, rank));
    if (seen & (1u << w)) ctx.fail("permute(): duplicate dims are not allowed.");
    seen |= 1u << w;
    order.push_back(w);
  }
  ctx.set_tensor(permuted(ctx, t, order));
}

void transpose(PropContext& ctx) {
  ctx.set_tensor(transposed(ctx, ctx.tensor_arg(0), ctx.int_const(ctx.arg(1)), ctx.int_const(ctx.arg(2))));
}

void t(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  const uint32_t rank = ctx.vals.rank(x);
  if (rank > 2) ctx.fail("t() expects a tensor with <= 2 dimensions, but self is {}D", rank);
  ctx.set_tensor(rank < 2 ? alias_tensor(ctx, x) : transposed(ctx, x, 0, 1));
}

// movedim: the listed dims land at their destinations, the others keep their order.
void movedim(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  IntDims src, dst;
  ctx.int_list_const(ctx.arg(1), src);
  ctx.int_list_const(ctx.arg(2), dst);
  if (src.size() != dst.size())
    ctx.fail(
        "movedim: Invalid source or destination dims: source ({} dims) should contain the same number of dims as "
        "destination ({} dims)",
        src.size(), dst.size());
  const int64_t rank = ctx.vals.rank(x);
  uint32_t src_seen = 0, dst_seen = 0;
  FixedVector<size_t, kMaxRank> ns, nd;
  for (size_t i = 0; i < src.size(); ++i) {
    ns.push_back(static_cast<size_t>(ctx.wrap_dim(src[i], rank)));
    nd.push_back(static_cast<size_t>(ctx.wrap_dim(dst[i], rank)));
  }
  for (size_t i = 0; i < ns.size(); ++i) {
    if (src_seen & (1u << ns[i])) ctx.fail("movedim: repeated dim in `source` ({})", src[i]);
    src_seen |= 1u << ns[i];
  }
  for (size_t i = 0; i < nd.size(); ++i) {
    if (dst_seen & (1u << nd[i])) ctx.fail("movedim: repeated dim in `destination` ({})", dst[i]);
    dst_seen |= 1u << nd[i];
  }
  if (rank == 0) return ctx.set_tensor(alias_tensor(ctx, x));
  FixedVector<size_t, kMaxRank> order;
  order.resize(static_cast<size_t>(rank));
  for (size_t i = 0; i < ns.size(); ++i) order[nd[i]] = ns[i];
  size_t next_src = 0;
  for (size_t pos = 0; pos < static_cast<size_t>(rank); ++pos) {
    if (dst_seen & (1u << pos)) continue;
    while (src_seen & (1u << next_src)) ++next_src;
    order[pos] = next_src++;
  }
  ctx.set_tensor(permuted(ctx, x, order));
}

bool size_is_one(PropContext& ctx, ExprId s) {
  const ExprId cond = ctx.ar.eq(s, ctx.ar.one());
  if (cond == ctx.ar.true_()) return true;
  if (cond == ctx.ar.false_()) return false;
  // size-oblivious: an unbacked size is removed only when it is known to be 1
  return ctx.env.guard_size_oblivious(cond);
}

// Removes the dims in `mask` that have size 1.
void squeeze_mask(PropContext& ctx, TensorId x, uint32_t mask) {
  const auto sizes = ctx.vals.sizes(x), strides = ctx.vals.strides(x);
  Dims ns, nt;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if ((mask & (1u << i)) && size_is_one(ctx, sizes[i])) continue;
    ns.push_back(sizes[i]);
    nt.push_back(strides[i]);
  }
  ctx.set_tensor(ctx.new_view(x, ns, nt, ctx.vals.tensor(x).storage_offset));
}

void squeeze(PropContext& ctx) { squeeze_mask(ctx, ctx.tensor_arg(0), ~0u); }

void squeeze_dim(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  const int64_t d = ctx.wrap_dim(ctx.int_const(ctx.arg(1)), ctx.vals.rank(x));
  squeeze_mask(ctx, x, ctx.vals.rank(x) == 0 ? 0u : 1u << d);
}

void squeeze_dims(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  IntDims dims;
  ctx.int_list_const(ctx.arg(1), dims);
  const uint32_t mask = dim_mask(ctx, dims, ctx.vals.rank(x));
  squeeze_mask(ctx, x, ctx.vals.rank(x) == 0 ? 0u : mask);
}

void unsqueeze(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  const int64_t rank = ctx.vals.rank(x);
  const size_t d = static_cast<size_t>(ctx.wrap_dim(ctx.int_const(ctx.arg(1)), rank + 1));
  ctx.set_tensor(unsqueeze_tensor(ctx, x, d));
}

void expand(PropContext& ctx) {
  Dims target;
  ctx.int_list(ctx.arg(1), target);
  ctx.set_tensor(expand_tensor(ctx, ctx.tensor_arg(0), target));
}

void expand_as(PropContext& ctx) {
  const Dims target(ctx.vals.sizes(ctx.tensor_arg(1)));
  ctx.set_tensor(expand_tensor(ctx, ctx.tensor_arg(0), target));
}

void broadcast_to(PropContext& ctx) { expand(ctx); }

// broadcast_tensors: every tensor expanded to the common broadcast shape.
void broadcast_tensors(PropContext& ctx) {
  std::vector<TensorId>& ts = ctx.scratch_tensors;
  ctx.tensor_list(ctx.arg(0), ts);
  Dims shape;
  for (TensorId t : ts) {
    Dims next;
    broadcast_shapes(ctx, shape, ctx.vals.sizes(t), next);
    shape = next;
  }
  for (TensorId& t : ts) t = expand_tensor(ctx, t, shape);
  ctx.set_tensors(ts);
}

// meshgrid: input i viewed along dim i and expanded to the grid of all input lengths;
// "xy" indexing swaps the roles of the first two inputs.
void meshgrid_impl(PropContext& ctx, bool xy) {
  ExprArena& ar = ctx.ar;
  std::vector<TensorId>& ts = ctx.scratch_tensors;
  ctx.tensor_list(ctx.arg(0), ts);
  if (ts.empty()) ctx.fail("meshgrid expects a non-empty TensorList");
  for (size_t i = 0; i + 1 < ts.size(); ++i)
    if (ctx.vals.dtype(ts[i]) != ctx.vals.dtype(ts[i + 1])) ctx.fail("meshgrid expects all tensors to have the same dtype");
  const bool swap = xy && ts.size() >= 2;
  if (swap) std::swap(ts[0], ts[1]);
  Dims grid;
  for (TensorId t : ts) {
    if (ctx.vals.rank(t) > 1)
      ctx.fail("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: a {}D tensor", ctx.vals.rank(t));
    grid.push_back(numel(ctx, ctx.vals.sizes(t)));
  }
  Dims view_shape;
  view_shape.resize(ts.size(), ar.one());
  for (size_t i = 0; i < ts.size(); ++i) {
    view_shape[i] = ar.integer(-1);
    ts[i] = expand_tensor(ctx, view_tensor(ctx, ts[i], view_shape), grid);
    view_shape[i] = ar.one();
  }
  if (swap) std::swap(ts[0], ts[1]);
  ctx.set_tensors(ts);
}

void meshgrid(PropContext& ctx) { meshgrid_impl(ctx, false); }

void meshgrid_indexing(PropContext& ctx) {
  const std::string_view indexing = ctx.string_arg(ctx.arg_or_kwarg(1, "indexing"));
  if (indexing != "xy" && indexing != "ij")
    ctx.fail("torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: {}", indexing);
  meshgrid_impl(ctx, indexing == "xy");
}

// x.T: all dims reversed.
void numpy_t(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  FixedVector<size_t, kMaxRank> order;
  for (size_t i = ctx.vals.rank(x); i-- > 0;) order.push_back(i);
  ctx.set_tensor(permuted(ctx, x, order));
}

// x.mT / x.mH / x.adjoint(): the last two dims swapped (conjugation does not change the
// layout).
void matrix_transpose(PropContext& ctx, const char* what) {
  const TensorId x = ctx.tensor_arg(0);
  if (ctx.vals.rank(x) < 2)
    ctx.fail("tensor.{} is only supported on matrices or batches of matrices. Got {}-D tensor.", what, ctx.vals.rank(x));
  ctx.set_tensor(transposed(ctx, x, -2, -1));
}
void mT(PropContext& ctx) { matrix_transpose(ctx, "mT"); }
void mH(PropContext& ctx) { matrix_transpose(ctx, "mH"); }
void adjoint(PropContext& ctx) { matrix_transpose(ctx, "adjoint()"); }

constexpr OpRuleEntry kEntries[] = {
    {"aten.broadcast_to.default", broadcast_to},
    {"aten.broadcast_tensors.default", broadcast_tensors},
    {"aten.meshgrid.default", meshgrid},
    {"aten.meshgrid.indexing", meshgrid_indexing},
    {"aten.numpy_T.default", numpy_t},
    {"aten.mT.default", mT},
    {"aten.mH.default", mH},
    {"aten.adjoint.default", adjoint},
    {"aten.permute.default", permute},
    {"aten.transpose.int", transpose},
    {"aten.swapaxes.default", transpose},
    {"aten.swapdims.default", transpose},
    {"aten.t.default", t},
    {"aten.movedim.int", movedim},
    {"aten.movedim.intlist", movedim},
    {"aten.moveaxis.int", movedim},
    {"aten.moveaxis.intlist", movedim},
    {"aten.squeeze.default", squeeze},
    {"aten.squeeze.dim", squeeze_dim},
    {"aten.squeeze.dims", squeeze_dims},
    {"aten.unsqueeze.default", unsqueeze},
    {"aten.expand.default", expand},
    {"aten.expand_as.default", expand_as},
};

}  // namespace

std::span<const OpRuleEntry> dim_entries() { return kEntries; }

}  // namespace symshape
