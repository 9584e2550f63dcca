#pragma once
// PyTorch's DynamicShapesSpec dictionary form (semantics.md F.5/F.6):
//   {"dynamic_shapes": <tree of dict/list/None/int/"_DimHint.*"/dim names>,
//    "dims": {root: {"min": int, "max": int|null, "derived": [names]}}}
// dump: one text per spec (json.dumps separators, dims sorted by root, derived sorted);
// load: every loader error of F.6 as UserError(INVALID_INPUT) with PyTorch's message.
#include <string>
#include <string_view>

#include "spec/dynamic_shapes.h"

namespace symshape::spec {

struct LoadOptions {
  // PyTorch 2.x's from_dict=True rejects `"max": null` (F.6 quirk, behaviour 179). The corpus
  // (and the dataclass form) use null for an unbounded max, so by default null is accepted.
  bool reject_null_max = false;
};

DynamicShapes load_spec_json(std::string_view json_text, const LoadOptions& opt = {});
std::string dump_spec_json(const DynamicShapes& spec);

}  // namespace symshape::spec
