#include "corpus/results_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "corpus/atomic_file.h"
#include "corpus/results_json.h"
#include "formats/fb_kind.h"
#include "formats/mapped_file.h"

namespace symshape {
namespace {

constexpr uint64_t kMaxResultsBytes = uint64_t(1) << 32;

bool graph_less(const GraphResults& a, const GraphResults& b) {
  return std::tie(a.name, a.file) < std::tie(b.name, b.file);
}

}  // namespace

bool read_results_file(const std::string& path, Results& out, std::string& error) {
  MappedFile f;
  if (!f.open(path, kMaxResultsBytes, error)) {
    error = path + ": " + error;
    return false;
  }
  bool ok = false;
  switch (detect_file_kind(f.data(), f.size())) {
    case FileKind::ResultsFb: ok = read_results_fb(f.data(), f.size(), out, error); break;
    case FileKind::Json:
      ok = results_from_json(std::string(reinterpret_cast<const char*>(f.data()), f.size()), out, error);
      break;
    default: error = "not a symshape results file (neither results.fb nor results JSON)";
  }
  if (!ok) error = path + ": " + error;
  return ok;
}

bool write_results_file(const std::string& path, const Results& r, std::string& error) {
  bool ok;
  if (path.ends_with(".json")) {
    const std::string text = results_to_json(r);
    ok = write_file_atomically(path, text.data(), text.size(), error);
  } else {
    flatbuffers::DetachedBuffer buf = write_results_fb(r);
    ok = write_file_atomically(path, buf.data(), buf.size(), error);
  }
  if (!ok) error = path + ": " + error;
  return ok;
}

void canonicalize(Results& r) { std::stable_sort(r.graphs.begin(), r.graphs.end(), graph_less); }

std::string results_difference(const Results& a, const Results& b) {
  if (a.graphs.size() != b.graphs.size())
    return fmt::format("{} graphs vs {} graphs", a.graphs.size(), b.graphs.size());
  for (size_t i = 0; i < a.graphs.size(); ++i) {
    Results ga, gb;
    ga.graphs.push_back(a.graphs[i]);
    gb.graphs.push_back(b.graphs[i]);
    const std::string ja = results_to_json(ga, /*with_timing=*/false, -1);
    const std::string jb = results_to_json(gb, /*with_timing=*/false, -1);
    if (ja == jb) continue;
    size_t at = 0;
    while (at < ja.size() && at < jb.size() && ja[at] == jb[at]) ++at;
    const size_t from = at > 60 ? at - 60 : 0;
    return fmt::format("graph #{} ('{}' vs '{}') differs at: ...{} | ...{}", i, a.graphs[i].name, b.graphs[i].name,
                       ja.substr(from, 120), jb.substr(from, 120));
  }
  return "";
}

bool merge_results(std::vector<Results> shards, Results& out, std::string& error) {
  out = Results();
  for (Results& s : shards) {
    if (out.producer.empty()) out.producer = s.producer;
    for (GraphResults& g : s.graphs) out.graphs.push_back(std::move(g));
  }
  canonicalize(out);
  for (size_t i = 1; i < out.graphs.size(); ++i)
    if (!graph_less(out.graphs[i - 1], out.graphs[i])) {
      error = fmt::format("graph '{}' of file '{}' is in more than one shard (shards must be disjoint)",
                          out.graphs[i].name, out.graphs[i].file);
      out = Results();
      return false;
    }
  return true;
}

}  // namespace symshape
