// report_dom_check RESULTS DOM: the numbers a rendered report shows (its graph table and
// its totals, read from the DOM headless Chromium dumped) equal the engine's results
// file for the same run. Exit 0 when every number matches, 1 with the differences.
#include <fmt/core.h>

#include <fstream>
#include <map>
#include <sstream>

#include "corpus/results_file.h"

namespace {

using symshape::GraphResults;

// The text between `open` and the next `close` at or after `from`; npos-safe. Plain string
// scanning: the DOM Chromium prints is regular, and std::regex trips GCC 12's
// -Wmaybe-uninitialized under the sanitizers.
bool next_between(const std::string& s, size_t& from, const std::string& open, const std::string& close,
                  std::string& out) {
  const size_t a = s.find(open, from);
  if (a == std::string::npos) return false;
  const size_t b = s.find(close, a + open.size());
  if (b == std::string::npos) return false;
  out = s.substr(a + open.size(), b - a - open.size());
  from = b + close.size();
  return true;
}

// <td ... data-col="NAME" ...>TEXT</td> cells of one table row, by column name.
std::map<std::string, std::string> row_cells(const std::string& row) {
  std::map<std::string, std::string> out;
  size_t at = 0;
  std::string cell;
  while (next_between(row, at, "<td", "</td>", cell)) {
    const size_t col = cell.find("data-col=\"");
    const size_t tag_end = cell.find('>');
    if (col == std::string::npos || tag_end == std::string::npos || col > tag_end) continue;
    const size_t name_begin = col + 10;
    const size_t name_end = cell.find('"', name_begin);
    if (name_end == std::string::npos) continue;
    out[cell.substr(name_begin, name_end - name_begin)] = cell.substr(tag_end + 1);
  }
  return out;
}

std::string total(const std::string& dom, const std::string& id) {
  size_t at = 0;
  std::string number;
  if (!next_between(dom, at, "<div id=\"" + id + "\"><b>", "</b>", number) || number.empty() ||
      number.find_first_not_of("0123456789") != std::string::npos)
    return "(missing)";
  return number;
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
  {
    size_t at = 0;
    std::string row;
    while (next_between(dom, at, "<tr data-graph=\"", "</tr>", row)) {
      const size_t quote = row.find("\">");
      if (quote == std::string::npos || quote == 0 || row.find_first_not_of("0123456789") != quote) continue;
      rows[std::stoul(row.substr(0, quote))] = row_cells(row.substr(quote + 2));
    }
  }
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
