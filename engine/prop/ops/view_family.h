#pragma once
// The rule files of the view family (semantics.md H.6-H.12): each contributes one
// sub-table; view_rules() in view_ops.cpp concatenates them.
#include <span>

#include "prop/rules.h"

namespace symshape {

std::span<const OpRuleEntry> reshape_entries();  // view / reshape / flatten / unflatten / as_strided / unfold / diagonal
std::span<const OpRuleEntry> dim_entries();      // permute / transpose / movedim / squeeze / unsqueeze / expand
std::span<const OpRuleEntry> slice_entries();    // slice / select / narrow / split / chunk / unbind / tensor_split
std::span<const OpRuleEntry> concat_entries();   // cat / stack / hstack / vstack / dstack / column_stack
std::span<const OpRuleEntry> reorder_entries();  // repeat / tile / flip / roll / rot90 / channel_shuffle
std::span<const OpRuleEntry> diag_entries();     // diag / diag_embed
std::span<const OpRuleEntry> view_scatter_entries();  // slice_scatter / select_scatter / diagonal_scatter / as_strided_scatter
std::span<const OpRuleEntry> copy_variant_entries();  // view_copy / permute_copy / ... / narrow_copy
std::span<const OpRuleEntry> narrow_tensor_entries();  // narrow.Tensor (start read from a 0-dim tensor)
std::span<const OpRuleEntry> inplace_view_entries();   // unsqueeze_ / squeeze_ / transpose_ / t_ / as_strided_

}  // namespace symshape
