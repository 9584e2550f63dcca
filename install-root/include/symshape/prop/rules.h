#pragma once
// The op-rule table: one small function per op family, indexed by interned OpId, so
// propagation dispatches with one array load per node (no string compare, no virtual).
// Each family file registers its (target, rule) pairs in a static table.
#include <span>
#include <string_view>
#include <vector>

#include "graph/op_table.h"

namespace symshape {

class PropContext;
using OpRule = void (*)(PropContext&);

struct OpRuleEntry {
  std::string_view target;  // "aten.add.Tensor", "operator.getitem", ...
  OpRule rule;
};

// Families (one file each under engine/prop/ops/).
std::span<const OpRuleEntry> scalar_rules();       // sym_size, operator.*, getitem
std::span<const OpRuleEntry> elementwise_rules();  // unary/binary/ternary, dtype casts, factories
std::span<const OpRuleEntry> reduction_rules();    // sum/mean/amax/max.dim/std/var/softmax/cumsum/norms/sort/topk
std::span<const OpRuleEntry> view_rules();         // view/reshape/permute/expand/squeeze/slice/select/cat/split/...
std::span<const OpRuleEntry> index_rules();        // index/gather/embedding/index_select/data-dependent ops
std::span<const OpRuleEntry> conv_rules();         // convolution, pooling, upsample, pad, im2col, pixel_shuffle
std::span<const OpRuleEntry> matmul_rules();       // mm/bmm/matmul/linear/addmm/baddbmm/einsum/sdpa

// All registered rules, resolved against an OpTable (entries for unknown ops are null).
// Cheap to call again after new ops were interned: only new OpIds are resolved.
class RuleTable {
 public:
  void resolve(const OpTable& ops);
  OpRule rule(OpId op) const { return op.index() < rules_.size() ? rules_[op.index()] : nullptr; }
  static bool is_supported(std::string_view target);
  static std::vector<std::string_view> supported_targets();

 private:
  std::vector<OpRule> rules_;
};

}  // namespace symshape
