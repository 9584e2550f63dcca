#pragma once
// The rule files of the index family (semantics.md H.13, H.22): each contributes one
// sub-table; index_rules() in index_ops.cpp concatenates them.
#include <optional>
#include <span>

#include "prop/context.h"
#include "prop/rules.h"

namespace symshape {

std::span<const OpRuleEntry> gather_entries();          // index_select / gather / scatter / embedding / take
std::span<const OpRuleEntry> advanced_index_entries();  // index.Tensor / index_put
std::span<const OpRuleEntry> data_dependent_entries();  // nonzero / masked_select / unique / item / bincount / one_hot
std::span<const OpRuleEntry> embedding_bag_entries();   // embedding_bag / _embedding_bag / _embedding_bag_forward_only

// A fresh unbacked size-like symbol for a data-dependent length in [min, max]; `max` is
// used only when it is a constant (PyTorch bounds nonzero by a static numel).
ExprId unbacked_size(PropContext& ctx, int64_t min, ExprId max);

// A count of `t`'s elements that depends on its contents (unique's length): 0 when `t` is
// statically empty, else a fresh unbacked size in [0, numel].
ExprId element_count(PropContext& ctx, TensorId t);
// The number of true elements of `mask` (nonzero's length): element_count, kept per tensor
// as FakeTensor's nonzero_memo keeps it (the same mask gives the same unbacked count).
ExprId nonzero_count(PropContext& ctx, TensorId mask);

}  // namespace symshape
