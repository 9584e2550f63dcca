#include "guard_batch.h"

#include <fmt/core.h>

namespace symshape::py {

GuardBatch::GuardBatch(std::shared_ptr<const PropagationHandle> p)
    : p_(std::move(p)), program_(compile_guards(p_->g->graph, p_->spec)) {
  const Graph& g = p_->g->graph;
  for (uint32_t ph = 0; ph < g.num_placeholders(); ++ph) num_columns_ += g.placeholder_rank(PlaceholderId(ph));
}

std::vector<std::string> GuardBatch::column_names() const {
  const Graph& g = p_->g->graph;
  std::vector<std::string> names;
  for (uint32_t ph = 0; ph < g.num_placeholders(); ++ph)
    for (uint32_t d = 0; d < g.placeholder_rank(PlaceholderId(ph)); ++d)
      names.push_back(fmt::format("{}.size()[{}]", g.node_name(g.placeholder_node(PlaceholderId(ph))), d));
  return names;
}

void GuardBatch::evaluate(const std::vector<const int64_t*>& col, size_t rows, int32_t* verdict,
                          unsigned threads) const {
  const ExampleColumns ex = ExampleColumns::borrow(p_->g->graph, col.data(), rows);
  std::vector<GuardFailure> failure(rows);
  GuardEvalOptions opts;
  opts.threads = threads;
  evaluate_guards(program_, ex, 0, rows, verdict, failure.data(), opts);
}

void GuardBatch::evaluate_scalar(const std::vector<const int64_t*>& col, size_t rows, int32_t* verdict) const {
  const ExampleColumns ex = ExampleColumns::borrow(p_->g->graph, col.data(), rows);
  evaluate_guards_reference(p_->g->graph, p_->spec, ex, verdict);
}

}  // namespace symshape::py
