// einsum (semantics.md H.23) replaying eager's algorithm step by step (1.13's, and 2.x's
// operand swap in sumproduct_pair, by the graph's producer), because the output strides come
// from it: every operand is diagonalised for repeated labels,
// unsqueezed and permuted to (output dims, contraction dims); operands are contracted
// left to right (or along `path`) by sumproduct_pair (permute -> bmm -> view -> permute
// back, or a broadcasting mul when nothing is summed); finally contraction dims are
// viewed away (several operands) or summed (one operand). A single operand without
// contraction stays a view of its input.
#include <algorithm>
#include <array>

#include "prop/dtype_rules.h"
#include "prop/fake_elementwise_questions.h"
#include "prop/memory_format.h"
#include "prop/ops/matmul_family.h"
#include "prop/shape_helpers.h"

namespace symshape::mm {

namespace {

constexpr int kLetters = 26;
constexpr int kLabels = 2 * kLetters;
constexpr int kEllipsis = kLabels;
constexpr size_t kMaxOps = 16;

// Geometry of one intermediate: sizes/strides, and the input it is a view of (if any).
struct Operand {
  Dims sizes, strides;
  TensorId base;  // valid while the operand is still a view of an input
  ExprId offset;
};

char label_char(int s) { return static_cast<char>(s < kLetters ? 'A' + s : 'a' + (s - kLetters)); }

int label_index(char c) { return c >= 'A' && c <= 'Z' ? c - 'A' : c - 'a' + kLetters; }

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool not_one(PropContext& ctx, ExprId e) { return ctx.guard(ctx.ar.ne(e, ctx.ar.one())); }

void permute(Operand& op, std::span<const int64_t> perm) {
  Dims s, st;
  for (int64_t p : perm) {
    s.push_back(op.sizes[static_cast<size_t>(p)]);
    st.push_back(op.strides[static_cast<size_t>(p)]);
  }
  op.sizes = s;
  op.strides = st;
}

// A result of a reduction / product: fresh, contiguous.
Operand fresh(PropContext& ctx, std::span<const ExprId> sizes) {
  Operand r;
  r.sizes.assign(sizes);
  ctx.contiguous_strides(sizes, r.strides);
  r.base = TensorId();
  r.offset = ctx.ar.zero();
  return r;
}

// sum(dims, keepdim=true): the summed dims become 1, the result is contiguous.
Operand sum_keepdim(PropContext& ctx, const Operand& op, std::span<const size_t> dims) {
  Dims s(op.sizes);
  for (size_t d : dims) s[d] = ctx.ar.one();
  return fresh(ctx, s);
}

// computeStride (view without copy); false when no stride solution exists.
bool view_strides(PropContext& ctx, const Operand& op, std::span<const ExprId> shape, Dims& out) {
  ExprArena& ar = ctx.ar;
  out.resize(shape.size());
  if (op.sizes.empty()) {
    for (auto& s : out) s = ar.one();
    return true;
  }
  int64_t view_d = static_cast<int64_t>(shape.size()) - 1;
  ExprId chunk_base = op.strides[op.sizes.size() - 1];
  ExprId tensor_numel = ar.one(), view_numel = ar.one();
  for (int64_t d = static_cast<int64_t>(op.sizes.size()) - 1; d >= 0; --d) {
    tensor_numel = ar.mul(tensor_numel, op.sizes[d]);
    const bool chunk_end = d == 0 || (not_one(ctx, op.sizes[d - 1]) &&
                                      ctx.guard(ar.ne(op.strides[d - 1], ar.mul(tensor_numel, chunk_base))));
    if (!chunk_end) continue;
    while (view_d >= 0 && (ctx.guard(ar.lt(view_numel, tensor_numel)) || !not_one(ctx, shape[view_d]))) {
      out[view_d] = ar.mul(view_numel, chunk_base);
      view_numel = ar.mul(view_numel, shape[view_d]);
      --view_d;
    }
    if (ctx.guard(ar.ne(view_numel, tensor_numel))) return false;
    if (d > 0) {
      chunk_base = op.strides[d - 1];
      tensor_numel = ar.one();
      view_numel = ar.one();
    }
  }
  return view_d == -1;
}

// The strides FakeTensorMode gives at::mul's result (ReferenceHost::fake_strides), as the
// pointwise rules do: fake_impls' fast path (torch.empty in its memory format) when an
// operand's layout is symbolic and the path applies, else torch._refs' layout. Both differ
// from TensorIterator's only at size-1 dims; the questions are the eager ones, asked already.
void fake_mul_strides(PropContext& ctx, std::span<const TensorId> tensors, std::span<const ExprId> shape, Dims& out) {
  ShapeEnv::SuppressGuards layout_only(ctx.env);
  if (std::any_of(tensors.begin(), tensors.end(), [&](TensorId t) { return has_symbolic_layout(ctx, t); })) {
    FixedVector<OperandLayout, 2> ops;
    for (TensorId t : tensors) ops.push_back({ctx.vals.sizes(t), ctx.vals.strides(t)});
    MemoryFormat format = MemoryFormat::Contiguous;
    if (fake_binary_fast_path_guards(ctx, ops.span(), nullptr, &format)) return format_strides(ctx, shape, format, out);
  }
  refs_elementwise_strides(ctx, tensors, shape, out);
}

// sumproduct_pair(left, right, sum_dims, keepdim=true)
Operand sumproduct_pair(PropContext& ctx, Operand left, Operand right, std::span<const size_t> sum_dims, DType dtype) {
  ExprArena& ar = ctx.ar;
  const size_t dim = left.sizes.size();
  if (sum_dims.empty()) {
    // at::mul: broadcast shape, TensorIterator layout of the two operands
    Dims shape;
    broadcast_shapes(ctx, left.sizes, right.sizes, shape);
    const TensorId ops[] = {ctx.new_tensor(dtype, left.sizes, left.strides),
                            ctx.new_tensor(dtype, right.sizes, right.strides)};
    Operand r;
    r.sizes = shape;
    elementwise_strides(ctx, ops, shape, r.strides);
    if (ctx.host.fake_strides) fake_mul_strides(ctx, ops, shape, r.strides);
    r.base = TensorId();
    r.offset = ar.zero();
    return r;
  }
  uint64_t summed = 0;
  for (size_t d : sum_dims) summed |= uint64_t{1} << d;
  FixedVector<size_t, kMaxRank> lro, lo, ro;
  for (size_t i = 0; i < dim; ++i) {
    const bool sl = not_one(ctx, left.sizes[i]), sr = not_one(ctx, right.sizes[i]);
    if (summed >> i & 1) {
      if (sl && sr) {
        if (!holds(ctx, ar.eq(left.sizes[i], right.sizes[i]))) ctx.fail("non-broadcast dimensions must match");
      } else if (sl) {
        const size_t one[] = {i};
        left = sum_keepdim(ctx, left, one);
      } else if (sr) {
        const size_t one[] = {i};
        right = sum_keepdim(ctx, right, one);
      }
    } else if (sl && sr) {
      if (!holds(ctx, ar.eq(left.sizes[i], right.sizes[i]))) ctx.fail("non-broadcast dimensions must match");
      lro.push_back(i);
    } else if (sl) {
      lo.push_back(i);
    } else {
      ro.push_back(i);
    }
  }
  // 2.x: when every ro dim comes before every lo dim (a dim of size 1 in both operands counts as
  // ro), the operands and lo / ro are swapped so the bmm writes the output's order directly
  // (Linear.cpp sumproduct_pair `swap_lo_ro = !lo.empty() && !ro.empty() && ro.back() <
  // lo.front()`; 1.13 has no swap): the result is (lro, old ro, 1.., old lo) in memory.
  if (ctx.host.eager_torch.major >= 2 && !lo.empty() && !ro.empty() && ro.back() < lo[0]) {
    std::swap(left, right);
    std::swap(lo, ro);
  }
  // bmm(lro, lo, sum) x (lro, sum, ro) viewed as (lro, lo, 1.., ro), permuted back
  Dims out_size;
  std::array<int64_t, kMaxRank> operm{};
  size_t k = 0;
  for (size_t d : lro) out_size.push_back(left.sizes[d]), operm[d] = static_cast<int64_t>(k++);
  for (size_t d : lo) out_size.push_back(left.sizes[d]), operm[d] = static_cast<int64_t>(k++);
  for (size_t d : sum_dims) out_size.push_back(ar.one()), operm[d] = static_cast<int64_t>(k++);
  for (size_t d : ro) out_size.push_back(right.sizes[d]), operm[d] = static_cast<int64_t>(k++);
  Operand r = fresh(ctx, out_size);
  permute(r, std::span<const int64_t>(operm.data(), dim));
  return r;
}

// Parses the equation, prepares every operand and contracts them; `out` is the result.
void einsum(PropContext& ctx, std::string_view eq, std::span<const TensorId> tensors, Operand& out) {
  ExprArena& ar = ctx.ar;
  const size_t num_ops = tensors.size();
  if (num_ops == 0) ctx.fail("einsum(): must provide at least one operand");
  if (num_ops > kMaxOps) ctx.fail("einsum(): at most {} operands are supported", kMaxOps);
  const size_t arrow = eq.find("->");
  const std::string_view lhs = eq.substr(0, arrow);

  // labels of each operand, kEllipsis for "..."
  std::array<FixedVector<int, kMaxRank + 1>, kMaxOps> op_labels;
  bool found_ell = false;
  size_t cur = 0;
  for (size_t i = 0; i < lhs.size(); ++i) {
    const char c = lhs[i];
    if (c == ' ') continue;
    if (c == '.') {
      if (found_ell) ctx.fail("einsum(): found '.' for operand {} for which an ellipsis was already found", cur);
      if (!(i + 2 < lhs.size() && lhs[i + 1] == '.' && lhs[i + 2] == '.'))
        ctx.fail("einsum(): found '.' for operand {} that is not part of any ellipsis", cur);
      i += 2;
      op_labels[cur].push_back(kEllipsis);
      found_ell = true;
    } else if (c == ',') {
      ++cur;
      if (cur >= num_ops) ctx.fail("einsum(): fewer operands were provided than specified in the equation");
      found_ell = false;
    } else {
      if (!is_alpha(c))
        ctx.fail("einsum(): invalid subscript given at index {} in the equation string, subscripts must be in [a-zA-Z]",
                 i);
      op_labels[cur].push_back(label_index(c));
    }
  }
  if (cur != num_ops - 1) ctx.fail("einsum(): more operands were provided than specified in the equation");

  std::array<int64_t, kLabels> label_count{};
  int64_t ell_num_dim = 0;
  for (size_t i = 0; i < num_ops; ++i) {
    const int64_t ndims = ctx.vals.rank(tensors[i]);
    int64_t nlabels = static_cast<int64_t>(op_labels[i].size());
    bool has_ell = false;
    for (int l : op_labels[i]) {
      if (l == kEllipsis) {
        --nlabels;
        has_ell = true;
        ell_num_dim = std::max(ell_num_dim, ndims - nlabels);
      } else {
        ++label_count[l];
      }
    }
    if (has_ell ? nlabels > ndims : nlabels != ndims)
      ctx.fail("einsum(): the number of subscripts in the equation ({}) does not match the number of dimensions ({}) "
               "for operand {}{}",
               nlabels, ndims, i, has_ell ? "" : " and no ellipsis was given");
  }

  // position of every label (and of the ellipsis dims) in the aligned shape:
  // output dims first, then contraction dims
  std::array<int64_t, kLabels> perm_of;
  perm_of.fill(-1);
  int64_t perm_index = 0, ell_index = 0;
  found_ell = false;
  if (arrow == std::string_view::npos) {
    perm_index = ell_num_dim;
    found_ell = true;
    for (int l = 0; l < kLabels; ++l)
      if (label_count[l] == 1) perm_of[l] = perm_index++;
  } else {
    const std::string_view rhs = eq.substr(arrow + 2);
    for (size_t i = 0; i < rhs.size(); ++i) {
      const char c = rhs[i];
      if (c == ' ') continue;
      if (c == '.') {
        if (found_ell) ctx.fail("einsum(): found '.' for output but an ellipsis (...) was already found");
        if (!(i + 2 < rhs.size() && rhs[i + 1] == '.' && rhs[i + 2] == '.'))
          ctx.fail("einsum(): found '.' for output that is not part of any ellipsis (...)");
        i += 2;
        ell_index = perm_index;
        perm_index += ell_num_dim;
        found_ell = true;
        continue;
      }
      if (!is_alpha(c))
        ctx.fail("einsum(): invalid subscript given at index {} in the equation string, subscripts must be in [a-zA-Z]",
                 lhs.size() + 2 + i);
      const int l = label_index(c);
      if (label_count[l] == 0 || perm_of[l] != -1)
        ctx.fail("einsum(): output subscript {}{}", c,
                 perm_of[l] > -1 ? " appears more than once in the output"
                                 : " does not appear in the equation for any input operand");
      perm_of[l] = perm_index++;
    }
  }
  const int64_t out_size = perm_index;
  if (!found_ell) {
    ell_index = perm_index;
    perm_index += ell_num_dim;
  }
  for (int l = 0; l < kLabels; ++l)
    if (label_count[l] > 0 && perm_of[l] == -1) perm_of[l] = perm_index++;
  if (perm_index > static_cast<int64_t>(kMaxRank)) ctx.fail("einsum(): too many dimensions");

  // align every operand: diagonals for repeated labels, unsqueeze missing dims, permute
  std::array<ExprId, kLabels> label_size;
  label_size.fill(ar.one());
  FixedVector<ExprId, kMaxRank> ell_sizes;
  ell_sizes.resize(static_cast<size_t>(ell_num_dim), ar.one());
  std::array<uint64_t, kMaxRank> dim_counts{};
  FixedVector<Operand, kMaxOps> ops;
  DType dtype = ctx.vals.dtype(tensors[0]);
  for (size_t i = 0; i < num_ops; ++i) {
    const TensorId t = tensors[i];
    dtype = promote_types(dtype, ctx.vals.dtype(t));
    Operand op;
    op.sizes.assign(ctx.vals.sizes(t));
    op.strides.assign(ctx.vals.strides(t));
    op.base = t;
    op.offset = ctx.vals.tensor(t).storage_offset;
    std::array<int64_t, kMaxRank> perm;
    perm.fill(-1);
    size_t dim = 0;
    for (int s : op_labels[i]) {
      if (s == kEllipsis) {
        const int64_t ndim = static_cast<int64_t>(ctx.vals.rank(t)) - (static_cast<int64_t>(op_labels[i].size()) - 1);
        for (int64_t j = ell_num_dim - ndim; j < ell_num_dim; ++j) {
          const ExprId sz = op.sizes[dim];
          if (not_one(ctx, sz)) {
            ExprId& seen = ell_sizes[static_cast<size_t>(j)];
            if (!(ctx.guard_or_false(ar.eq(seen, ar.one())) || holds(ctx, ar.eq(seen, sz))))
              ctx.fail("einsum(): dimension {} covered by ellipsis in operand {}has size {} which does not broadcast "
                       "with previously seen ellipsis with size {} for the respective dimension",
                       dim, i, ctx.str(sz), ctx.str(seen));
            seen = sz;
            ++dim_counts[static_cast<size_t>(ell_index + j)];
          }
          perm[static_cast<size_t>(ell_index + j)] = static_cast<int64_t>(dim++);
        }
      } else if (perm[static_cast<size_t>(perm_of[s])] == -1) {
        const ExprId sz = op.sizes[dim];
        if (not_one(ctx, sz)) {
          ExprId& seen = label_size[s];
          if (!(ctx.guard_or_false(ar.eq(seen, ar.one())) || holds(ctx, ar.eq(seen, sz))))
            ctx.fail("einsum(): subscript {} has size {} for operand {} which does not broadcast with previously seen "
                     "size {}",
                     label_char(s), ctx.str(sz), i, ctx.str(seen));
          seen = sz;
          ++dim_counts[static_cast<size_t>(perm_of[s])];
        }
        perm[static_cast<size_t>(perm_of[s])] = static_cast<int64_t>(dim++);
      } else {
        // repeated label: diagonal(0, prev, dim).movedim(-1, prev)
        const size_t prev = static_cast<size_t>(perm[static_cast<size_t>(perm_of[s])]);
        if (!holds(ctx, ar.eq(op.sizes[dim], op.sizes[prev])))
          ctx.fail("einsum(): subscript {} is repeated for operand {} but the sizes don't match, {} != {}",
                   label_char(s), i, ctx.str(op.sizes[dim]), ctx.str(op.sizes[prev]));
        const ExprId st = ar.add(op.strides[prev], op.strides[dim]);
        op.sizes.erase(dim);
        op.strides.erase(dim);
        op.strides[prev] = st;
      }
    }
    for (size_t p = 0; p < static_cast<size_t>(perm_index); ++p) {
      if (perm[p] != -1) continue;
      // unsqueeze(dim) at the end of the current dims
      op.sizes.push_back(ar.one());
      op.strides.push_back(ar.one());
      perm[p] = static_cast<int64_t>(dim++);
    }
    permute(op, std::span<const int64_t>(perm.data(), static_cast<size_t>(perm_index)));
    ops.push_back(op);
  }

  // contraction path: explicit pairs, or left to right
  std::array<int64_t, 2 * kMaxOps> path{};
  size_t path_len = 0, path_pos = 0;
  if (!ctx.graph.node_kwargs(ctx.node()).empty()) {
    const ArgId p = ctx.graph.kwarg(ctx.node(), "path");
    if (!ctx.is_none(p)) {
      IntDims v;
      ctx.int_list_const(p, v);
      for (int64_t x : v)
        if (path_len < path.size()) path[path_len++] = x;
    }
  }
  const bool has_path = path_len > 0;
  while (ops.size() > 1) {
    size_t i = 0, j = 1;
    if (has_path) {
      if (path_pos + 2 > path_len) ctx.fail("einsum(): path does not contract all operands");
      int64_t a = path[path_pos++], b = path[path_pos++];
      if (b < a) std::swap(a, b);
      if (a == b || a < 0 || b >= static_cast<int64_t>(ops.size()))
        ctx.fail("einsum(): invalid contraction ({}, {}){}", a, b,
                 a == b ? " cannot contract an operand with itself" : " operand index is out of bounds");
      i = static_cast<size_t>(a);
      j = static_cast<size_t>(b);
    }
    Operand a = ops[i], b = ops[j];
    ops.erase(j);
    ops.erase(i);
    FixedVector<size_t, kMaxRank> sum_dims, a_sum, b_sum;
    for (size_t d = static_cast<size_t>(out_size); d < static_cast<size_t>(perm_index); ++d) {
      const bool na = not_one(ctx, a.sizes[d]), nb = not_one(ctx, b.sizes[d]);
      if (na && nb) {
        if (--dim_counts[d] == 1) {
          sum_dims.push_back(d);
          dim_counts[d] = 0;
        }
      } else if (dim_counts[d] == 1) {
        if (na) {
          a_sum.push_back(d);
          dim_counts[d] = 0;
        } else if (nb) {
          b_sum.push_back(d);
          dim_counts[d] = 0;
        }
      }
    }
    if (!a_sum.empty()) a = sum_keepdim(ctx, a, a_sum);
    if (!b_sum.empty()) b = sum_keepdim(ctx, b, b_sum);
    const Operand r = sumproduct_pair(ctx, a, b, sum_dims, dtype);
    if (has_path) {
      ops.push_back(r);
    } else {
      ops.insert(0, r);
    }
  }

  out = ops[0];
  if (perm_index - out_size > 0) {
    Dims shape(std::span<const ExprId>(out.sizes).first(static_cast<size_t>(out_size)));
    if (num_ops > 1) {
      // the contraction dims are all 1 now: viewed away. Eager's computeStride gives a kept
      // size-1 dim the stride of its place in the new shape; FakeTensorMode's view
      // (_reshape_view_helper) matches every kept dim and squeezes the tail, so each kept dim
      // keeps its stride (ReferenceHost::fake_strides)
      Dims strides;
      if (!view_strides(ctx, out, shape, strides)) ctx.fail("einsum(): internal view failure");
      if (ctx.host.fake_strides) strides.assign(std::span<const ExprId>(out.strides).first(shape.size()));
      out.sizes = shape;
      out.strides = strides;
    } else {
      out = fresh(ctx, shape);
    }
  }
}

// einsum(equation, tensors, *, path=None)
void einsum_rule(PropContext& ctx) {
  ctx.tensor_list(ctx.arg(1), ctx.scratch_tensors);
  for (TensorId t : ctx.scratch_tensors)
    if (!t.valid()) ctx.fail("einsum(): operands must be tensors");
  Operand out;
  einsum(ctx, ctx.string_arg(ctx.arg(0)), ctx.scratch_tensors, out);
  DType dtype = ctx.vals.dtype(ctx.scratch_tensors[0]);
  for (TensorId t : ctx.scratch_tensors) dtype = promote_types(dtype, ctx.vals.dtype(t));
  if (out.base.valid()) return ctx.set_tensor(ctx.new_view(out.base, out.sizes, out.strides, out.offset));
  ctx.set_tensor(ctx.new_tensor(dtype, out.sizes, out.strides));
}

constexpr OpRuleEntry kRules[] = {
    {"aten.einsum.default", einsum_rule},
};

}  // namespace

std::span<const OpRuleEntry> einsum_rules() { return kRules; }

}  // namespace symshape::mm
