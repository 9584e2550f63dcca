#pragma once
// Many graphs sharing one OpTable (op and kwarg-name ids agree across graphs, so one
// rule table serves the whole corpus). The table is heap-allocated so that the graphs'
// pointers to it survive moving the Corpus.
#include <memory>
#include <vector>

#include "graph/graph.h"
#include "graph/op_table.h"

namespace symshape {

struct Corpus {
  std::unique_ptr<OpTable> ops = std::make_unique<OpTable>();
  std::vector<Graph> graphs;
};

}  // namespace symshape
