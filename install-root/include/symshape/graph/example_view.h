#pragma once
// One golden EXAMPLE of a graph, as a cheap handle over the graph's example columns.
// golden(node) is O(1): goldens are a dense [example x node] matrix of ValueIds; read the
// returned ValueId with Graph::value_*.
#include <span>
#include <string_view>

#include "graph/graph_store.h"

namespace symshape {

class ExampleView {
 public:
  ExampleView(const GraphStore& s, ExampleId e) : s_(&s), e_(e.index()) {}

  // Concrete sizes of a placeholder in this example. Usually placeholder_rank() long, but
  // a deliberately out-of-spec example may give a different rank.
  std::span<const int64_t> input_sizes(PlaceholderId p) const {
    Span32 sp = s_->ex_inputs[size_t(e_) * s_->num_placeholders() + p.index()];
    if (!sp.present()) return {};  // only in graphs that failed validation
    return {s_->ex_sizes.data() + sp.first, sp.count};
  }
  int64_t seed() const { return s_->ex_seed[e_]; }
  bool in_spec() const { return s_->ex_in_spec[e_] != 0; }
  bool ok() const { return s_->ex_ok[e_] != 0; }
  bool has_error() const { return s_->ex_error[e_].valid(); }
  std::string_view error() const {  // "" when absent
    return has_error() ? s_->strings.get(s_->ex_error[e_]) : std::string_view();
  }
  ExampleErrorKind error_kind() const { return s_->ex_error_kind[e_]; }
  NodeId error_node() const { return s_->ex_error_node[e_]; }  // none when absent
  // Golden VALUE of `n`, none if not recorded (failed examples record none). For the
  // output node this is the example's `output` VALUE.
  ValueId golden(NodeId n) const { return s_->ex_golden[size_t(e_) * s_->num_nodes() + n.index()]; }
  ValueId output() const { return s_->output.valid() ? golden(s_->output) : ValueId(); }
  ExampleId id() const { return ExampleId(e_); }

 private:
  const GraphStore* s_;
  uint32_t e_;
};

}  // namespace symshape
