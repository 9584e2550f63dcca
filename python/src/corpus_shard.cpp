// Corpus shards for Python (symshape.distributed): one shard of files run through the
// corpus engine into results.fb bytes, shards' bytes merged into the bytes of one run
// over all of them, and results written atomically. The GIL is released while the
// engine loads, runs, merges and writes, so a Dask worker's other threads keep going.
//
// Every shard a process runs interns into the process-wide OpTable (engine_handle.h).
// Each call resolves its own RuleTable against it after loading (cheap; only new ops are
// resolved), so shards may also run concurrently on several threads of one worker.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <string>
#include <vector>

#include "corpus/corpus_run.h"
#include "corpus/results_file.h"
#include "engine_handle.h"
#include "graph/json_loader.h"
#include "graph_io.h"

namespace pyb = pybind11;

namespace symshape::py {
namespace {

std::string diagnostics_text(const Diagnostics& diags) {
  std::string out;
  for (const Diagnostic& d : diags.items) {
    if (!out.empty()) out.push_back('\n');
    out.append(d.format());
  }
  return out;
}

pyb::bytes as_bytes(const flatbuffers::DetachedBuffer& buf) {
  return pyb::bytes(reinterpret_cast<const char*>(buf.data()), buf.size());
}

void drop_timings(Results& r) {
  for (GraphResults& g : r.graphs) g.timing = GraphTiming();
}

// `symshape corpus FILES --threads N [--examples-dir D] [--no-timing]` for one shard:
// every graph of the files (a corpus.fb holds many) gets a result, a file that fails to
// load gets a load_error result with the same text the CLI reports. Returns (results.fb
// bytes, {graphs, nodes, examples, failed, seconds, load_seconds}).
pyb::tuple run_shard(const std::vector<std::string>& files, int threads, const std::string& examples_dir,
                     bool no_timing) {
  if (threads < 0) raise_engine_error(ErrorKind::BadInput, "run_shard: threads must be >= 0 (0: all cores)");
  CorpusSummary summary;
  uint64_t examples = 0;
  double load_seconds = 0.0;
  flatbuffers::DetachedBuffer buf;
  {
    pyb::gil_scoped_release release;
    OpTable& ops = process_ops();
    std::vector<std::vector<Graph>> graphs(files.size());
    std::vector<CorpusItem> items;
    JsonGraphLoader json;
    const auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < files.size(); ++i) {
      Diagnostics diags;
      const bool ok = load_graphs(files[i], ops, graphs[i], json, diags);
      for (const Graph& g : graphs[i]) items.push_back({files[i], &g, {}});
      if (!ok) items.push_back({files[i], nullptr, diagnostics_text(diags)});
    }
    RuleTable rules;
    rules.resolve(ops);
    load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CorpusRunOptions options;
    options.threads = threads;
    options.examples_dir = examples_dir;
    Results results = run_corpus(items, rules, options, summary);
    if (no_timing) drop_timings(results);
    for (const GraphResults& g : results.graphs) examples += g.examples;
    buf = write_results_fb(results);
  }
  pyb::dict s;
  s["graphs"] = summary.graphs;
  s["nodes"] = summary.nodes;
  s["examples"] = examples;
  s["failed"] = summary.failed;
  s["seconds"] = summary.seconds;  // the engine's parallel phase, as `symshape corpus` reports it
  s["load_seconds"] = load_seconds;
  return pyb::make_tuple(as_bytes(buf), s);
}

Results parse_results(const pyb::bytes& data, size_t index) {
  const std::string_view view = data;
  Results r;
  std::string error;
  bool ok;
  {
    pyb::gil_scoped_release release;
    ok = read_results_fb(reinterpret_cast<const uint8_t*>(view.data()), view.size(), r, error);
  }
  if (!ok) raise_engine_error(ErrorKind::BadInput, "results shard " + std::to_string(index) + ": " + error);
  return r;
}

// `symshape merge` over in-memory shards: the canonical result of one run over all of
// them; a graph (name, file) in two shards is an error.
pyb::bytes merge_shards(const std::vector<pyb::bytes>& shards, bool no_timing) {
  std::vector<Results> parsed;
  parsed.reserve(shards.size());
  for (size_t i = 0; i < shards.size(); ++i) parsed.push_back(parse_results(shards[i], i));
  std::string error;
  flatbuffers::DetachedBuffer buf;
  bool ok;
  {
    pyb::gil_scoped_release release;
    Results merged;
    ok = merge_results(std::move(parsed), merged, error);
    if (ok) {
      if (no_timing) drop_timings(merged);
      buf = write_results_fb(merged);
    }
  }
  if (!ok) raise_engine_error(ErrorKind::BadInput, "merge: " + error);
  return as_bytes(buf);
}

// results.fb bytes -> PATH (*.json: JSON, otherwise results.fb), temp file + rename.
void write_results(const std::string& path, const pyb::bytes& data) {
  Results r = parse_results(data, 0);
  std::string error;
  bool ok;
  {
    pyb::gil_scoped_release release;
    ok = write_results_file(path, r, error);
  }
  if (!ok) raise_engine_error(ErrorKind::BadInput, error);
}

// A results file (either form) -> results.fb bytes.
pyb::bytes read_results(const std::string& path) {
  std::string error;
  flatbuffers::DetachedBuffer buf;
  bool ok;
  {
    pyb::gil_scoped_release release;
    Results r;
    ok = read_results_file(path, r, error);
    if (ok) buf = write_results_fb(r);
  }
  if (!ok) raise_engine_error(ErrorKind::BadInput, error);
  return as_bytes(buf);
}

// Per-graph status counts of results.fb bytes, for summaries and progress.
pyb::dict results_summary(const pyb::bytes& data) {
  const Results r = parse_results(data, 0);
  pyb::dict out, statuses;
  uint64_t nodes = 0, examples = 0;
  for (const GraphResults& g : r.graphs) {
    nodes += g.nodes;
    examples += g.examples;
    const std::string status(graph_status_name(g.status));
    statuses[status.c_str()] = statuses.contains(status) ? statuses[status.c_str()].cast<uint64_t>() + 1 : 1;
  }
  out["graphs"] = r.graphs.size();
  out["nodes"] = nodes;
  out["examples"] = examples;
  out["status"] = statuses;
  return out;
}

}  // namespace

void bind_corpus_shard(pyb::module_& m) {
  m.def("run_shard", &run_shard, pyb::arg("files"), pyb::arg("threads") = 1, pyb::arg("examples_dir") = "",
        pyb::arg("no_timing") = false,
        "Run the corpus engine over graph / corpus.fb files: (results.fb bytes, summary dict)");
  m.def("merge_results", &merge_shards, pyb::arg("shards"), pyb::arg("no_timing") = false,
        "Merge results.fb bytes of disjoint shards into the canonical results.fb bytes of one run");
  m.def("write_results", &write_results, pyb::arg("path"), pyb::arg("data"),
        "Write results.fb bytes to PATH atomically (*.json as JSON, otherwise results.fb)");
  m.def("read_results", &read_results, pyb::arg("path"), "A results file (results.fb or JSON) as results.fb bytes");
  m.def("results_summary", &results_summary, pyb::arg("data"),
        "graphs, nodes, examples and per-status graph counts of results.fb bytes");
}

}  // namespace symshape::py
