#include "prop/shape_helpers.h"

#include "expr/canonical.h"
#include "prop/layout_predicates.h"
#include "prop/memory_format.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace symshape {

void broadcast_shapes(PropContext& ctx, std::span<const ExprId> a, std::span<const ExprId> b, Dims& out) {
  ExprArena& ar = ctx.ar;
  const size_t na = a.size(), nb = b.size();
  const size_t n = std::max(na, nb);
  Dims r;
  r.resize(n);
  for (size_t i = n; i-- > 0;) {
    const size_t off = n - 1 - i;
    const ExprId sa = off < na ? a[na - 1 - off] : ar.one();
    const ExprId sb = off < nb ? b[nb - 1 - off] : ar.one();
    // The 1-tests come first and are guard_or_false: they are usually statically known
    // (an unbacked size is assumed not to broadcast), and only then is the equality
    // required (a guard / replacement for backed sizes, a runtime assert for unbacked).
    if (ctx.guard_or_false(ar.eq(sa, ar.one()))) {
      r[i] = sb;
      continue;
    }
    if (ctx.guard_or_false(ar.eq(sb, ar.one()))) {
      r[i] = sa;
      continue;
    }
    if (sa != sb) {
      const bool both_static = ar.is_integer_const(sa) && ar.is_integer_const(sb);
      // eager (TORCH_CHECK in infer_size) vs. fake/meta (fake_impls.infer_size) wording
      if (!check_ok(ctx, ar.eq(sa, sb))) {
        if (both_static)
          ctx.fail("The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}",
                   ctx.str(sa), ctx.str(sb), i);
        ctx.fail("The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {})",
                 ctx.str(sa), ctx.str(sb), i);
      }
    }
    r[i] = sa;
  }
  out = r;
}

namespace {

// Sizes compared by identity or static knowledge only: the fast-setup tests of
// TensorIterator must not add guards of their own.
bool same_expr(PropContext& ctx, ExprId x, ExprId y) { return x == y || ctx.known_true(ctx.ar.eq(x, y)); }

bool same_shape(PropContext& ctx, std::span<const ExprId> x, std::span<const ExprId> y) {
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i)
    if (!same_expr(ctx, x[i], y[i])) return false;
  return true;
}

// Eager decisions on sizes that the symbolic layout cannot take: a condition over data-dependent
// (unbacked) sizes that nothing decides statically. Eager takes it at run time on the real
// size (an unbacked `(u0, 1)` keepdim reduction plus a scalar is `(1, 1)` for u0 >= 1 but
// `(1, 0)` for u0 == 0: reorder_dimensions' tie-break on equal strides puts the size-0 dim
// first). The layout is computed once per combination of answers and the strides become
// Piecewise over them. The first kMaxForks such conditions fork; later ones take
// guard_or_false's answer, as every decision over backed sizes does (the hints, guards
// suppressed for the eager layout).
class ForkedDecisions {
 public:
  static constexpr size_t kMaxForks = 4;
  explicit ForkedDecisions(PropContext& ctx) : ctx_(ctx) {}
  // A new path: the first prefix.size() forked conditions take these answers, later ones false.
  void begin(std::span<const bool> prefix) {
    forced_.assign(prefix);
    conds_.clear();
    answers_.clear();
  }
  bool operator()(ExprId cond) {
    if (!(ctx_.ar.facts(cond) & kFactHasUnbacked) || conds_.size() == kMaxForks) return decide(ctx_, cond);
    if (std::optional<ExprId> v = ctx_.env.maybe_evaluate_static(cond)) return *v == ctx_.ar.true_();
    const bool answer = conds_.size() < forced_.size() && forced_[conds_.size()];
    conds_.push_back(cond);
    answers_.push_back(answer);
    return answer;
  }
  std::span<const ExprId> conds() const { return conds_; }
  std::span<const bool> answers() const { return answers_; }
  // The path's condition: every forked condition with its answer.
  ExprId path_condition() const {
    ExprArena& ar = ctx_.ar;
    ExprId c = ar.true_();
    for (size_t k = 0; k < conds_.size(); ++k) c = ar.logical_and(c, answers_[k] ? conds_[k] : ar.logical_not(conds_[k]));
    return c;
  }

 private:
  PropContext& ctx_;
  FixedVector<bool, kMaxForks> forced_;
  FixedVector<ExprId, kMaxForks> conds_;
  FixedVector<bool, kMaxForks> answers_;
};

