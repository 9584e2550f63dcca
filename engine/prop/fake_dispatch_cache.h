#pragma once
// The questions FakeTensorMode's dispatch cache asks around each aten op
// (torch/_subclasses/fake_tensor.py, _cached_dispatch_impl): building the cache key runs
// extract_tensor_metadata on every FakeTensor argument in argument order (a SymFloat or
// SymBool argument stops the key there: "symbolic shape" bypass), and a cache miss runs it on
// each output tensor. extract_tensor_metadata's suggest_memory_format asks
// are_strides_like_channels_last_or_false of a 4-d / 5-d tensor (shape_helpers.h
// fake_cache_metadata_questions). With plain symbols every question is decided by the
// ranges; sizes such as `H // CeilToInt(H / 2)` make them guards (timm's mobilevit).
// A repeated layout asks nothing new (PropContext's layout cache), as a cache hit does not.
#include "prop/context.h"
#include "prop/shape_helpers.h"
#include "prop/values.h"

namespace symshape {

// Before the op's rule: the key's metadata of the current node's tensor arguments and kwargs.
void fake_cache_key_questions(PropContext& ctx);
// After the rule (a miss): the metadata of the node's output tensors.
void fake_cache_output_questions(PropContext& ctx, ValId out);
// After those, for a view op: _output_from_cache_entry rebuilds each output tensor with
// `set_` on the input's storage under suppress_guards, and c10's contiguity walk over its
// layout asks `size == 1` (guard_or_false) and `stride != expected` (guard_or_true) innermost
// first. Nothing is recorded, but _maybe_evaluate_static's cache keeps each undecided answer
// until its version moves, so a later guard does not decide the same question then
// (lowformer_b15: a slice's `160*X != 160*Y` is still a guard after `X == Y`).
void fake_cache_view_output_questions(PropContext& ctx, ValId out);
// The same walk over one layout: a view the op's Python decomposition dispatches (the view
// helper's prims.collapse_view and prims.split_dim, whose metas dispatch aten.as_strided) is
// a cache miss of its own, rebuilt with `set_` under suppress_guards.
void fake_cache_view_layout_questions(PropContext& ctx, const OperandLayout& t);

}  // namespace symshape
