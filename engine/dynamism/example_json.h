#pragma once
// The NDJSON examples form of `symshape dynamism` (docs/dynamism.md): one JSON object per
// line, keyed by argument name. A value is
//   [2, 3]                          at the top level only: a tensor of these sizes (the form
//                                   `symshape eval` reads); deeper, an array is a list
//   {"tensor": [2, 3]}              a tensor, anywhere
//   {"list": [...]}                 a list/tuple, anywhere (a top-level list of ints)
//   {"dict": [[key, value], ...]}   a dict whose keys are ints or strings (`{0: t}`)
//   {"attrs": {"name": value}}      an object's attributes (paths `.name`)
//   {"module": {...}}               an nn.Module: sections "attributes", "parameters",
//                                   "buffers", "modules" (children, each {"module": ...})
//   any other object                a dict with string keys
//   int / float / true,false / "text" / null   int, float, bool, str, None
// An object with exactly one key that is one of the tags above is always that tag; a dict
// with such a single key is written {"dict": [["tensor", ...]]}.
#include <string>
#include <string_view>

#include "dynamism/example_values.h"
#include "graph/diagnostic.h"

namespace symshape::dynamism {

inline constexpr int kMaxValueDepth = 64;  // nesting below the top-level dict

// Appends every well-formed line of `text` as one example (source = line number). A bad
// line (invalid JSON, not an object, a malformed tagged value, a negative size, nesting
// deeper than kMaxValueDepth) is reported in `problems` with its line number and the path
// of the offending value, and left out; the other lines still load. Blank lines are skipped.
void read_examples_ndjson(std::string_view text, std::string_view file_name, ExampleSet& out, Diagnostics& problems);
// The same from a file; false (and a problem) when it cannot be read.
bool read_examples_file(const std::string& path, ExampleSet& out, Diagnostics& problems);

}  // namespace symshape::dynamism
