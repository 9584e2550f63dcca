#pragma once
// fx-graph-json -> Graph. Parses with simdjson (DOM), fills the graph's columns, then runs
// validate_graph. On any problem the result is false, `diags` holds located
// Diagnostics and the graph is left empty; the loader never crashes or reads out of
// bounds on malformed input (see docs/formats.md for the error catalogue and limits).
//
// A loader reuses its parser and scratch buffers across calls, so keep one per thread
// when loading many files; the OpTable may be shared by all threads.
#include <memory>
#include <string>
#include <string_view>

#include "graph/diagnostic.h"
#include "graph/graph.h"
#include "graph/limits.h"
#include "graph/op_table.h"

namespace symshape {

class JsonGraphLoader {
 public:
  explicit JsonGraphLoader(GraphLimits limits = {});
  ~JsonGraphLoader();
  JsonGraphLoader(const JsonGraphLoader&) = delete;
  JsonGraphLoader& operator=(const JsonGraphLoader&) = delete;

  // `display_name` is the file name used in diagnostics.
  bool load_file(const std::string& path, OpTable& ops, Graph& out, Diagnostics& diags);
  bool load_buffer(std::string_view json, std::string_view display_name, OpTable& ops, Graph& out,
                   Diagnostics& diags);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace symshape