// TensorIterator's per-operand strides after broadcasting to the output rank: leading
// missing dims and size-1 dims expanded to a larger size are 0 (compute_strides).
template <class Decide>
void broadcast_operand_strides(PropContext& ctx, TensorId t, std::span<const ExprId> shape, Decide& decide, Dims& out) {
  ExprArena& ar = ctx.ar;
  const auto sizes = ctx.vals.sizes(t);
  const auto strides = ctx.vals.strides(t);
  const size_t n = shape.size(), off = n - sizes.size();
  out.clear();
  out.resize(n, ar.zero());
  for (size_t i = 0; i < sizes.size(); ++i) {
    // the output's own size is never expanded (both are 1 or neither), whatever it is
    const bool expanded = sizes[i] != shape[off + i] && decide(ar.eq(sizes[i], ar.one())) &&
                          !decide(ar.eq(shape[off + i], ar.one()));
    out[off + i] = expanded ? ar.zero() : strides[i];
  }
}

// The general setup of TensorIterator (no fast path): reorder_dimensions' insertion sort
// over the operand strides, then the output allocated in that order.
template <class Decide>
void general_strides(PropContext& ctx, std::span<const TensorId> inputs, std::span<const ExprId> shape,
                     Decide& decide, Dims& out_strides) {
  ExprArena& ar = ctx.ar;
  const size_t n = shape.size();
  FixedVector<Dims, 8> op_strides;  // TensorIterator operands beyond 8 are not seen in practice
  for (TensorId t : inputs) {
    if (op_strides.size() == 8) break;
    Dims s;
    broadcast_operand_strides(ctx, t, shape, decide, s);
    op_strides.push_back(s);
  }
  // 1: dim0 should come after dim1; -1: before; 0: ambiguous (should_swap)
  auto should_swap = [&](size_t d0, size_t d1) -> int {
    for (const Dims& s : op_strides) {
      const ExprId a = s[d0], b = s[d1];
      // a broadcast dim says nothing about the order
      if (decide(ar.eq(a, ar.zero())) || decide(ar.eq(b, ar.zero()))) continue;
      if (decide(ar.lt(a, b))) return -1;
      if (decide(ar.gt(a, b))) return 1;
      // equal strides: the smaller dim goes first
      if (decide(ar.gt(shape[d0], shape[d1]))) return 1;
    }
    return 0;
  };
  // perm[0] is the fastest-moving dim
  FixedVector<size_t, kMaxRank> perm;
  stride_order_permutation(n, should_swap, perm);
  bool inverted = true;
  for (size_t j = 0; j < n; ++j) inverted = inverted && perm[j] == n - 1 - j;
  if (inverted) return ctx.contiguous_strides(shape, out_strides);
  // compatible_stride: raw running product (no max with 1) in permuted order. FakeTensor's
  // refs (compute_elementwise_output_strides) take make_contiguous_strides_for of the
  // permuted shape, max(size, 1) per factor: the same values when no size can be 0, and then
  // that form, so the questions later ops ask of these strides fold as PyTorch's do.
  const bool nonzero = ctx.known_nonzero(shape);
  out_strides.clear();
  out_strides.resize(n);
  ExprId running = ar.one();
  for (size_t k = 0; k < n; ++k) {
    out_strides[perm[k]] = running;
    const ExprId s = shape[perm[k]];
    running = ar.mul(running, nonzero && !ar.is_integer_const(s) ? ar.max(ar.one(), s) : s);
  }
}

bool mentions_unbacked(PropContext& ctx, TensorId t) {
  for (ExprId e : ctx.vals.sizes(t))
    if (ctx.ar.facts(e) & kFactHasUnbacked) return true;
  for (ExprId e : ctx.vals.strides(t))
    if (ctx.ar.facts(e) & kFactHasUnbacked) return true;
  return false;
}

