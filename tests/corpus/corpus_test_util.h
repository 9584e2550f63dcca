#pragma once
// Loading the visible corpus (../shared/corpus/visible) for the corpus tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "corpus/corpus_run.h"
#include "graph/corpus.h"
#include "graph/json_loader.h"

namespace symshape::test {

inline std::string visible_dir() { return std::string(SYMSHAPE_SHARED_DIR) + "/corpus/visible"; }

inline std::vector<std::string> visible_files() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(visible_dir(), ec))
    if (e.path().string().ends_with(".graph.json")) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// Graphs of `files` sharing one OpTable, with their file names, and a resolved rule table.
struct LoadedCorpus {
  Corpus corpus;
  std::vector<std::string> files;
  RuleTable rules;

  explicit LoadedCorpus(const std::vector<std::string>& paths) {
    JsonGraphLoader loader;
    for (const std::string& p : paths) {
      Graph g(*corpus.ops);
      Diagnostics d;
      if (!loader.load_file(p, *corpus.ops, g, d)) {
        ADD_FAILURE() << p << ": " << (d.empty() ? "" : d.items[0].format());
        continue;
      }
      corpus.graphs.push_back(std::move(g));
      files.push_back(p);
    }
    rules.resolve(*corpus.ops);
  }

  std::vector<CorpusItem> items(size_t begin = 0, size_t end = ~size_t(0)) const {
    std::vector<CorpusItem> out;
    for (size_t i = begin; i < std::min(end, files.size()); ++i) out.push_back({files[i], &corpus.graphs[i], {}});
    return out;
  }
};

}  // namespace symshape::test
