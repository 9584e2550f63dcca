#include "cli/graph_files.h"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <filesystem>
#include <memory>

#include "formats/graph_io.h"
#include "graph/json_loader.h"

namespace symshape::cli {

std::vector<std::string> expand_graph_paths(const std::vector<std::string>& paths, std::vector<std::string>& errors,
                                            bool with_corpus_files) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (const auto& entry : fs::directory_iterator(p, ec)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && (name.ends_with(".graph.json") || name.ends_with(".graph.fb") ||
                                        (with_corpus_files && name.ends_with(".corpus.fb"))))
          found.push_back(entry.path().string());
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(p, ec)) {
      files.push_back(p);
    } else {
      errors.push_back(p + ": no such file or directory");
    }
  }
  return files;
}

std::vector<GraphFileLoad> load_graph_files(const std::vector<std::string>& files, OpTable& ops) {
  std::vector<GraphFileLoad> loaded(files.size());
  tbb::enumerable_thread_specific<std::unique_ptr<JsonGraphLoader>> loaders;
  tbb::parallel_for(size_t(0), files.size(), [&](size_t i) {
    std::unique_ptr<JsonGraphLoader>& json = loaders.local();
    if (!json) json = std::make_unique<JsonGraphLoader>();
    loaded[i].ok = load_graphs(files[i], ops, loaded[i].graphs, *json, loaded[i].diags);
  });
  return loaded;
}

bool load_graph_file(const std::string& path, OpTable& ops, Graph& graph, std::string& error) {
  thread_local JsonGraphLoader loader;
  Diagnostics diags;
  if (load_graph(path, ops, graph, loader, diags)) return true;
  error.clear();
  for (const Diagnostic& d : diags.items) {
    if (!error.empty()) error.push_back('\n');
    error.append(d.format());
  }
  if (error.empty()) error = path + ": failed to load";
  return false;
}

}  // namespace symshape::cli