// TensorIterator's output allocation: the fast setups (all contiguous / all channels_last /
// all the same non-overlapping dense strides) when every operand has the output's shape,
// otherwise the general setup. A tensor without data-dependent sizes asks PropContext's
// cached layout predicates (their questions never fork); one with them asks `decide`.
template <class Decide>
void eager_strides(PropContext& ctx, std::span<const TensorId> inputs, std::span<const ExprId> shape,
                   bool has_cpu_scalar, Decide& decide, Dims& out_strides) {
  const size_t n = shape.size();
  // ---- fast setup: every operand has the output's shape (a 0-dim operand, including a
  // wrapped Python scalar, breaks this) ----
  bool all_same_shape = !has_cpu_scalar && !inputs.empty();
  for (TensorId t : inputs)
    if (!same_shape(ctx, ctx.vals.sizes(t), shape)) all_same_shape = false;
  if (all_same_shape) {
    // Eager computes all three flags; asking them one layout at a time gives the same
    // answer and records no guard for a layout that is never needed.
    auto all = [&](auto&& cached, auto&& by) {
      for (TensorId t : inputs)
        if (!(mentions_unbacked(ctx, t) ? by(ctx, ctx.vals.sizes(t), ctx.vals.strides(t), decide) : cached(ctx, t)))
          return false;
      return true;
    };
    auto contiguous = [](PropContext& c, auto sizes, auto strides, Decide& d) { return layout::contiguous(c, sizes, strides, d); };
    auto channels_last = [](PropContext& c, auto sizes, auto strides, Decide& d) {
      return layout::channels_last_contiguous(c, sizes, strides, d);
    };
    auto dense = [](PropContext& c, auto sizes, auto strides, Decide& d) {
      return layout::non_overlapping_and_dense(c, sizes, strides, d);
    };
    if (all(layout_is_contiguous, contiguous)) return ctx.contiguous_strides(shape, out_strides);
    // eager's fast path only knows 4-d channels_last
    if (n == 4 && all(layout_is_channels_last, channels_last)) return ctx.channels_last_strides(shape, out_strides);
    if (all(layout_is_dense, dense)) {
      bool same_strides = true;
      for (TensorId t : inputs) {
        const auto s0 = ctx.vals.strides(inputs[0]), s = ctx.vals.strides(t);
        for (size_t i = 0; i < n; ++i)
          if (!same_expr(ctx, s0[i], s[i])) same_strides = false;
      }
      if (same_strides) {
        out_strides.assign(ctx.vals.strides(inputs.back()));
        return;
      }
    }
  }
  if (n == 1 || inputs.empty()) return ctx.contiguous_strides(shape, out_strides);
  general_strides(ctx, inputs, shape, decide, out_strides);
}

// The general setup's strides when data-dependent decisions were forked (`fork` holds the
// all-false path, whose strides are `out`): every path's strides, then Piecewise per dim over
// the paths (exclusive and exhaustive; the all-false path is the default).
void forked_strides(PropContext& ctx, std::span<const TensorId> inputs, std::span<const ExprId> shape,
                    bool has_cpu_scalar, ForkedDecisions& fork, Dims& out) {
  ExprArena& ar = ctx.ar;
  using Answers = FixedVector<bool, ForkedDecisions::kMaxForks>;
  struct Leaf {
    Dims strides;
    ExprId cond;
  };
  std::vector<Leaf> leaves;
  std::vector<Answers> todo;
  auto explore = [&](size_t first_new, Dims& strides) {
    // every condition first met on this path (answered false) also has its true branch
    for (size_t k = first_new; k < fork.conds().size(); ++k) {
      Answers alt;
      for (size_t j = 0; j < k; ++j) alt.push_back(fork.answers()[j]);
      alt.push_back(true);
      todo.push_back(alt);
    }
    leaves.push_back({strides, fork.path_condition()});
  };
  explore(0, out);
  while (!todo.empty()) {
    const Answers prefix = todo.back();
    todo.pop_back();
    fork.begin(prefix);
    Dims strides;
    eager_strides(ctx, inputs, shape, has_cpu_scalar, fork, strides);
    explore(prefix.size(), strides);
  }
  const size_t n = shape.size();
  std::vector<ExprId> pairs;
  for (size_t d = 0; d < n; ++d) {
    bool same = true;
    for (const Leaf& l : leaves) same = same && l.strides[d] == leaves[0].strides[d];
    if (same) {
      out[d] = leaves[0].strides[d];
      continue;
    }
    pairs.clear();
    for (size_t i = 1; i < leaves.size(); ++i) {
      pairs.push_back(leaves[i].strides[d]);
      pairs.push_back(leaves[i].cond);
    }
    pairs.push_back(leaves[0].strides[d]);
    pairs.push_back(ar.true_());
    out[d] = ar.piecewise(pairs);
  }
}

}  // namespace

