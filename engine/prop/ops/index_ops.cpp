// The index family's rule table (semantics.md H.13, H.22): gathers and scatters,
// advanced indexing, and data-dependent ops.
#include <vector>

#include "prop/ops/index_family.h"

namespace symshape {

std::span<const OpRuleEntry> index_rules() {
  // concatenated once; rule lookup happens through RuleTable, not here
  static const std::vector<OpRuleEntry> all = [] {
    std::vector<OpRuleEntry> v;
    for (auto part : {gather_entries(), advanced_index_entries(), data_dependent_entries(), embedding_bag_entries()})
      v.insert(v.end(), part.begin(), part.end());
    return v;
  }();
  return all;
}

}  // namespace symshape
