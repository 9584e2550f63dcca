#pragma once
// Between a graph and the examples form of `symshape dynamism`:
// - a graph's examples PyTorch ran (ok == true) as NDJSON lines in the documented form
//   (`{"x": [2, 3, 64, 64]}`), optionally with the module attributes the graph records: every
//   get_attr target `a.b.weight` as a parameter of module `a.b` under "self" (G.3's form then
//   gives `L['self']['_modules']['a']['_modules']['b']['_parameters']['weight']` and
//   `...['b']['weight']`);
// - an example set's top-level tensors as the graph's example columns (the spec suggestion's
//   input).
#include <string>
#include <vector>

#include "batch/example_columns.h"
#include "dynamism/example_values.h"
#include "graph/diagnostic.h"
#include "graph/graph.h"

namespace symshape::dynamism {

// One line per ok example; `example_ids` receives each line's example index.
std::string graph_examples_ndjson(const Graph& g, bool with_module_attributes, std::vector<uint64_t>& example_ids);

// The examples that give every placeholder of `g` a top-level tensor of its declared rank
// (other entries, such as "self" or ints the graph does not take, are not its inputs);
// an example that does not is reported in `problems` (by its source line) and left out.
// `example_ids` receives each kept example's source index.
ExampleColumns graph_columns(const ExampleSet& set, const Graph& g, std::string_view file_name,
                             std::vector<uint64_t>& example_ids, Diagnostics& problems);

}  // namespace symshape::dynamism