void elementwise_strides(PropContext& ctx, std::span<const TensorId> inputs, std::span<const ExprId> shape,
                         Dims& out_strides, bool has_cpu_scalar) {
  out_strides.clear();
  if (shape.empty()) return;
  // once, and again per answer to each data-dependent decision it met
  ForkedDecisions fork(ctx);
  fork.begin({});
  eager_strides(ctx, inputs, shape, has_cpu_scalar, fork, out_strides);
  if (fork.conds().empty()) return;  // nothing data-dependent decided the layout
  forked_strides(ctx, inputs, shape, has_cpu_scalar, fork, out_strides);
}

void dense_strides_in_order(PropContext& ctx, std::span<const ExprId> shape, std::span<const size_t> perm, Dims& out) {
  out.resize(shape.size());
  ExprId running = ctx.ar.one();
  for (size_t d : perm) {
    out[d] = running;
    running = ctx.ar.mul(running, ctx.stride_factor(shape[d]));
  }
}

void check_size_nonnegative(PropContext& ctx, std::span<const ExprId> sizes) {
  for (ExprId s : sizes)
    if (!ctx.require(ctx.ar.ge(s, ctx.ar.zero())))
      ctx.fail("Trying to create tensor with negative dimension {}: {}", ctx.str(s), ctx.shape_str(sizes));
}

bool has_symbolic_layout(PropContext& ctx, TensorId t) {
  for (ExprId e : ctx.vals.sizes(t))
    if (!ctx.ar.is_constant(e)) return true;
  for (ExprId e : ctx.vals.strides(t))
    if (!ctx.ar.is_constant(e)) return true;
  return false;
}

bool same_values_at_example(PropContext& ctx, std::span<const ExprId> a, std::span<const ExprId> b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i]) continue;
    if ((ctx.ar.facts(a[i]) | ctx.ar.facts(b[i])) & kFactHasUnbacked) return false;
    if (ctx.hint(a[i]) != ctx.hint(b[i])) return false;
  }
  return true;
}

void empty_strided_questions(PropContext& ctx, std::span<const ExprId> sizes) {
  for (ExprId s : sizes)
    if (ctx.env.guard_size_oblivious(ctx.ar.eq(s, ctx.ar.zero()))) return;
}

void prims_dense_form(PropContext& ctx, std::span<const ExprId> shape, Dims& strides) {
  ExprArena& ar = ctx.ar;
  const size_t n = shape.size();
  if (n < 2 || strides.size() != n) return;
  // the order by identity of the strides (hash-consed: no hint, no question): innermost the
  // dim whose stride is 1, then the one whose stride is the product so far; equal strides
  // (size-1 dims) take the later dim first, as make_contiguous_strides_for does
  FixedVector<size_t, kMaxRank> perm;
  uint32_t used = 0;
  ExprId raw = ar.one();
  bool changes = false;
  for (size_t k = 0; k < n; ++k) {
    size_t found = n;
    for (size_t d = n; d-- > 0;)
      if (!(used & (1u << d)) && strides[d] == raw) {
        found = d;
        break;
      }
    if (found == n) return;
    perm.push_back(found);
    used |= 1u << found;
    const ExprId s = shape[found];
    changes = changes || (k + 1 < n && ctx.stride_factor(s) != s);
    raw = ar.mul(raw, s);
  }
  if (!changes) return;
  for (size_t d = 0; d < n; ++d)
    if ((ar.facts(shape[d]) | ar.facts(strides[d])) & kFactHasUnbacked) return;
  // where a size is 0 the two forms differ: eager's strides keep the raw products unless
  // FakeTensorMode's are asked for (ReferenceHost::fake_strides)
  if (!ctx.host.fake_strides)
    for (ExprId s : shape)
      if (ctx.hint(s) == 0) return;
  ExprId running = ar.one();
  for (size_t d : perm) {
    strides[d] = running;
    running = ar.mul(running, ctx.stride_factor(shape[d]));
  }
}

uint32_t dim_mask(PropContext& ctx, std::span<const int64_t> dims, int64_t rank) {
  uint32_t mask = 0;
  for (int64_t d : dims) {
    const int64_t w = ctx.wrap_dim(d, rank);
    if (mask & (1u << w)) ctx.fail("dim {} appears multiple times in the list of dims", w);
    mask |= 1u << w;
  }
  return mask;
}

bool check_ok(PropContext& ctx, ExprId cond) { return ctx.require(cond); }

ExprId numel(PropContext& ctx, std::span<const ExprId> sizes) {
  ExprId r = ctx.ar.one();
  for (ExprId s : sizes) r = ctx.ar.mul(r, s);
  return r;
}

