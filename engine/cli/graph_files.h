#pragma once
// Expands CLI paths (files, or folders of *.graph.json / *.graph.fb) into a sorted list
// of files, and loads one graph with located diagnostics.
#include <string>
#include <vector>

#include "graph/diagnostic.h"
#include "graph/graph.h"
#include "graph/op_table.h"

namespace symshape::cli {

// `with_corpus_files`: folders also yield their *.corpus.fb files.
std::vector<std::string> expand_graph_paths(const std::vector<std::string>& paths, std::vector<std::string>& errors,
                                            bool with_corpus_files = false);

// The graphs of one file (several for a corpus.fb) and what went wrong loading it.
struct GraphFileLoad {
  std::vector<Graph> graphs;
  Diagnostics diags;
  bool ok = false;
};
// Loads every file in parallel (TBB, one JSON loader per thread); graphs share `ops`.
std::vector<GraphFileLoad> load_graph_files(const std::vector<std::string>& files, OpTable& ops);

// Loads fx-graph-json or graph.fb (told apart by content); returns false and fills
// `error` with every diagnostic.
bool load_graph_file(const std::string& path, OpTable& ops, Graph& graph, std::string& error);

}  // namespace symshape::cli
