// report_dom_check RESULTS DOM: the numbers a rendered report shows (its graph table and
// its totals, read from the DOM headless Chromium dumped) equal the engine's results
// file for the same run. Exit 0 when every number matches, 1 with the differences.
#include <fmt/core.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "corpus/results_file.h"

namespace {

using symshape::GraphResults;

std::map<std::string, std::string> row_cells(const std::string& row) {
  static const std::regex cell(R"re(<td[^>]*data-col="([a-z]+)"[^>]*>([^<]*)</td>)re");
  std::map<std::string, std::string> out;
  for (auto it = std::sregex_iterator(row.begin(), row.end(), cell); it != std::sregex_iterator(); ++it)
    out[(*it)[1]] = (*it)[2];
  return out;
}

std::string total(const std::string& dom, const std::string& id) {
  const std::regex re("<div id=\"" + id + "\"><b>([0-9]+)</b>");
  std::smatch m;
  return std::regex_search(dom, m, re) ? m[1].str() : "(missing)";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    fmt::print(stderr, "usage: report_dom_check RESULTS DOM\n");
    return 2;
  }
  symshape::Results results;
  std::string error;
  if (!symshape::read_results_file(argv[1], results, error)) {
    fmt::print(stderr, "error: {}\n", error);
    return 2;
  }
  std::ifstream in(argv[2]);
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string dom = buf.str();

  int problems = 0;
  const auto expect = [&](const std::string& what, const std::string& shown, const std::string& engine) {
    if (shown == engine) return;
    fmt::print(stderr, "mismatch: {}: page shows '{}', results say '{}'\n", what, shown, engine);
    ++problems;
  };

  std::map<size_t, std::map<std::string, std::string>> rows;
  static const std::regex row_re(R"re(<tr data-graph="([0-9]+)">(.*?)</tr>)re");
  for (auto it = std::sregex_iterator(dom.begin(), dom.end(), row_re); it != std::sregex_iterator(); ++it)
    rows[std::stoul((*it)[1])] = row_cells((*it)[2]);
  expect("table rows", std::to_string(rows.size()), std::to_string(results.graphs.size()));

  uint64_t nodes = 0, examples = 0, specs = 0, rejected_total = 0;
  size_t failed = 0;
  for (size_t i = 0; i < results.graphs.size(); ++i) {
    const GraphResults& g = results.graphs[i];
    size_t rejected = 0;
    for (const auto& v : g.verdicts) rejected += v.specialization < 0;
    nodes += g.nodes, examples += g.examples, specs += g.entries.size(), rejected_total += rejected;
    failed += g.status != symshape::GraphStatus::Ok;
    auto& cells = rows[i];
    const std::string where = fmt::format("graph {} ({})", i, g.name);
    expect(where + " name", cells["name"], g.name);
    expect(where + " status", cells["status"], symshape::graph_status_name(g.status));
    expect(where + " nodes", cells["nodes"], std::to_string(g.nodes));
    expect(where + " examples", cells["examples"], std::to_string(g.examples));
    expect(where + " specialisations", cells["specializations"], std::to_string(g.entries.size()));
    expect(where + " rejected", cells["rejected"], std::to_string(rejected));
    expect(where + " guards", cells["guards"], std::to_string(g.guards.size()));
    const uint64_t ns = g.timing.propagate_ns + g.timing.compile_ns + g.timing.eval_ns;
    expect(where + " time", cells["time"], fmt::format("{:.3f}", double(ns) / 1e6));
  }
  expect("total graphs", total(dom, "total-graphs"), std::to_string(results.graphs.size()));
  expect("total nodes", total(dom, "total-nodes"), std::to_string(nodes));
  expect("total examples", total(dom, "total-examples"), std::to_string(examples));
  expect("total failed", total(dom, "total-failed"), std::to_string(failed));
  expect("total specialisations", total(dom, "total-specializations"), std::to_string(specs));
  expect("total rejected", total(dom, "total-rejected"), std::to_string(rejected_total));
  if (problems) return 1;
  fmt::print("report_dom_check: {} graphs, every number on the page matches the results\n", results.graphs.size());
  return 0;
}