ExprId python_relation(ExprArena& ar, ExprKind k, ExprId a, ExprId b) {
  if (ar.kind(a) == ExprKind::Integer && ar.kind(b) != ExprKind::Integer) return ar.relation(mirror(k), b, a);
  return ar.relation(k, a, b);
}

namespace {

// check_contiguous_sizes_strides(false_if_dde=True) over the dims in `order` (innermost first).
template <class Order>
bool prims_check_contiguous_sizes_strides(PropContext& ctx, const OperandLayout& t, Order&& order) {
  ExprArena& ar = ctx.ar;
  ExprId expected = ar.one(), expected_max = ar.one();
  for (size_t k = 0; k < t.sizes.size(); ++k) {
    const size_t i = order(k);
    const ExprId x = t.sizes[i], y = t.strides[i];
    if (ctx.guard_or_false(ar.eq(x, ar.one()))) continue;
    if (ctx.guard_or_true(ar.ne(y, expected)) && ctx.guard_or_true(ar.ne(y, expected_max))) return false;
    expected_max = ar.mul(expected_max, ar.max(x, ar.one()));
    expected = ar.mul(expected, x);
  }
  return true;
}

// K.__lt__ of torch/_prims_common (a (size, stride) pair ordered by stride):
// `stride < other` or, when that is not known, "divides it and differs".
bool prims_stride_lt(PropContext& ctx, ExprId a, ExprId b) {
  ExprArena& ar = ctx.ar;
  if (ctx.guard_or_false(python_lt(ar, a, b))) return true;
  const bool divides = ctx.guard_or_false(ar.eq(a, ar.zero())) || ctx.guard_or_false(ar.eq(ar.mod(b, a), ar.zero()));
  return divides && ctx.guard_or_true(ar.ne(a, b));
}

// The comparisons CPython 3.11's list.sort makes on a list shorter than 64 (minrun = n):
// count_run (a strictly descending run is reversed), then binarysort of the rest, each
// `pivot < a[p]` one call of `lt`. `perm` is sorted in place.
template <class Lt>
void python_sort(std::span<size_t> perm, Lt&& lt) {
  const size_t n = perm.size();
  if (n < 2) return;
  size_t run = 2;
  if (lt(perm[1], perm[0])) {
    while (run < n && lt(perm[run], perm[run - 1])) ++run;
    std::reverse(perm.begin(), perm.begin() + static_cast<std::ptrdiff_t>(run));
  } else {
    while (run < n && !lt(perm[run], perm[run - 1])) ++run;
  }
  for (size_t start = run; start < n; ++start) {
    const size_t pivot = perm[start];
    size_t l = 0, r = start;
    while (l < r) {
      const size_t p = l + ((r - l) >> 1);
      if (lt(pivot, perm[p]))
        r = p;
      else
        l = p + 1;
    }
    for (size_t j = start; j > l; --j) perm[j] = perm[j - 1];
    perm[l] = pivot;
  }
}

}  // namespace

// Each predicate is a function of the hash-consed (sizes, strides): asked again of the same
// layout, every question it asks is decided the same way and records nothing new, so the
// answer is kept (PropContext::cached_layout).
bool prims_is_contiguous_or_false(PropContext& ctx, const OperandLayout& t) {
  return ctx.cached_layout(t.sizes, t.strides, PropContext::kPrimsContiguous, [&] {
    ExprArena& ar = ctx.ar;
    if (ctx.guard_or_false(ar.lt(numel(ctx, t.sizes), ar.integer(2)))) return true;
    const size_t n = t.sizes.size();
    return prims_check_contiguous_sizes_strides(ctx, t, [n](size_t k) { return n - 1 - k; });
  });
}

bool prims_is_non_overlapping_and_dense_or_false(PropContext& ctx, const OperandLayout& t) {
  return ctx.cached_layout(t.sizes, t.strides, PropContext::kPrimsDense, [&] {
    ExprArena& ar = ctx.ar;
    if (ctx.guard_or_false(ar.lt(numel(ctx, t.sizes), ar.integer(2)))) return true;
    const size_t n = t.sizes.size();
    if (n == 1) return ctx.guard_or_false(ar.eq(t.strides[0], ar.one()));
    FixedVector<size_t, kMaxRank> perm;
    for (size_t i = 0; i < n; ++i) perm.push_back(i);
    python_sort(std::span<size_t>(perm.begin(), perm.size()),
                [&](size_t a, size_t b) { return prims_stride_lt(ctx, t.strides[a], t.strides[b]); });
    // sorted by increasing stride, reversed, then walked from the end: increasing stride again
    return prims_check_contiguous_sizes_strides(ctx, t, [&](size_t k) { return perm[k]; });
  });
}

