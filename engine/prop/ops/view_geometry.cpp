#include "prop/ops/view_geometry.h"
#include "prop/fake_dispatch_cache.h"
#include "prop/shape_helpers.h"

namespace symshape {

namespace {

// The loop both size inferences share: the index of the one -1 (`infer`, -1 when none) and
// the product of the other entries, each entry checked non-negative as the caller's source
// spells it (Python `d >= 0`, C++ `d > -1`).
ExprId product_of_known_entries(PropContext& ctx, std::span<const ExprId> shape, bool cpp_spelling, int64_t& infer) {
  ExprArena& ar = ctx.ar;
  const ExprId minus_one = ar.integer(-1);
  infer = -1;
  ExprId newsize = ar.one();
  for (size_t i = 0; i < shape.size(); ++i) {
    const ExprId d = shape[i];
    if (ctx.guard_or_false(ar.eq(d, minus_one))) {
      if (infer >= 0) ctx.fail("only one dimension can be inferred");
      infer = static_cast<int64_t>(i);
      continue;
    }
    const ExprId non_negative = cpp_spelling ? ar.gt(d, minus_one) : ar.ge(d, ar.zero());
    if (!holds(ctx, non_negative)) ctx.fail("invalid shape dimension {}", ctx.str(d));
    newsize = ar.mul(newsize, d);
  }
  return newsize;
}

[[noreturn]] void fail_invalid_shape(PropContext& ctx, std::span<const ExprId> shape, ExprId numel) {
  ctx.fail("shape '{}' is invalid for input of size {}", ctx.shape_str(shape), ctx.str(numel));
}

}  // namespace

void infer_size(PropContext& ctx, std::span<const ExprId> shape, ExprId numel, Dims& out) {
  ExprArena& ar = ctx.ar;
  out.assign(shape);
  int64_t infer;
  const ExprId newsize = product_of_known_entries(ctx, shape, /*cpp_spelling=*/false, infer);
  if (infer < 0) {
    if (!holds(ctx, ar.eq(numel, newsize))) fail_invalid_shape(ctx, shape, numel);
    return;
  }
  if (!holds(ctx, ar.ne(newsize, ar.zero()))) {
    if (ctx.guard_or_false(ar.eq(numel, ar.zero())))
      ctx.fail("cannot reshape tensor of 0 elements into shape {} because the unspecified dimension size -1 can be "
               "any value and is ambiguous",
               ctx.shape_str(shape));
    fail_invalid_shape(ctx, shape, numel);
  }
  const ExprId inferred = ar.floordiv(numel, newsize);
  // `numel % newsize == 0` folds only as torch's Mod does (a monomial divisor dividing every
  // summand: Mod(24*s0*s1, 24*s0) -> 0); sums sharing a factor, (64 + 64*k) % (4 + 4*k),
  // are asked, though the floor division cancels them to 16
  if (!holds(ctx, ar.eq(ar.mod(numel, newsize), ar.zero()))) fail_invalid_shape(ctx, shape, numel);
  // torch._check_is_size: dividing an unbacked size must not lose its size-likeness
  if (ar.facts(inferred) & kFactHasUnbacked) {
    if (ar.kind(inferred) == ExprKind::Symbol) ctx.env.constrain_range_for_size(inferred);
    else if (!holds(ctx, ar.ge(inferred, ar.zero()))) ctx.fail("{} is not a valid size", ctx.str(inferred));
  }
  out[static_cast<size_t>(infer)] = inferred;
}

// ATen/InferSize.h infer_size_impl over SymInts (infer_size_dv, which C++ reshape_symint
// calls for a tensor that is not contiguous): each entry `> -1`; with a -1 one question,
// `(newsize > 0 & numel % newsize == 0) | numel == newsize`, built as SymBools and guarded
// as a whole (a product that divides only after expansion stays undecided: safe_expand
// does not enter an Or), then `newsize != 0`.
void cpp_infer_size(PropContext& ctx, std::span<const ExprId> shape, ExprId numel, Dims& out) {
  ExprArena& ar = ctx.ar;
  out.assign(shape);
  int64_t infer;
  const ExprId newsize = product_of_known_entries(ctx, shape, /*cpp_spelling=*/true, infer);
  if (infer < 0) {
    if (!holds(ctx, ar.eq(numel, newsize))) fail_invalid_shape(ctx, shape, numel);
    return;
  }
  // a constant 0 product asks `numel == newsize` alone (newsize.maybe_as_int() == 0)
  const ExprId fits = newsize == ar.zero() ? ar.eq(numel, newsize)
                                           : ar.logical_or(ar.logical_and(ar.gt(newsize, ar.zero()),
                                                                          ar.eq(ar.mod(numel, newsize), ar.zero())),
                                                           ar.eq(numel, newsize));
  if (!holds(ctx, fits)) fail_invalid_shape(ctx, shape, numel);
  if (!holds(ctx, ar.ne(newsize, ar.zero())))
    ctx.fail("cannot reshape tensor of 0 elements into shape {} because the unspecified dimension size -1 can be "
             "any value and is ambiguous",
             ctx.shape_str(shape));
  out[static_cast<size_t>(infer)] = ar.floordiv(numel, newsize);
}

// c10's computeStride chunk walk over a tensor with elements: `decide(cond, copy_answer)`
// answers each comparison (`copy_answer`: the answer that leads reshape to a copy).
template <class Decide>
static bool compute_stride_walk(ExprArena& ar, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                                std::span<const ExprId> new_sizes, Decide&& decide, Dims& out) {
  out.resize(new_sizes.size());
  int64_t view_d = static_cast<int64_t>(new_sizes.size()) - 1;
  ExprId chunk_base_stride = strides.back();
  ExprId tensor_numel = ar.one();
  ExprId view_numel = ar.one();
  for (int64_t td = static_cast<int64_t>(sizes.size()) - 1; td >= 0; --td) {
    const size_t t = static_cast<size_t>(td);
    tensor_numel = ar.mul(tensor_numel, sizes[t]);
    // a chunk of mutually contiguous old dims ends before a non-1 dim whose stride breaks it
    const bool chunk_end =
        td == 0 || (decide(ar.ne(sizes[t - 1], ar.one()), true) &&
                    decide(ar.ne(strides[t - 1], ar.mul(tensor_numel, chunk_base_stride)), true));
    if (!chunk_end) continue;
    while (view_d >= 0 && (decide(ar.lt(view_numel, tensor_numel), false) ||
                           decide(ar.eq(new_sizes[static_cast<size_t>(view_d)], ar.one()), false))) {
      out[static_cast<size_t>(view_d)] = ar.mul(view_numel, chunk_base_stride);
      view_numel = ar.mul(view_numel, new_sizes[static_cast<size_t>(view_d)]);
      --view_d;
    }
    if (decide(ar.ne(view_numel, tensor_numel), true)) return false;
    if (td > 0) {
      chunk_base_stride = strides[t - 1];
      tensor_numel = ar.one();
      view_numel = ar.one();
    }
  }
  return view_d == -1;
}

bool view_strides(PropContext& ctx, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                  std::span<const ExprId> new_sizes, bool or_copy, Dims& out) {
  ExprArena& ar = ctx.ar;
  // view decides every comparison (data-dependent error on unbacked sizes); reshape
  // takes the answer that leads to a copy when it cannot decide
  auto decide = [&](ExprId cond, bool copy_answer) {
    if (!or_copy) return ctx.guard(cond);
    return copy_answer ? ctx.guard_or_true(cond) : ctx.guard_or_false(cond);
  };
  out.clear();
  if (sizes.empty()) {
    out.resize(new_sizes.size(), ar.one());
    return true;
  }
  // zero elements: any strides work; numpy keeps them when the shape is unchanged
  if (ctx.guard_or_false(ar.eq(numel(ctx, sizes), ar.zero()))) {
    bool same = sizes.size() == new_sizes.size();
    for (size_t i = 0; same && i < sizes.size(); ++i) same = ctx.guard(ar.eq(sizes[i], new_sizes[i]));
    if (same) {
      out.assign(strides);
      return true;
    }
    ctx.contiguous_strides(new_sizes, out);
    return true;
  }
  return compute_stride_walk(ar, sizes, strides, new_sizes, decide, out);
}

// Whether a size, stride or target length holds a data-dependent (unbacked) symbol.
static bool has_unbacked(const ExprArena& ar, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                  std::span<const ExprId> shape) {
  for (auto span : {sizes, strides, shape})
    for (ExprId e : span)
      if (ar.facts(e) & kFactHasUnbacked) return true;
  return false;
}

// torch/_refs/__init__.py _reshape_view_helper + _reshape_view_helper_core_alg (PyTorch
// 2.x; FakeTensorMode's aten.view / aten._unsafe_view, fake_impls.py _view_meta): the
// questions the greedy split/flatten algorithm asks, in its order, and (fake_strides) the
// strides of its result; the engine's own result strides stay computeStride's (view_strides)
// unless ReferenceHost::fake_strides asks for these.
bool reshape_view_helper_guards(PropContext& ctx, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                                std::span<const ExprId> shape, Dims* fake_strides, Dims* fake_sizes) {
  ExprArena& ar = ctx.ar;
  const ExprId one = ar.one(), zero = ar.zero();
  if (fake_strides) fake_strides->clear();
  if (fake_sizes) fake_sizes->clear();
  auto result = [&](std::span<const ExprId> sz, std::span<const ExprId> st) {
    if (fake_strides) fake_strides->assign(st);
    if (fake_sizes) fake_sizes->assign(sz);
    return true;
  };
  // as_strided(a, shape, contiguous strides), or prims.reshape's copy
  auto contiguous_result = [&] {
    if (fake_strides) ctx.contiguous_strides(shape, *fake_strides);
    if (fake_sizes) fake_sizes->assign(shape);
  };
  auto copy_result = [&] {  // prims.reshape: a copy (a view raises)
    contiguous_result();
    return false;
  };
  // a view the helper dispatches (its prims' metas run aten.as_strided): a cache miss,
  // whose output metadata and `set_` walk are asked (fake_dispatch_cache.h)
  auto dispatched_view = [&](const Dims& sz, const Dims& st) {
    fake_cache_metadata_questions(ctx, {sz, st});
    fake_cache_view_layout_questions(ctx, {sz, st});
  };
  // an inferred example where infer_size failed: PyTorch raised before these questions
  if (ctx.node_failed_a_check()) return false;
  // an unbacked input or shape takes _view_unbacked_meta instead (view_tensor)
  if (has_unbacked(ar, sizes, strides, shape)) return false;
  // `if a.numel() == 0`: as_strided to the contiguous strides
  if (ctx.guard(ar.eq(numel(ctx, sizes), zero))) {
    contiguous_result();
    return true;
  }
  // zero-dim input / zero-dim result: `length != 1` per dim
  if (sizes.empty()) {
    for (ExprId l : shape) ctx.guard(ar.ne(l, one));
    if (fake_strides) fake_strides->resize(shape.size(), one);  // unsqueeze(-1) per dim
    if (fake_sizes) fake_sizes->resize(shape.size(), one);
    return true;
  }
  if (shape.empty()) {
    for (ExprId l : sizes) ctx.guard(ar.ne(l, one));
    return result({}, {});
  }
  if (prims_is_contiguous_or_false(ctx, OperandLayout{sizes, strides})) {
    // nd_to_1d: as_strided(a, [numel], [1]); 1d_to_2d: as_strided(a, [d0, d1], [d1, 1])
    if (shape.size() == 1 && sizes.size() > 1) return result(std::array{numel(ctx, sizes)}, std::array{one});
    if (shape.size() == 2 && sizes.size() == 1) return result(shape, std::array{shape[1], one});
  }
  // torch._check(a.numel() == shape_numel): an inferred -1 is `numel // rest`, and this is
  // decided only where the divisibility the infer_size guard recorded is of the same Mod
  // (a floor division SymPy reduced by a common factor keeps it a guard)
  if (!holds(ctx, ar.eq(numel(ctx, sizes), numel(ctx, shape)))) return false;
  Dims a(sizes), st(strides);
  size_t idx = 0;
  for (const ExprId length : shape) {
    if (a.size() >= kMaxRank) return false;
    if (idx >= a.size()) {
      // tail unsqueeze: split_dim(a_, last, a_.shape[last]) appends a 1
      if (ctx.guard(ar.ne(length, one))) return false;
      a.push_back(one);
      st.push_back(st.back());
      dispatched_view(a, st);  // split_dim's output
      ++idx;
      continue;
    }
    if (ctx.guard(python_eq(ar, length, a[idx]))) {  // a literal length is a Python int
      ++idx;
      continue;
    }
    ExprId accum = a[idx];
    size_t end = idx;
    while (ctx.guard(ar.ne(ar.mod(accum, length), zero))) {
      if (++end >= a.size()) return false;  // infer_size already rejected this shape
      accum = ar.mul(accum, a[end]);
    }
    if (end != idx) {
      // _collapse_view_helper(a_, idx, end): valid when every adjacent pair is 1-sized or
      // nested (guard_or_false of the disjunction), else reshape copies (no more questions)
      ExprId valid = ar.true_();
      if (ctx.guard_or_false(ar.ne(numel(ctx, a), zero)))
        for (size_t i = end; i-- > idx;) {
          const ExprId terms[] = {ar.eq(a[i], one), ar.eq(a[i + 1], one), ar.eq(st[i], ar.mul(st[i + 1], a[i + 1]))};
          valid = ar.logical_and(valid, ar.logical_or(terms));
        }
      valid = ar.logical_or(valid, ar.eq(numel(ctx, a), zero));
      if (!ctx.guard_or_false(valid)) return copy_result();
      // flatten(a_, idx, end): the collapsed dim's stride is the min over non-1 dims
      ExprId stride = st[end];
      for (size_t i = end; i-- > idx;)
        if (ctx.guard(ar.ne(a[i], one)) && ctx.guard(python_lt(ar, st[i], stride))) stride = st[i];
      ExprId collapsed = a[end];
      if (ctx.guard_or_true(ar.ne(collapsed, zero)))
        for (size_t i = end; i-- > idx;) {
          if (ctx.guard_or_false(ar.eq(a[i], zero))) {
            collapsed = zero;
            stride = zero;
            break;
          }
          collapsed = ar.mul(collapsed, a[i]);
        }
      else
        stride = zero;
      for (size_t k = idx; k < end; ++k) {
        a.erase(idx + 1);
        st.erase(idx + 1);
      }
      a[idx] = collapsed;
      st[idx] = stride;
      dispatched_view(a, st);  // prims.collapse_view's output
    }
    if (ctx.guard(python_ne(ar, accum, length))) {
      // split_dim(a_, idx, length)
      const ExprId inner = ar.floordiv(a[idx], length);
      ctx.guard(ar.ne(ar.mod(a[idx], length), zero));
      const ExprId s = st[idx];
      a[idx] = length;
      st[idx] = ar.mul(s, inner);
      a.insert(idx + 1, inner);
      st.insert(idx + 1, s);
      dispatched_view(a, st);  // prims.split_dim's output
    }
    ++idx;
  }
  // squeezes tail: torch._check(a_.shape[idx] == 1), then squeeze(a_, idx), one more
  // dispatched view (prims.squeeze)
  while (idx < a.size()) {
    ctx.guard(ar.eq(a[idx], one));
    a.erase(idx);
    st.erase(idx);
    dispatched_view(a, st);
  }
  return result(a, st);
}

namespace {

// The size FakeTensorMode's view gives each dim: the view helper's expression (`a // length`
// for a split dim, the input's own for a dim found equal to its length), equal in value to
// the requested length. Where that expression has grown past kMaxHelperSizeTree nodes as a
// SymPy tree (window partitions that split and re-collapse the same dims block after block,
// maxvit with dynamic H and W: each block triples it), the requested length is kept:
// PyTorch's own sympy walks such trees for hours (FloorDiv.eval's simplify), and its guards'
// text grows with the tree. Large enough for the nested ceil(../2) patch sizes PyTorch does
// carry (mobilevitv2). docs/torchref.md, "The view helper's sizes".
constexpr uint32_t kMaxHelperSizeTree = 2048;

void take_helper_sizes(const ExprArena& ar, std::span<const ExprId> helper_sizes, Dims& sizes) {
  if (helper_sizes.size() != sizes.size()) return;  // the helper raised or took another path
  for (size_t i = 0; i < sizes.size(); ++i)
    if (ar.tree_size_halves(helper_sizes[i]) <= 2 * kMaxHelperSizeTree) sizes[i] = helper_sizes[i];
}

// Strides that are exactly the contiguous ones, without asking the ShapeEnv anything:
// computeStride then always succeeds with the contiguous strides of the new shape (one
// chunk with base stride 1; its zero-element branch gives the same), so the view needs
// no comparison at all, even over unbacked sizes.
bool known_contiguous(PropContext& ctx, TensorId t) {
  ExprArena& ar = ctx.ar;
  const auto sizes = ctx.vals.sizes(t), strides = ctx.vals.strides(t);
  ExprId expected = ar.one();
  for (size_t i = sizes.size(); i-- > 0;) {
    // a size-1 dim's stride never matters to computeStride, except the innermost one: it
    // is the first chunk's base stride ([1,3,1,1] strides [3,1,1,2] views as [3,1,2,2])
    if (i + 1 < sizes.size() && ctx.known_true(ar.eq(sizes[i], ar.one()))) continue;
    if (strides[i] != expected && !ctx.known_true(ar.eq(strides[i], expected))) return false;
    expected = ar.mul(expected, sizes[i]);
  }
  return true;
}

}  // namespace

// c10's computeStride at the example's values (hints, no question asked, so no guard):
// whether eager can view `sizes`/`strides` as `shape` there. Unbacked values count as viewable.
static bool eager_view_possible_at_example(PropContext& ctx, std::span<const ExprId> sizes,
                                           std::span<const ExprId> strides, std::span<const ExprId> shape) {
  if (sizes.empty() || has_unbacked(ctx.ar, sizes, strides, shape) || ctx.hint(numel(ctx, sizes)) == 0) return true;
  Dims unused;
  const auto at_example = [&](ExprId cond, bool) { return ctx.env.hint_value(cond) == ctx.ar.true_(); };
  return compute_stride_walk(ctx.ar, sizes, strides, shape, at_example, unused);
}

TensorId view_tensor(PropContext& ctx, TensorId t, std::span<const ExprId> shape) {
  const auto sizes = ctx.vals.sizes(t);
  Dims inferred, strides, fake, helper_sizes;
  infer_size(ctx, shape, numel(ctx, sizes), inferred);
  const bool want_fake = ctx.host.fake_strides;
  const bool viewed =
      reshape_view_helper_guards(ctx, sizes, ctx.vals.strides(t), inferred, want_fake ? &fake : nullptr, &helper_sizes);
  const ExprId offset = ctx.vals.tensor(t).storage_offset;
  if (!sizes.empty() && !inferred.empty() && has_unbacked(ctx.ar, sizes, ctx.vals.strides(t), inferred)) {
    // 2.x fake_impls.py _view_unbacked_meta: a data-dependent size is not guarded on. The same
    // shape is the tensor itself; a contiguous one (is_contiguous_or_false) gets contiguous
    // strides; else computeStride size-obliviously. Only when that fails are the guards asked
    // (PyTorch reruns it to raise the data-dependent error). nonzero's (u0, 1) result, strides
    // (1, u0), views as (u0,) with stride 1.
    bool same = inferred.size() == sizes.size();
    for (size_t i = 0; same && i < sizes.size(); ++i) same = ctx.guard_or_false(ctx.ar.eq(sizes[i], inferred[i]));
    if (same) return ctx.new_view(t, inferred, ctx.vals.strides(t), offset);
    if (prims_is_contiguous_or_false(ctx, OperandLayout{sizes, ctx.vals.strides(t)})) {
      ctx.contiguous_strides(inferred, strides);
      return ctx.new_view(t, inferred, strides, offset);
    }
    if (view_strides(ctx, sizes, ctx.vals.strides(t), inferred, true, strides))
      return ctx.new_view(t, inferred, strides, offset);
    strides.clear();
  }
  if (viewed && want_fake && fake.size() == inferred.size()) {
    // FakeTensorMode's aten.view is the helper alone: computeStride asks nothing there.
    // Which views are refused stays eager's, read off the example without a question.
    if (!eager_view_possible_at_example(ctx, sizes, ctx.vals.strides(t), inferred))
      ctx.fail(
          "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
          "contiguous subspaces). Use .reshape(...) instead.");
    strides = fake;
  } else if (known_contiguous(ctx, t)) {
    ctx.view_contiguous_strides(inferred, strides);
  } else if (!view_strides(ctx, sizes, ctx.vals.strides(t), inferred, false, strides)) {
    ctx.fail(
        "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
        "contiguous subspaces). Use .reshape(...) instead.");
  }
  if (want_fake && fake.size() == inferred.size()) strides = fake;
  take_helper_sizes(ctx.ar, helper_sizes, inferred);
  return ctx.new_view(t, inferred, strides, ctx.vals.tensor(t).storage_offset);
}

// c10/core/Contiguity.h _compute_contiguous_sym's is_contiguous_or_false walk (PyTorch 2.x
// reshape_symint asks it first): `numel == 0` and each `size == 1` are guard_or_false, a
// stride that is neither the running product nor its max(size, 1) form (the strides
// make_contiguous_strides_for gives) is guard_or_true. Over plain symbols every question is
// decided by the ranges; over sizes such as `W // ceil(W/2)` they are guards.
static bool cpp_contiguous_or_false(PropContext& ctx, std::span<const ExprId> sizes, std::span<const ExprId> strides) {
  ExprArena& ar = ctx.ar;
  if (ctx.guard_or_false(ar.eq(numel(ctx, sizes), ar.zero()))) return true;
  ExprId expected = ar.one(), expected_max = ar.one();
  for (size_t d = sizes.size(); d-- > 0;) {
    if (ctx.guard_or_false(ar.eq(sizes[d], ar.one()))) continue;
    if (ctx.guard_or_true(ar.ne(strides[d], expected)) && ctx.guard_or_true(ar.ne(strides[d], expected_max)))
      return false;
    expected_max = ar.mul(expected_max, ar.max(sizes[d], ar.one()));
    expected = ar.mul(expected, sizes[d]);
  }
  return true;
}

TensorId reshape_tensor(PropContext& ctx, TensorId t, std::span<const ExprId> shape) {
  // reshape_symint: `if (self.is_contiguous_or_false()) return self.view_symint(shape)`
  if (cpp_contiguous_or_false(ctx, ctx.vals.sizes(t), ctx.vals.strides(t))) return view_tensor(ctx, t, shape);
  const auto sizes = ctx.vals.sizes(t);
  const ExprId n = numel(ctx, sizes);
  Dims inferred, strides;
  cpp_infer_size(ctx, shape, n, inferred);
  bool viewable = true;
  if (known_contiguous(ctx, t)) ctx.view_contiguous_strides(inferred, strides);
  else viewable = view_strides(ctx, sizes, ctx.vals.strides(t), inferred, true, strides);
  // 2.x: reshape_symint's view_symint / _unsafe_view run _reshape_view_helper (fake_impls.py
  // _view_meta) on the tensor or on its contiguous clone
  const bool want_fake = ctx.host.fake_strides;
  Dims fake, helper_sizes, checked;
  if (viewable) {
    // view_symint(shape) with the inferred shape: _reshape_view_helper's infer_size asks
    // `numel == prod(shape)` again, the product over the inferred dim's floor division
    infer_size(ctx, inferred, n, checked);
    reshape_view_helper_guards(ctx, sizes, ctx.vals.strides(t), inferred, want_fake ? &fake : nullptr, &helper_sizes);
    if (want_fake && fake.size() == inferred.size()) strides = fake;
    take_helper_sizes(ctx.ar, helper_sizes, inferred);
    return ctx.new_view(t, inferred, strides, ctx.vals.tensor(t).storage_offset);
  }
  // _unsafe_view(clone(contiguous)): a viewed contiguous tensor has contiguous strides. The
  // clone (refs.clone -> prims.clone -> empty_strided) is dispatched, so FakeTensorMode's
  // cache asks the metadata of its output
  Dims contiguous;
  ctx.contiguous_strides(sizes, contiguous);
  fake_cache_metadata_questions(ctx, {sizes, contiguous});
  infer_size(ctx, inferred, n, checked);
  reshape_view_helper_guards(ctx, sizes, contiguous, inferred, want_fake ? &fake : nullptr, &helper_sizes);
  take_helper_sizes(ctx.ar, helper_sizes, inferred);
  if (want_fake && fake.size() == inferred.size()) return ctx.new_tensor(ctx.vals.dtype(t), inferred, fake);
  return ctx.new_contiguous(ctx.vals.dtype(t), inferred);
}

TensorId alias_tensor(PropContext& ctx, TensorId t) {
  // copies first: the value table's arrays may grow while the new tensor is added
  const Dims sizes(ctx.vals.sizes(t)), strides(ctx.vals.strides(t));
  return ctx.new_view(t, sizes, strides, ctx.vals.tensor(t).storage_offset);
}

TensorId unsqueeze_tensor(PropContext& ctx, TensorId t, size_t d) {
  Dims sizes(ctx.vals.sizes(t)), strides(ctx.vals.strides(t));
  const ExprId stride = d >= sizes.size() ? ctx.ar.one() : ctx.ar.mul(sizes[d], strides[d]);
  sizes.insert(d, ctx.ar.one());
  strides.insert(d, stride);
  return ctx.new_view(t, sizes, strides, ctx.vals.tensor(t).storage_offset);
}

TensorId refs_unsqueeze_tensor(PropContext& ctx, TensorId t, size_t d) {
  const Dims sizes(ctx.vals.sizes(t));  // copied: a guard's refinement may grow the tables
  for (ExprId s : sizes) ctx.guard_or_false(ctx.ar.eq(s, ctx.ar.one()));
  return unsqueeze_tensor(ctx, t, d);
}

void meta_copy_questions(PropContext& ctx, std::span<const ExprId> self_sizes, std::span<const ExprId> src_sizes) {
  ExprArena& ar = ctx.ar;
  const size_t n = self_sizes.size(), rank = src_sizes.size();
  if (rank > n) return;  // refs expand's "too few dimensions", reported by the caller's own check
  const size_t offset = n - rank;
  Dims shape(self_sizes);
  uint64_t checked = 0;  // dims whose `length >= 0` the loop asked: validate_shape's is a repeat
  for (size_t i = 0; i < rank; ++i) {
    const ExprId x = src_sizes[i], length = self_sizes[offset + i];
    if (ctx.guard_or_false(ar.eq(length, ar.integer(-1)))) {
      shape[offset + i] = x;
      continue;
    }
    const ExprId either[] = {ar.eq(x, ar.one()), ar.eq(length, x)};
    if (!holds(ctx, ar.logical_or(either)))
      ctx.fail("expand: attempting to expand a dimension of length {} -> {}!", ctx.str(x), ctx.str(length));
    if (!holds(ctx, ar.ge(length, ar.zero()))) ctx.fail("expand: negative length {}", ctx.str(length));
    checked |= uint64_t{1} << (offset + i);
  }
  for (size_t j = 0; j < n; ++j)
    if (!(checked >> j & 1) && !holds(ctx, ar.ge(shape[j], ar.zero())))
      ctx.fail("expand: negative length {}", ctx.str(shape[j]));
  for (size_t i = 0; i < rank; ++i)
    if (ctx.guard_or_false(ar.eq(src_sizes[i], ar.one()))) ctx.guard_or_false(ar.eq(src_sizes[i], shape[offset + i]));
}

// at::inferExpandGeometry: right-aligned; -1 keeps a size; a size-1 dim (or a new
// leading dim) expanded to another size gets stride 0.
TensorId expand_tensor(PropContext& ctx, TensorId x, std::span<const ExprId> target) {
  ExprArena& ar = ctx.ar;
  const Dims sizes(ctx.vals.sizes(x)), strides(ctx.vals.strides(x));
  const size_t n = target.size(), rank = sizes.size();
  if (n < rank)
    ctx.fail("expand(size={}): the number of sizes provided ({}) must be greater or equal to the number of dimensions in "
             "the tensor ({})",
             ctx.shape_str(target), n, rank);
  Dims ns, nt;
  if (rank == 0) {
    // 1.13 expands a 0-dim tensor to the target sizes verbatim with all-zero strides
    // (tensor(1.).expand(1, 1) has strides (0, 0)); a -1 is then a negative size
    for (ExprId want : target)
      if (!holds(ctx, ar.ge(want, ar.zero()))) ctx.fail("numel: integer multiplication overflow");
    ns.assign(target);
    nt.resize(n, ar.zero());
    // FakeTensorMode's refs expand (prims.broadcast_in_dim): a new dim of size 1 gets 1
    if (ctx.host.fake_strides)
      for (size_t i = 0; i < n; ++i)
        if (ctx.known_true(ar.eq(target[i], ar.one()))) nt[i] = ar.one();
    return ctx.new_view(x, ns, nt, ctx.vals.tensor(x).storage_offset);
  }
  ns.resize(n);
  nt.resize(n);
  const ExprId minus_one = ar.integer(-1);
  for (size_t i = n; i-- > 0;) {
    const size_t offset = n - 1 - i;
    const bool exists = offset < rank;
    const size_t d = rank - 1 - offset;
    const ExprId size = exists ? sizes[d] : ar.one();
    ExprId stride = exists ? strides[d] : ar.mul(ns[i + 1], nt[i + 1]);
    ExprId want = target[i];
    if (ctx.guard_or_false(ar.eq(want, minus_one))) {
      if (!exists)
        ctx.fail("The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension {}", i);
      want = size;
    }
    if (want != size && ctx.guard_or_true(ar.ne(size, want))) {
      if (!holds(ctx, ar.eq(size, ar.one())))
        ctx.fail(
            "The expanded size of the tensor ({}) must match the existing size ({}) at non-singleton dimension {}.  "
            "Target sizes: {}.  Tensor sizes: {}",
            ctx.str(want), ctx.str(size), i, ctx.shape_str(target), ctx.shape_str(sizes));
      stride = ar.zero();
    }
    // A new dim left size 1: eager repeats the next dim's extent (its size times stride,
    // 0 when that dim was expanded); FakeTensorMode's refs expand (prims.broadcast_in_dim)
    // takes the input's outermost extent, strides[0] * sizes[0]. The same question decided
    // it (`1 != want`, asked above).
    else if (!exists && ctx.host.fake_strides) stride = ar.mul(strides[0], sizes[0]);
    // equal sizes too: FakeTensorMode's refs expand takes the requested length (a literal 1
    // for a size guarded == 1), the same value as eager's kept size
    ns[i] = want;
    nt[i] = stride;
  }
  return ctx.new_view(x, ns, nt, ctx.vals.tensor(x).storage_offset);
}

}  // namespace symshape
