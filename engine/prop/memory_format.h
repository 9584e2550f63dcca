#pragma once
// Layout of freshly allocated tensors that copy another tensor's layout, as eager
// PyTorch (1.13) computes it: empty_like / clone / _to_copy with preserve_format,
// suggest_memory_format, and infer_dense_strides (TensorIterator's permutation rule for
// one operand). Shared by the elementwise, copy, normalisation and conv families.
#include <optional>

#include "prop/context.h"

namespace symshape {

// Layout decisions: a hint-backed guard for backed sizes, "false" (no guard, no error)
// when the answer depends on unbacked sizes, so stride propagation never raises a
// data-dependent error (an undecided order falls back to row-major, as in PyTorch).
inline bool decide(PropContext& ctx, ExprId cond) { return ctx.guard_or_false(cond); }
// c10's layout predicates (is_contiguous, is_contiguous(channels_last[_3d]),
// is_non_overlapping_and_dense) in terms of decide().
bool layout_is_contiguous(PropContext& ctx, TensorId t);
bool layout_is_channels_last(PropContext& ctx, TensorId t);  // 4-d channels_last or 5-d channels_last_3d
bool layout_is_dense(PropContext& ctx, TensorId t);
// C++ is_contiguous(memory_format): what `contiguous(memory_format)` asks before it returns
// the tensor itself.
bool is_contiguous_as(PropContext& ctx, TensorId t, MemoryFormat fmt);

// c10's is_channels_last_strides_2d / _3d (the TensorImpl "strides like" flags).
bool strides_like_channels_last(PropContext& ctx, TensorId t);
bool strides_like_channels_last_3d(PropContext& ctx, TensorId t);

// TensorBase::suggest_memory_format(): ChannelsLast(3d) when the strides look like it,
// Contiguous otherwise.
MemoryFormat suggest_memory_format(PropContext& ctx, TensorId t);
// The same, asked as PyTorch 2.x's C++ asks it of a tensor with symbolic sizes (the SymInt
// instantiation of c10's is_channels_last_strides_2d_s4 / _3d_s5: `size > 1` is a guard).
// For the 2.x C++ callers under FakeTensorMode: at::adaptive_avg_pool2d's all-ones path and
// the fake conv's _conv_determine_backend_memory_format. Same answer at concrete sizes.
MemoryFormat suggest_memory_format_cxx(PropContext& ctx, TensorId t);

// at::infer_dense_strides: dense strides keeping `t`'s stride order.
void infer_dense_strides(PropContext& ctx, TensorId t, Dims& out);

// Strides of a tensor with `sizes` laid out in `format` (Contiguous / ChannelsLast /
// ChannelsLast3d; a channels_last format of the wrong rank is an error as in eager).
void format_strides(PropContext& ctx, std::span<const ExprId> sizes, MemoryFormat format, Dims& out);

// Strides of at::empty_like(t, memory_format): Preserve keeps dense strides, infers dense
// strides in t's order for other strided tensors; other formats as format_strides.
void empty_like_strides(PropContext& ctx, TensorId t, MemoryFormat format, Dims& out);
// torch._refs.empty_like(t) with preserve_format, as the meta functions PyTorch 2.x runs
// under FakeTensorMode call it (sdpa's `empty_like(query)`): the guards are those of
// compute_elementwise_output_logical_to_physical_perm over `t` alone (no
// is_non_overlapping_and_dense question), the strides empty_permuted's (refs' form) when
// FakeTensorMode's strides are asked for, else eager's (C++ empty_like in refs' dense form).
void refs_empty_like_strides(PropContext& ctx, TensorId t, Dims& out);
// prims.clone's meta under FakeTensorMode (`x.clone()` in a decomposition: dropout when not
// training, constant_pad_nd with no positive pad): compute_elementwise_output_strides of t
// alone. A 1-d tensor is dense with stride 1; rank >= 2 asks
// is_non_overlapping_and_dense_or_false (then keeps t's strides), else lays out as refs'
// empty_like.
void prims_clone_strides(PropContext& ctx, TensorId t, Dims& out);

// Reads an optional memory_format argument (None -> `dflt`).
MemoryFormat memory_format_arg(PropContext& ctx, ArgId a, MemoryFormat dflt);

}  // namespace symshape