bool prims_is_channels_last_contiguous_2d_or_false(PropContext& ctx, const OperandLayout& t) {
  if (t.sizes.size() != 4) return false;
  return ctx.cached_layout(t.sizes, t.strides, PropContext::kPrimsChannelsLast2d, [&] {
    ExprArena& ar = ctx.ar;
    ExprId expected = ar.one();
    for (size_t idx : {size_t{1}, size_t{3}, size_t{2}, size_t{0}}) {
      const ExprId length = t.sizes[idx];
      if (ctx.guard_or_false(ar.eq(length, ar.one()))) continue;
      if (ctx.guard_or_true(ar.ne(t.strides[idx], expected))) return false;
      expected = ar.mul(expected, length);
    }
    return true;
  });
}

bool fake_binary_fast_path_guards(PropContext& ctx, std::span<const OperandLayout> ops, Dims* out_shape,
                                  MemoryFormat* format) {
  ExprArena& ar = ctx.ar;
  if (ops.empty()) return false;
  // compute_shape: final_shape = infer_size(final_shape, op.shape), starting from the first
  // operand's shape (so the first infer_size is of that shape with itself)
  Dims final_shape(ops[0].sizes);
  for (const OperandLayout& op : ops) broadcast_shapes(ctx, final_shape, op.sizes, final_shape);
  if (out_shape) *out_shape = final_shape;
  // some operand must have the output shape (guard_or_false(sym_eq(op.shape, final_shape)))
  bool some_has_output_shape = false;
  for (const OperandLayout& op : ops) {
    if (op.scalar || op.sizes.size() != final_shape.size()) continue;
    bool same = true;
    for (size_t i = 0; same && i < final_shape.size(); ++i)
      same = op.sizes[i] == final_shape[i] || ctx.guard_or_false(ar.eq(op.sizes[i], final_shape[i]));
    if (same) {
      some_has_output_shape = true;
      break;
    }
  }
  if (!some_has_output_shape) return false;
  // compute_fast_setup_type
  bool definitely_contiguous = true, definitely_channels_last = true;
  for (const OperandLayout& op : ops) {
    if (op.scalar) continue;
    definitely_contiguous = definitely_contiguous && prims_is_contiguous_or_false(ctx, op);
    definitely_channels_last = definitely_channels_last && prims_is_channels_last_contiguous_2d_or_false(ctx, op);
  }
  if (format) *format = definitely_contiguous ? MemoryFormat::Contiguous : MemoryFormat::ChannelsLast;
  return definitely_contiguous || definitely_channels_last;
}

bool prims_strides_like_channels_last_or_false(PropContext& ctx, const OperandLayout& t) {
  ExprArena& ar = ctx.ar;
  const size_t n = t.sizes.size();
  if (n != 4 && n != 5) return false;
  if (ctx.guard_or_true(ar.eq(t.strides[1], ar.zero()))) return false;
  FixedVector<size_t, 5> order;
  order.push_back(1);
  for (size_t d = n - 1; d >= 2; --d) order.push_back(d);
  order.push_back(0);
  ExprId min = ar.zero();
  for (size_t d : order) {
    if (ctx.guard_or_true(ar.eq(t.sizes[d], ar.zero()))) return false;
    if (ctx.guard_or_true(python_lt(ar, t.strides[d], min))) return false;
    // `d == 0 and min == strides[1]`: a plain bool() of the SymBool, so a guard
    if (d == 0 && ctx.guard(ar.eq(min, t.strides[1]))) return false;
    min = ar.mul(t.strides[d], t.sizes[d]);
  }
  return true;
}

void fake_cache_metadata_questions(PropContext& ctx, const OperandLayout& t) {
  const size_t n = t.sizes.size();
  if (n != 4 && n != 5) return;
  ctx.cached_layout(t.sizes, t.strides, PropContext::kPrimsStridesLikeChannelsLast,
                    [&] { return prims_strides_like_channels_last_or_false(ctx, t); });
}

MemoryFormat prims_suggest_memory_format(PropContext& ctx, const OperandLayout& t) {
  if (!prims_strides_like_channels_last_or_false(ctx, t)) return MemoryFormat::Contiguous;
  return t.sizes.size() == 4 ? MemoryFormat::ChannelsLast : MemoryFormat::ChannelsLast3d;
}

}  // namespace symshape
