// Advanced indexing (semantics.md H.13, H.22): aten.index.Tensor and index_put. Eager
// builds an AdvancedIndex (boolean masks become nonzero columns, index tensors are
// broadcast together, non-adjacent indexed dims are moved to the front, the source is
// restrided with 0 strides over the indexed dims) and runs a TensorIterator over it.
#include <algorithm>
#include <string>

#include "prop/memory_format.h"
#include "prop/ops/index_family.h"
#include "prop/ops/view_geometry.h"
#include "prop/shape_helpers.h"

namespace symshape {

namespace {

using TensorIds = FixedVector<TensorId, kMaxRank>;

struct AdvancedIndex {
  TensorId src;          // self restrided to the result's shape (0 strides over the index dims)
  TensorIds operands;    // src and the reshaped index tensors: TensorIterator inputs
  Dims shape;            // the indexing result's shape
};

bool is_mask(DType d) { return d == DType::Bool || d == DType::UInt8; }

// expandTensors: a k-dim boolean mask indexes k dims with the k columns of its nonzero().
void expand_masks(PropContext& ctx, TensorId self, std::span<const TensorId> entries, TensorIds& out) {
  ExprArena& ar = ctx.ar;
  const int64_t rank = ctx.vals.rank(self);
  out.clear();
  for (TensorId e : entries) {
    if (!e.valid() || !is_mask(ctx.vals.dtype(e))) {
      out.push_back(e);
      continue;
    }
    const auto msizes = ctx.vals.sizes(e);
    for (size_t j = 0; j < msizes.size(); ++j) {
      const size_t src = static_cast<size_t>(ctx.wrap_dim(static_cast<int64_t>(out.size() + j), rank));
      if (!holds(ctx, ar.eq(msizes[j], ctx.vals.sizes(self)[src])))
        ctx.fail("IndexError: The shape of the mask {} at index {} does not match the shape of the indexed tensor {} at "
                 "index {}",
                 ctx.shape_str(msizes), j, ctx.shape_str(ctx.vals.sizes(self)), src);
    }
    // nonzero(mask) is (u, k) with strides (1, u); its columns are (u,) views
    const ExprId u = nonzero_count(ctx, e);
    const int64_t k = static_cast<int64_t>(msizes.size());
    const ExprId nz_sizes[] = {u, ar.integer(k)}, nz_strides[] = {ar.one(), u};
    const TensorId nz = ctx.new_tensor(DType::Int64, nz_sizes, nz_strides);
    for (int64_t j = 0; j < k; ++j) {
      const ExprId col_size[] = {u}, col_stride[] = {ar.one()};
      out.push_back(ctx.new_view(nz, col_size, col_stride, ar.mul(ar.integer(j), u)));
    }
  }
}

// expand_outplace over the defined indices, with indexing's own mismatch message.
void broadcast_indices(PropContext& ctx, TensorIds& idx, Dims& shape) {
  ExprArena& ar = ctx.ar;
  shape.clear();
  bool first = true;
  for (TensorId t : idx) {
    if (!t.valid()) continue;
    const auto s = ctx.vals.sizes(t);
    if (first) {
      shape.assign(s);
      first = false;
      continue;
    }
    Dims r;
    const size_t n = std::max(shape.size(), s.size());
    r.resize(n);
    for (size_t i = 0; i < n; ++i) {
      const size_t off = n - 1 - i;
      const ExprId a = off < shape.size() ? shape[shape.size() - 1 - off] : ar.one();
      const ExprId b = off < s.size() ? s[s.size() - 1 - off] : ar.one();
      if (ctx.guard_or_false(ar.eq(a, ar.one()))) r[i] = b;
      else if (ctx.guard_or_false(ar.eq(b, ar.one())) || holds(ctx, ar.eq(a, b))) r[i] = a;
      else {
        std::string shapes;
        for (TensorId u : idx)
          if (u.valid()) shapes += (shapes.empty() ? "" : ", ") + ctx.shape_str(ctx.vals.sizes(u));
        ctx.fail("IndexError: shape mismatch: indexing tensors could not be broadcast together with shapes {}", shapes);
      }
    }
    shape = r;
  }
  for (TensorId& t : idx)
    if (t.valid()) t = expand_tensor(ctx, t, shape);
}

void make_index(PropContext& ctx, TensorId self, std::span<const TensorId> entries, AdvancedIndex& out) {
  ExprArena& ar = ctx.ar;
  const size_t rank = ctx.vals.rank(self);
  if (entries.size() > rank)
    ctx.fail("IndexError: too many indices for tensor of dimension {} (got {})", rank, entries.size());
  for (TensorId e : entries) {
    if (!e.valid()) continue;
    const DType d = ctx.vals.dtype(e);
    // 1.13 accepts only int64 indices (int32 became legal in 2.0): aten.index.Tensor(x, [int32_t])
    // raises "tensors used as indices must be long, byte or bool tensors"
    if (d != DType::Int64 && !is_mask(d))
      ctx.fail("IndexError: tensors used as indices must be long, byte or bool tensors");
  }
  TensorIds idx;
  expand_masks(ctx, self, entries, idx);
  Dims replacement;
  broadcast_indices(ctx, idx, replacement);
  while (idx.size() < rank) idx.push_back(TensorId());
  // hasContiguousSubspace, else transposeToFront: indexed dims first, in order
  size_t first = rank, last = 0, defined = 0;
  for (size_t i = 0; i < rank; ++i) {
    if (!idx[i].valid()) continue;
    first = std::min(first, i);
    last = i;
    ++defined;
  }
  FixedVector<size_t, kMaxRank> order;
  if (defined > 0 && last - first + 1 != defined) {
    TensorIds moved;
    for (size_t i = 0; i < rank; ++i)
      if (idx[i].valid()) order.push_back(i), moved.push_back(idx[i]);
    for (size_t i = 0; i < rank; ++i)
      if (!idx[i].valid()) order.push_back(i), moved.push_back(TensorId());
    idx = moved;
  } else {
    for (size_t i = 0; i < rank; ++i) order.push_back(i);
  }
  const auto ssizes = ctx.vals.sizes(self), sstrides = ctx.vals.strides(self);
  size_t before = 0, indexed = 0;
  bool indexed_zero = false;
  for (size_t i = 0; i < rank; ++i) {
    if (idx[i].valid()) {
      ++indexed;
      indexed_zero = indexed_zero || ctx.guard_or_false(ar.eq(ssizes[order[i]], ar.zero()));
    } else if (indexed == 0) {
      ++before;
    }
  }
  if (indexed_zero) {
    bool replacement_zero = false;
    for (ExprId s : replacement) replacement_zero = replacement_zero || ctx.guard_or_false(ar.eq(s, ar.zero()));
    if (!replacement_zero) ctx.fail("IndexError: index is out of bounds for dimension with size 0");
  }
  // restride_src: the indexed dims become the replacement shape with stride 0
  Dims strides;
  out.shape.clear();
  for (size_t i = 0; i < before; ++i) out.shape.push_back(ssizes[order[i]]), strides.push_back(sstrides[order[i]]);
  for (ExprId s : replacement) out.shape.push_back(s), strides.push_back(ar.zero());
  for (size_t i = before + indexed; i < rank; ++i)
    out.shape.push_back(ssizes[order[i]]), strides.push_back(sstrides[order[i]]);
  const size_t after = rank - before - indexed;
  out.src = ctx.new_view(self, out.shape, strides, ctx.vals.tensor(self).storage_offset);
  out.operands.clear();
  out.operands.push_back(out.src);
  // reshape_indexer: each index viewed as [1]*before + shape + [1]*after
  Dims ishape;
  ishape.resize(before, ar.one());
  for (ExprId s : replacement) ishape.push_back(s);
  for (size_t i = 0; i < after; ++i) ishape.push_back(ar.one());
  for (TensorId t : idx)
    if (t.valid()) out.operands.push_back(reshape_tensor(ctx, t, ishape));
}

void read_entries(PropContext& ctx, TensorIds& entries) {
  std::vector<TensorId>& list = ctx.scratch_tensors;
  ctx.tensor_list(ctx.arg(1), list);
  entries.clear();
  for (TensorId t : list) entries.push_back(t);
}

void index(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  TensorIds entries;
  read_entries(ctx, entries);
  AdvancedIndex info;
  make_index(ctx, self, entries, info);
  Dims strides;
  elementwise_strides(ctx, info.operands, info.shape, strides);
  ctx.set_tensor(ctx.new_tensor(ctx.vals.dtype(self), info.shape, strides));
}

// canDispatchToMaskedFill: a one-element value and a single boolean mask (other entries
// None) is a masked_fill_, which only checks the mask against self's dims.
bool masked_fill_path(PropContext& ctx, TensorId self, std::span<const TensorId> entries, TensorId values) {
  if (!ctx.known_true(ctx.ar.eq(numel(ctx, ctx.vals.sizes(values)), ctx.ar.one()))) return false;
  TensorId mask;
  size_t first = 0, seen = 0;
  for (TensorId e : entries) {
    if (!e.valid()) {
      ++seen;
      continue;
    }
    if (!is_mask(ctx.vals.dtype(e)) || mask.valid()) return false;
    mask = e;
    first = seen;
    seen += ctx.vals.rank(e);
  }
  if (!mask.valid()) return false;
  const auto m = ctx.vals.sizes(mask);
  for (size_t j = 0; j < m.size(); ++j) {
    const size_t src = static_cast<size_t>(ctx.wrap_dim(static_cast<int64_t>(first + j), ctx.vals.rank(self)));
    if (!holds(ctx, ctx.ar.eq(m[j], ctx.vals.sizes(self)[src])))
      ctx.fail("IndexError: The shape of the mask {} at index {} does not match the shape of the indexed tensor {} at "
               "index {}",
               ctx.shape_str(m), j, ctx.shape_str(ctx.vals.sizes(self)), src);
  }
  return true;
}

// index_put: values must broadcast to the indexing result and have self's dtype; the
// result is self's clone (preserve_format) or, in place, self.
void index_put_impl(PropContext& ctx, bool inplace) {
  ExprArena& ar = ctx.ar;
  const TensorId self = ctx.tensor_arg(0), values = ctx.tensor_arg(2);
  TensorIds entries;
  read_entries(ctx, entries);
  if (entries.size() > ctx.vals.rank(self))
    ctx.fail("IndexError: too many indices for tensor of dimension {} (got {})", ctx.vals.rank(self), entries.size());
  const bool accumulate = ctx.bool_const(ctx.arg(3));
  if (accumulate || !masked_fill_path(ctx, self, entries, values)) {
    AdvancedIndex info;
    make_index(ctx, self, entries, info);
    const auto v = ctx.vals.sizes(values);
    bool expandable = v.size() <= info.shape.size();
    for (size_t i = 0; expandable && i < v.size(); ++i) {
      const ExprId a = v[v.size() - 1 - i], b = info.shape[info.shape.size() - 1 - i];
      expandable = ctx.guard_or_false(ar.eq(a, ar.one())) || holds(ctx, ar.eq(a, b));
    }
    if (!expandable)
      ctx.fail("shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of shape {}",
               ctx.shape_str(v), ctx.shape_str(info.shape));
    if (ctx.vals.dtype(values) != ctx.vals.dtype(self))
      ctx.fail("Index put requires the source and destination dtypes match, got {} for the destination and {} for the "
               "source.",
               dtype_name(ctx.vals.dtype(self)), dtype_name(ctx.vals.dtype(values)));
  }
  if (inplace) return ctx.set_tensor(self);
  const Dims sizes(ctx.vals.sizes(self));
  Dims strides;
  empty_like_strides(ctx, self, MemoryFormat::Preserve, strides);
  ctx.set_tensor(ctx.new_tensor(ctx.vals.dtype(self), sizes, strides));
}

void index_put(PropContext& ctx) { index_put_impl(ctx, false); }
void index_put_(PropContext& ctx) { index_put_impl(ctx, true); }

constexpr OpRuleEntry kEntries[] = {
    {"aten.index.Tensor", index},
    {"aten._unsafe_index.Tensor", index},
    {"aten.index_put.default", index_put},
    {"aten._unsafe_index_put.default", index_put},
    {"aten.index_put_.default", index_put_},
    {"aten._index_put_impl_.default", index_put_},
};

}  // namespace

std::span<const OpRuleEntry> advanced_index_entries() { return kEntries; }

}  // namespace symshape
