// `symshape convert`, `symshape pack`, `symshape validate`: moving graphs between
// fx-graph-json and the FlatBuffers formats, and checking files. Loading runs in
// parallel over files (TBB, one JSON loader per thread, one shared OpTable); results are
// printed in argument order. Exit status 1 if anything failed.
#include <fmt/core.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/graph_files.h"
#include "formats/example_set.h"
#include "formats/fb_kind.h"
#include "formats/graph_fb_writer.h"
#include "formats/graph_io.h"
#include "formats/mapped_file.h"
#include "graph/graph_equal.h"
#include "graph/json_writer.h"
#include "prop/schema_check.h"

#include <nlohmann/json.hpp>

namespace symshape::cli {
namespace {

namespace fs = std::filesystem;

bool ends_with(std::string_view s, std::string_view suffix) { return s.size() >= suffix.size() && s.ends_with(suffix); }

bool is_graph_file_name(std::string_view name) {
  return ends_with(name, ".graph.json") || ends_with(name, ".graph.fb") || ends_with(name, ".corpus.fb");
}

// Directories expand to their *.graph.json / *.graph.fb / *.corpus.fb files, sorted.
std::vector<std::string> expand(const std::vector<std::string>& args, Diagnostics& diags) {
  std::vector<std::string> files;
  for (const std::string& a : args) {
    std::error_code ec;
    if (!fs::is_directory(a, ec)) {
      files.push_back(a);
      continue;
    }
    std::vector<std::string> found;
    for (const fs::directory_entry& e : fs::directory_iterator(a, ec))
      if (e.is_regular_file(ec) && is_graph_file_name(e.path().filename().string())) found.push_back(e.path().string());
    if (ec) diags.add(Diagnostic{GraphErrc::Io, a, {}, -1, {}, {}, "cannot list directory: " + ec.message()});
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

using FileResult = GraphFileLoad;

// Loads every file in parallel; graphs share `ops`.
std::vector<FileResult> load_all(const std::vector<std::string>& files, OpTable& ops) {
  return load_graph_files(files, ops);
}

void print_diags(const Diagnostics& diags) {
  for (const Diagnostic& d : diags.items) fmt::print(stderr, "error: {}\n", d.format());
}

// ---------------------------------------------------------------------------- validate
struct ValidateOptions {
  std::vector<std::string> files;
  bool quiet = false;
  bool json = false;
};

nlohmann::json diag_json(const Diagnostic& d) {
  nlohmann::json j = {{"code", graph_errc_name(d.code)}, {"file", d.file}, {"message", d.message}};
  if (!d.graph.empty()) j["graph"] = d.graph;
  if (d.node >= 0) {
    j["node"] = d.node;
    j["node_name"] = d.node_name;
  }
  if (!d.field.empty()) j["field"] = d.field;
  return j;
}

// Loads every file (structural validation), then checks each loaded graph's call_function
// nodes against the op schemas, so a graph that loads but that no command could run is
// reported too. Every problem of every file is listed.
int run_validate(const ValidateOptions& opt) {
  Diagnostics listing;
  const std::vector<std::string> files = expand(opt.files, listing);
  OpTable ops;
  std::vector<FileResult> results = load_all(files, ops);
  size_t ok_graphs = 0, bad_files = listing.size();
  nlohmann::json jfiles = nlohmann::json::array();
  if (!opt.json) print_diags(listing);
  for (const Diagnostic& d : listing.items) jfiles.push_back({{"file", d.file}, {"ok", false}, {"problems", {diag_json(d)}}});
  for (size_t i = 0; i < files.size(); ++i) {
    FileResult& r = results[i];
    nlohmann::json jgraphs = nlohmann::json::array();
    for (const Graph& g : r.graphs) {
      const bool ops_ok = check_op_schemas(g, files[i], r.diags);
      if (ops_ok) ++ok_graphs;
      if (!ops_ok) r.ok = false;
      if (!opt.quiet && !opt.json && ops_ok)
        fmt::print("ok: {}: graph '{}' ({} nodes, {} examples)\n", files[i], g.name(), g.num_nodes(), g.num_examples());
      jgraphs.push_back({{"graph", g.name()}, {"ok", ops_ok}, {"nodes", g.num_nodes()}, {"examples", g.num_examples()}});
    }
    if (!r.ok) {
      ++bad_files;
      if (!opt.json) print_diags(r.diags);
    }
    nlohmann::json problems = nlohmann::json::array();
    for (const Diagnostic& d : r.diags.items) problems.push_back(diag_json(d));
    jfiles.push_back({{"file", files[i]}, {"ok", r.ok}, {"graphs", jgraphs}, {"problems", problems}});
  }
  if (opt.json)
    fmt::print("{}\n", nlohmann::json({{"files", jfiles}, {"valid_graphs", ok_graphs}, {"files_with_errors", bad_files}}).dump());
  else
    fmt::print("validate: {} file(s), {} valid graph(s), {} file(s) with errors\n", files.size(), ok_graphs, bad_files);
  return bad_files == 0 && !files.empty() ? 0 : 1;
}

// ---------------------------------------------------------------------------- pack
struct PackOptions {
  std::vector<std::string> inputs;
  std::string output;
};

bool write_corpus(const std::vector<Graph>& graphs, const std::string& path, std::string& error) {
  flatbuffers::DetachedBuffer buf;
  return write_corpus_fb(graphs, buf, error) && write_bytes_file(path, buf.data(), buf.size(), error);
}

int run_pack(const PackOptions& opt) {
  Diagnostics listing;
  const std::vector<std::string> files = expand(opt.inputs, listing);
  print_diags(listing);
  bool ok = listing.empty() && !files.empty();
  if (files.empty()) fmt::print(stderr, "error: pack: no input graphs\n");
  OpTable ops;
  std::vector<FileResult> results = load_all(files, ops);
  std::vector<Graph> graphs;
  std::vector<std::string> names;  // graph names must be unique in a corpus
  for (size_t i = 0; i < files.size(); ++i) {
    if (!results[i].ok) {
      ok = false;
      print_diags(results[i].diags);
    }
    for (Graph& g : results[i].graphs) {
      std::string name(g.name());
      if (std::find(names.begin(), names.end(), name) != names.end()) {
        fmt::print(stderr, "error: {}: graph '{}': a graph of this name is already in the corpus\n", files[i], name);
        ok = false;
        continue;
      }
      names.push_back(std::move(name));
      graphs.push_back(std::move(g));
    }
  }
  std::string error;
  if (!write_corpus(graphs, opt.output, error)) {
    fmt::print(stderr, "error: {}: {}\n", opt.output, error);
    return 1;
  }
  uint64_t nodes = 0;
  for (const Graph& g : graphs) nodes += g.num_nodes();
  std::error_code ec;
  fmt::print("pack: {} graph(s), {} nodes -> {} ({} bytes)\n", graphs.size(), nodes, opt.output, fs::file_size(opt.output, ec));
  return ok ? 0 : 1;
}

// ---------------------------------------------------------------------------- convert
struct ConvertOptions {
  std::string input;
  std::string output;
  std::string to;  // json | graph | corpus | examples | dir ("" = from the output name)
  int indent = -1;
  bool verify = true;
};

std::string output_kind(const ConvertOptions& opt, bool input_is_corpus) {
  if (!opt.to.empty()) return opt.to;
  const std::string& o = opt.output;
  if (ends_with(o, ".corpus.fb")) return "corpus";
  if (ends_with(o, ".examples.fb")) return "examples";
  if (ends_with(o, ".graph.fb")) return "graph";
  if (ends_with(o, ".fb")) return input_is_corpus ? "corpus" : "graph";
  if (ends_with(o, ".json")) return "json";
  return input_is_corpus ? "dir" : "json";
}

// Re-reads what was written and compares it with what was meant to be written.
bool verify_output(const std::string& path, const std::vector<const Graph*>& expected, std::string& error) {
  OpTable ops;
  JsonGraphLoader loader;
  std::vector<Graph> got;
  Diagnostics diags;
  if (!load_graphs(path, ops, got, loader, diags)) {
    error = diags.empty() ? "cannot re-read output" : diags.items[0].format();
    return false;
  }
  if (got.size() != expected.size()) {
    error = fmt::format("output holds {} graphs, expected {}", got.size(), expected.size());
    return false;
  }
  for (size_t i = 0; i < got.size(); ++i) {
    std::string diff = graph_difference(*expected[i], got[i]);
    if (!diff.empty()) {
      error = fmt::format("round trip changed graph '{}': {}", expected[i]->name(), diff);
      return false;
    }
  }
  return true;
}

int run_convert(const ConvertOptions& opt) {
  Diagnostics listing;
  std::error_code ec;
  const bool input_is_dir = fs::is_directory(opt.input, ec);
  const std::vector<std::string> files = expand({opt.input}, listing);
  print_diags(listing);
  OpTable ops;
  std::vector<FileResult> results = load_all(files, ops);
  std::vector<Graph> graphs;
  bool input_is_corpus = input_is_dir;
  bool ok = listing.empty();
  for (size_t i = 0; i < files.size(); ++i) {
    if (!results[i].ok) {
      print_diags(results[i].diags);
      ok = false;
    }
    MappedFile probe;
    std::string ignored;
    if (probe.open(files[i], uint64_t(1) << 31, ignored) && detect_file_kind(probe.data(), probe.size()) == FileKind::CorpusFb)
      input_is_corpus = true;
    for (Graph& g : results[i].graphs) graphs.push_back(std::move(g));
  }
  if (!ok) return 1;
  if (graphs.empty()) {
    fmt::print(stderr, "error: {}: no graphs to convert\n", opt.input);
    return 1;
  }
  const std::string kind = output_kind(opt, input_is_corpus);
  std::string error;
  std::vector<std::string> written;
  if (kind == "json" || kind == "graph" || kind == "examples") {
    if (graphs.size() != 1) {
      fmt::print(stderr, "error: {}: input holds {} graphs; write a .corpus.fb file or a directory\n", opt.input, graphs.size());
      return 1;
    }
    const Graph& g = graphs[0];
    flatbuffers::DetachedBuffer buf;
    if (kind == "json") ok = write_graph_json_file(g, opt.output, error, opt.indent);
    else if (kind == "graph") ok = write_graph_fb(g, buf, error) && write_bytes_file(opt.output, buf.data(), buf.size(), error);
    else {
      buf = write_example_set(g);
      ExampleSetFile check;
      ok = write_bytes_file(opt.output, buf.data(), buf.size(), error) && (!opt.verify || check.open(opt.output, error));
    }
    if (kind != "examples") written.push_back(opt.output);
  } else if (kind == "corpus") {
    ok = write_corpus(graphs, opt.output, error);
    written.push_back(opt.output);
  } else if (kind == "dir") {
    fs::create_directories(opt.output, ec);
    for (const Graph& g : graphs) {
      const std::string path = (fs::path(opt.output) / (std::string(g.name()) + ".graph.json")).string();
      ok = write_graph_json_file(g, path, error, opt.indent) &&
           (!opt.verify || verify_output(path, std::vector<const Graph*>{&g}, error));
      if (!ok) {
        error = path + ": " + error;
        break;
      }
    }
  } else {
    fmt::print(stderr, "error: --to {}: expected json, graph, corpus, examples or dir\n", kind);
    return 1;
  }
  if (!ok) {
    fmt::print(stderr, "error: {}: {}\n", opt.output, error);
    return 1;
  }
  std::vector<const Graph*> expected;
  for (const Graph& g : graphs) expected.push_back(&g);
  if (opt.verify && !written.empty() && !verify_output(written[0], expected, error)) {
    fmt::print(stderr, "error: {}: {}\n", opt.output, error);
    return 1;
  }
  fmt::print("convert: {} graph(s) -> {} ({})\n", graphs.size(), opt.output, kind);
  return 0;
}

}  // namespace

void register_graph_commands(CLI::App& app) {
  auto copt = std::make_shared<ConvertOptions>();
  CLI::App* convert = app.add_subcommand(
      "convert", "Convert between fx-graph-json and FlatBuffers (graph, corpus, example set); lossless");
  convert->add_option("input", copt->input, "fx-graph-json, .graph.fb or .corpus.fb file, or a directory")->required();
  convert->add_option("output", copt->output,
                      "output: *.json, *.graph.fb, *.corpus.fb, *.examples.fb, or a directory of *.graph.json")
      ->required();
  convert->add_option("--to", copt->to, "output kind: json, graph, corpus, examples, dir (default: from the name)");
  convert->add_option("--indent", copt->indent, "JSON indentation (default: compact)");
  convert->add_flag("!--no-verify", copt->verify, "skip re-reading and comparing the output");
  convert->callback([copt] { exit_code() = run_convert(*copt); });

  auto popt = std::make_shared<PackOptions>();
  CLI::App* pack = app.add_subcommand("pack", "Pack graphs (files or directories) into one corpus FlatBuffers file");
  pack->add_option("inputs", popt->inputs, "graph files or directories")->required();
  pack->add_option("-o,--output", popt->output, "output .corpus.fb")->required();
  pack->callback([popt] { exit_code() = run_pack(*popt); });

  auto vopt = std::make_shared<ValidateOptions>();
  CLI::App* validate = app.add_subcommand(
      "validate", "Load and validate graph files and check every op call against its schema; report every problem");
  validate->add_option("files", vopt->files, "graph files (JSON or FlatBuffers) or directories")->required();
  validate->add_flag("-q,--quiet", vopt->quiet, "only print problems and the summary");
  validate->add_flag("--json", vopt->json, "print every file's graphs and problems as one JSON object");
  validate->callback([vopt] { exit_code() = run_validate(*vopt); });
}

}  // namespace symshape::cli
