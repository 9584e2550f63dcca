#pragma once
// Shared shape algorithms used by several op families: broadcasting (H.1), the
// TensorIterator output layout of elementwise ops (H.2), and dim-list wrapping.
#include <span>
#include <utility>

#include "prop/context.h"

namespace symshape {

// Broadcasts `a` with `b` into `out` (right-aligned). Size-1 tests use guard_or_false
// semantics for unbacked sizes; a mismatch throws PyTorch's message.
void broadcast_shapes(PropContext& ctx, std::span<const ExprId> a, std::span<const ExprId> b, Dims& out);

// Output strides of an elementwise op with output shape `shape` over the tensor
// operands `inputs` (scalars excluded), as eager PyTorch's TensorIterator allocates them:
// the fast paths (all contiguous / all channels_last / all the same non-overlapping
// dense strides) and otherwise the stride-order permutation of the inputs.
// `has_cpu_scalar`: a Python scalar operand was wrapped as a 0-dim tensor; like any
// 0-dim operand it disables the fast paths but never decides the order.
void elementwise_strides(PropContext& ctx, std::span<const TensorId> inputs, std::span<const ExprId> shape,
                         Dims& out_strides, bool has_cpu_scalar = false);
// Every pair evaluates alike at the example (the hints): where PyTorch 2.x's form of a
// layout and eager's differ only by Max(1, size) factors, the 2.x form is reported when it
// also gives eager's values.
bool same_values_at_example(PropContext& ctx, std::span<const ExprId> a, std::span<const ExprId> b);
// The questions of an empty_strided of `sizes` (a prims meta's TensorMeta, a reduction's
// result): c10's computeStorageNbytes asks TORCH_GUARD_SIZE_OBLIVIOUS(size == 0) per dim,
// in order, and stops at the first that holds.
void empty_strided_questions(PropContext& ctx, std::span<const ExprId> sizes);
// The form PyTorch 2.x gives the strides of a dense result that torch._refs lays out
// (compute_elementwise_output_strides, empty_like's empty_permuted): the contiguous strides
// of the shape permuted to the layout's order, Max(1, size) per factor, where eager's
// TensorIterator / empty_like (and so `strides`) has the raw products (channels_last
// `C*W`, refs `C*Max(1, W)`). Only where `strides` are exactly those raw products in some
// order, and, for eager's strides, no size is 0 at the example (the same values then);
// anything else is left as it is.
void prims_dense_form(PropContext& ctx, std::span<const ExprId> shape, Dims& strides);

// Wraps each dim of `dims` against rank; duplicates throw "dim {d} appears multiple times
// in the list of dims". Result as a bitmask over dims.
uint32_t dim_mask(PropContext& ctx, std::span<const int64_t> dims, int64_t rank);

// torch._check(cond) without formatting a message: callers format only on failure, so a
// passing check allocates nothing (`if (!check_ok(ctx, c)) ctx.fail(...)`).
bool check_ok(PropContext& ctx, ExprId cond);

// TensorIterator's reorder_dimensions: an insertion sort of the dims, fastest-moving
// first, starting from row-major order (n-1, ..., 0). `should_swap(d0, d1)` returns 1
// when d0 must come after d1, -1 when before, 0 when undecided (the sort stops there).
template <class ShouldSwap>
void stride_order_permutation(size_t n, ShouldSwap&& should_swap, FixedVector<size_t, kMaxRank>& perm) {
  perm.clear();
  for (size_t i = 0; i < n; ++i) perm.push_back(n - 1 - i);
  for (size_t i = 1; i < n; ++i) {
    size_t d1 = i;
    for (size_t d0 = i; d0-- > 0;) {
      const int c = should_swap(perm[d0], perm[d1]);
      if (c > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
}

// Dense strides laying `shape` out in the order `perm` (fastest-moving dim first), each size
// contributing PropContext::stride_factor (make_contiguous_strides_for of the permuted
// shape, permuted back; at::infer_dense_strides).
void dense_strides_in_order(PropContext& ctx, std::span<const ExprId> shape, std::span<const size_t> perm, Dims& out);

// FakeTensor's `_has_symbolic_sizes_strides`: some size or stride of `t` is not a number.
// FakeTensorMode tries its fast op impls only for such arguments.
bool has_symbolic_layout(PropContext& ctx, TensorId t);

// c10's check_size_nonnegative, as every empty / new_empty over symbolic sizes runs it: a
// torch._check(size >= 0) per size, in order, failing with PyTorch's message.
void check_size_nonnegative(PropContext& ctx, std::span<const ExprId> sizes);

// Product of sizes (numel).
ExprId numel(PropContext& ctx, std::span<const ExprId> sizes);

// ---- PyTorch 2.x fake-tensor layout questions (docs/torchref.md, "Propagation and guards:
// PyTorch 2.x rules"). They only record the guards PyTorch 2.x records; the layouts
// symshape computes stay those of eager CPU 1.13 (the corpus goldens).

// Python's `a op b` in PyTorch's Python code. A constant size or stride is a plain int there
// (FakeTensor's `.shape` / `.stride()` give ints for static values), and `int < SymInt` is
// int.__lt__ returning NotImplemented, so Python asks the reflected SymInt.__gt__: PyTorch
// records `b > a` (likewise `int == SymInt` records `b == a`: the view helper's `length ==
// a_.shape[idx]` with a literal length). The class is more than printing: get_implications
// derives `a != b` and `a <= b - 1` from a `<` guard only, so after `b > a` a later `a != b`
// is still a question (mobilevit's view helper strides, docs/torchref.md "Python's reflected
// comparisons"). C++ (c10 SymInt::sym_lt) keeps the order: use ExprArena's builders there.
ExprId python_relation(ExprArena& ar, ExprKind k, ExprId a, ExprId b);
inline ExprId python_lt(ExprArena& ar, ExprId a, ExprId b) { return python_relation(ar, ExprKind::Lt, a, b); }
// `int >= SymInt` asks the reflected SymInt.__le__, `b <= a`, a guard of class `>` when false
// (the refs layout sort's `ge(1, S)` of a chunked query)
inline ExprId python_ge(ExprArena& ar, ExprId a, ExprId b) { return python_relation(ar, ExprKind::Ge, a, b); }
inline ExprId python_eq(ExprArena& ar, ExprId a, ExprId b) { return python_relation(ar, ExprKind::Eq, a, b); }
inline ExprId python_ne(ExprArena& ar, ExprId a, ExprId b) { return python_relation(ar, ExprKind::Ne, a, b); }

// A tensor operand as the Python predicates of torch._prims_common see it.
struct OperandLayout {
  std::span<const ExprId> sizes;
  std::span<const ExprId> strides;
  bool scalar = false;  // a Python number among fake_impls' operands: the shape (), no layout
};

// torch/_prims_common/__init__.py is_contiguous(a, false_if_dde=True): `numel < 2`, then
// check_contiguous_sizes_strides (innermost dim first: `size == 1` skips the dim, else the
// stride must be the running product, with or without Max(size, 1)).
bool prims_is_contiguous_or_false(PropContext& ctx, const OperandLayout& t);
// torch/_prims_common/__init__.py is_non_overlapping_and_dense_or_false: `numel < 2`; a 1-d
// tensor asks `stride == 1`; otherwise the dims sorted by K.__lt__ (`stride < other`, else
// "divides and differs") in the comparisons CPython 3.11's sort makes, then
// check_contiguous_sizes_strides in that order. Asked by the metas PyTorch 2.x runs under the
// Python dispatcher (export, Dynamo): prims.convert_element_type (the _to_copy decomposition)
// and prims.clone's compute_elementwise_output_strides of one tensor.
bool prims_is_non_overlapping_and_dense_or_false(PropContext& ctx, const OperandLayout& t);
// torch/_prims_common/__init__.py are_strides_like_channels_last_or_false (dims in the order
// C, W, H, (D,) N; each `size == 0` / `stride < min` a guard_or_true, the last `min == stride[1]`
// a plain guard) and the suggest_memory_format built on it, which the Python decompositions
// call where C++ calls Tensor::suggest_memory_format.
bool prims_strides_like_channels_last_or_false(PropContext& ctx, const OperandLayout& t);
MemoryFormat prims_suggest_memory_format(PropContext& ctx, const OperandLayout& t);
// FakeTensorMode's dispatch cache (torch/_subclasses/fake_tensor.py): the cache key runs
// extract_tensor_metadata on every FakeTensor argument of a dispatch, and a cache miss runs it
// on the output; its suggest_memory_format asks are_strides_like_channels_last_or_false of a
// 4-d / 5-d tensor (the is_contiguous that follows is skipped for symbolic sizes, and static
// sizes ask nothing). Asked of the intermediates of the Python decompositions too (the view
// helper's split_dim / collapse_view).
void fake_cache_metadata_questions(PropContext& ctx, const OperandLayout& t);
// torch/_prims_common/__init__.py is_channels_last_contiguous_2d(a, false_if_dde=True): rank 4
// only, dims in the order (1, 3, 2, 0), `size == 1` skips the dim, else `stride != expected`.
bool prims_is_channels_last_contiguous_2d_or_false(PropContext& ctx, const OperandLayout& t);

// The questions of PyTorch 2.x's fake-tensor fast path for binary pointwise ops
// (torch/_subclasses/fake_impls.py make_fast_binary_impl), in its order: the broadcast shape
// (fake_impls.infer_size over the operands, the first one with itself), the "some operand has
// the output shape" test, then per operand is_contiguous and is_channels_last_contiguous_2d
// (each only while every earlier operand passed it). Returns false when PyTorch would take
// the slow path instead (no operand of the output shape, or neither layout matched).
// `out_shape`, when given, receives the broadcast shape: a size guarded equal to 1 takes
// the other operand's size there (a literal 1 against a broadcast stat). `format`, when
// given, receives the layout the fast path allocates (torch.empty in the contiguous or the
// channels_last format).
bool fake_binary_fast_path_guards(PropContext& ctx, std::span<const OperandLayout> ops, Dims* out_shape = nullptr,
                                  MemoryFormat* format = nullptr);

}  // namespace symshape
