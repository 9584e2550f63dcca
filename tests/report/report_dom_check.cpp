// report_dom_check RESULTS DOM: the numbers a rendered report shows (read from the DOM
// headless Chromium dumped) equal the engine's results file for the same run:
// - the graph table: the page of rows it shows is exactly the one the table's state (its
//   filters, sort column and direction, page and page size, written on the table as data-*
//   attributes) selects from the results, in that order, and every cell of every row
//   (name, library, family, status, nodes, examples, specialisations, rejected, guards,
//   time) is the results' number; the number of matching graphs too;
// - the totals; the distributions of nodes, guards and specialisations per graph (every
//   bin of each histogram, data-bins); the unsupported-ops list (graphs blocked per op).
// Exit 0 when every number matches, 1 with the differences.
#include <fmt/core.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <vector>

#include "corpus/results_file.h"
#include "report/report_data.h"

namespace {

using symshape::GraphResults;
using symshape::GraphStatus;

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

std::string unescape(std::string s) {
  static const std::pair<std::string, std::string> kEntities[] = {
      {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&nbsp;", "\xC2\xA0"}, {"&amp;", "&"}};
  for (const auto& [from, to] : kEntities)
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}

// The attributes of the start tag that holds `marker` (e.g. `id="graph-table"`).
std::map<std::string, std::string> tag_attributes(const std::string& dom, const std::string& marker, bool& found) {
  std::map<std::string, std::string> out;
  const size_t at = dom.find(marker);
  found = at != std::string::npos;
  if (!found) return out;
  const size_t begin = dom.rfind('<', at), end = dom.find('>', at);
  const std::string tag = dom.substr(begin, end - begin);
  size_t pos = tag.find(' ');
  while (pos != std::string::npos && pos < tag.size()) {
    while (pos < tag.size() && tag[pos] == ' ') ++pos;
    const size_t eq = tag.find_first_of("= ", pos);
    if (eq == std::string::npos) {
      out[tag.substr(pos)] = "";
      break;
    }
    const std::string name = tag.substr(pos, eq - pos);
    if (tag[eq] == ' ') {
      out[name] = "";
      pos = eq;
      continue;
    }
    const size_t close = tag.find('"', eq + 2);
    if (close == std::string::npos) break;
    out[name] = unescape(tag.substr(eq + 2, close - eq - 2));
    pos = close + 1;
  }
  return out;
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
    out[cell.substr(name_begin, name_end - name_begin)] = unescape(cell.substr(tag_end + 1));
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

std::string lower(std::string s) {
  for (char& c : s) c = c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
  return s;
}

// One graph's values for the table's columns, as the page sorts them.
struct Row {
  std::string name, library, family, status;
  uint64_t nodes = 0, examples = 0, specializations = 0, rejected = 0, guards = 0, time_ns = 0;
};

// The op an unsupported graph stopped at: the engine's message ends "unsupported op OP".
std::string blocked_op(const GraphResults& g) {
  static const std::string kMarker = "unsupported op ";
  const size_t at = g.error.rfind(kMarker);
  if (at == std::string::npos) return g.error_node.empty() ? "(graph)" : g.error_node;
  std::string op = g.error.substr(at + kMarker.size());
  return op.substr(0, op.find_first_of(" \n"));
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

  std::vector<Row> all(results.graphs.size());
  for (size_t i = 0; i < all.size(); ++i) {
    const GraphResults& g = results.graphs[i];
    Row& r = all[i];
    r.name = g.name, r.library = symshape::graph_library(g.name), r.family = symshape::graph_family(g.name);
    r.status = symshape::graph_status_name(g.status);
    r.nodes = g.nodes, r.examples = g.examples, r.specializations = g.entries.size(), r.guards = g.guards.size();
    for (const auto& v : g.verdicts) r.rejected += v.specialization < 0;
    r.time_ns = g.timing.propagate_ns + g.timing.compile_ns + g.timing.eval_ns;
  }

  // The rows shown, in order.
  std::vector<std::pair<size_t, std::map<std::string, std::string>>> rows;
  {
    size_t at = 0;
    std::string row;
    while (next_between(dom, at, "<tr data-graph=\"", "</tr>", row)) {
      const size_t quote = row.find("\">");
      if (quote == std::string::npos || quote == 0 || row.find_first_not_of("0123456789") != quote) continue;
      rows.emplace_back(std::stoul(row.substr(0, quote)), row_cells(row.substr(quote + 2)));
    }
  }

  // The page of rows the table's state selects, computed here from the results.
  bool found = false;
  auto state = tag_attributes(dom, "id=\"graph-table\"", found);
  if (!found) {
    fmt::print(stderr, "mismatch: no #graph-table in the page\n");
    return 1;
  }
  const std::string sort = state["data-sort"], query = lower(state["data-query"]);
  const bool desc = state["data-dir"] == "desc";
  std::vector<size_t> matching;
  for (size_t i = 0; i < all.size(); ++i) {
    const Row& r = all[i];
    if ((!state["data-library"].empty() && r.library != state["data-library"]) ||
        (!state["data-family"].empty() && r.family != state["data-family"]) ||
        (!state["data-status"].empty() && r.status != state["data-status"]) ||
        (!query.empty() && lower(r.name).find(query) == std::string::npos))
      continue;
    matching.push_back(i);
  }
  expect("graphs in the table", state["data-total"], std::to_string(all.size()));
  expect("graphs matching the filters", state["data-matching"], std::to_string(matching.size()));
  const std::map<std::string, std::function<int(const Row&, const Row&)>> order = {
      {"name", [](const Row& a, const Row& b) { return a.name.compare(b.name); }},
      {"library", [](const Row& a, const Row& b) { return a.library.compare(b.library); }},
      {"family", [](const Row& a, const Row& b) { return a.family.compare(b.family); }},
      {"status", [](const Row& a, const Row& b) { return a.status.compare(b.status); }},
      {"nodes", [](const Row& a, const Row& b) { return (a.nodes > b.nodes) - (a.nodes < b.nodes); }},
      {"examples", [](const Row& a, const Row& b) { return (a.examples > b.examples) - (a.examples < b.examples); }},
      {"specializations",
       [](const Row& a, const Row& b) { return (a.specializations > b.specializations) - (a.specializations < b.specializations); }},
      {"rejected", [](const Row& a, const Row& b) { return (a.rejected > b.rejected) - (a.rejected < b.rejected); }},
      {"guards", [](const Row& a, const Row& b) { return (a.guards > b.guards) - (a.guards < b.guards); }},
      {"time", [](const Row& a, const Row& b) { return (a.time_ns > b.time_ns) - (a.time_ns < b.time_ns); }},
  };
  const auto by = order.find(sort);
  if (by == order.end()) {
    // "dynamic" needs the graph files: only the shown order is checked, below.
    if (sort != "dynamic") expect("sort column", sort, "(a known column)");
  } else {
    // Ties in graph order, reversed with the rest when descending (as the page sorts).
    std::sort(matching.begin(), matching.end(), [&](size_t a, size_t b) {
      const int c = by->second(all[a], all[b]);
      const int t = c != 0 ? c : (a > b) - (a < b);
      return desc ? t > 0 : t < 0;
    });
  }
  const size_t page = std::stoul("0" + state["data-page"]), size = std::stoul("0" + state["data-page-size"]);
  const size_t first = std::min(matching.size(), page * size), last = std::min(matching.size(), first + size);
  expect("rows on the page", std::to_string(rows.size()), std::to_string(last - first));
  if (size == 0 || rows.size() > size) expect("rows per page", std::to_string(rows.size()), "at most " + state["data-page-size"]);
  std::vector<int64_t> dynamic;
  for (size_t k = 0; k < rows.size(); ++k) {
    const size_t i = rows[k].first;
    auto& cells = rows[k].second;
    if (i >= all.size()) {
      expect(fmt::format("row {}", k), std::to_string(i), "(a graph index)");
      continue;
    }
    if (by != order.end() && first + k < last) expect(fmt::format("row {} of the page (graph index)", k), std::to_string(i), std::to_string(matching[first + k]));
    const Row& r = all[i];
    const GraphResults& g = results.graphs[i];
    const std::string where = fmt::format("graph {} ({})", i, g.name);
    expect(where + " name", cells["name"], r.name);
    expect(where + " library", cells["library"], r.library);
    expect(where + " family", cells["family"], r.family);
    expect(where + " status", cells["status"], r.status);
    expect(where + " nodes", cells["nodes"], std::to_string(r.nodes));
    expect(where + " examples", cells["examples"], std::to_string(r.examples));
    expect(where + " specialisations", cells["specializations"], std::to_string(r.specializations));
    expect(where + " rejected", cells["rejected"], std::to_string(r.rejected));
    expect(where + " guards", cells["guards"], std::to_string(r.guards));
    expect(where + " time", cells["time"], fmt::format("{:.3f}", double(r.time_ns) / 1e6));
    const std::string& d = cells["dynamic"];
    if (d != "\xE2\x80\x93" && (d.empty() || d.find_first_not_of("0123456789") != std::string::npos))
      expect(where + " dynamic dims", d, "(a count, or - without the graph file)");
    dynamic.push_back(d.empty() || d.find_first_not_of("0123456789") != std::string::npos ? -1 : std::stoll(d));
  }
  if (sort == "dynamic")
    for (size_t k = 1; k < dynamic.size(); ++k)
      if (desc ? dynamic[k] > dynamic[k - 1] : dynamic[k] < dynamic[k - 1])
        expect(fmt::format("row {} sorted by dynamic dims", k), std::to_string(dynamic[k]), "in order");

  uint64_t nodes = 0, examples = 0, specs = 0, rejected_total = 0;
  size_t failed = 0;
  for (const Row& r : all) {
    nodes += r.nodes, examples += r.examples, specs += r.specializations, rejected_total += r.rejected;
    failed += r.status != "ok";
  }
  expect("total graphs", total(dom, "total-graphs"), std::to_string(all.size()));
  expect("total nodes", total(dom, "total-nodes"), std::to_string(nodes));
  expect("total examples", total(dom, "total-examples"), std::to_string(examples));
  expect("total failed", total(dom, "total-failed"), std::to_string(failed));
  expect("total specialisations", total(dom, "total-specializations"), std::to_string(specs));
  expect("total rejected", total(dom, "total-rejected"), std::to_string(rejected_total));

  // Distributions: each bin "lo-hi:count" holds the graphs whose value is in [lo, hi].
  const std::pair<std::string, std::function<bool(const Row&, uint64_t&)>> dists[] = {
      {"nodes", [](const Row& r, uint64_t& v) { v = r.nodes; return r.status != "load_error"; }},
      {"guards", [](const Row& r, uint64_t& v) { v = r.guards; return r.status == "ok"; }},
      {"specializations", [](const Row& r, uint64_t& v) { v = r.specializations; return r.status == "ok"; }},
  };
  for (const auto& [key, value] : dists) {
    auto attrs = tag_attributes(dom, "id=\"chart-dist-" + key + "\"", found);
    if (!found || !attrs.contains("data-bins")) {
      expect("distribution " + key, "(missing)", "a histogram");
      continue;
    }
    std::vector<uint64_t> values;
    for (const Row& r : all) {
      uint64_t v = 0;
      if (value(r, v)) values.push_back(v);
    }
    std::istringstream bins(attrs["data-bins"]);
    std::string bin;
    size_t counted = 0;
    while (bins >> bin) {
      uint64_t lo = 0, hi = 0, count = 0;
      if (std::sscanf(bin.c_str(), "%lu-%lu:%lu", &lo, &hi, &count) != 3) {
        expect("distribution " + key + " bin", bin, "lo-hi:count");
        continue;
      }
      const auto in_bin = std::count_if(values.begin(), values.end(), [&](uint64_t v) { return v >= lo && v <= hi; });
      expect(fmt::format("distribution {} bin [{}, {}]", key, lo, hi), std::to_string(count), std::to_string(in_bin));
      counted += count;
    }
    expect("distribution " + key + " graphs", std::to_string(counted), std::to_string(values.size()));
  }

  // Unsupported ops: graphs blocked per op.
  std::map<std::string, size_t> blocked;
  for (const GraphResults& g : results.graphs)
    if (g.status == GraphStatus::Unsupported) ++blocked[blocked_op(g)];
  std::map<std::string, std::string> listed;
  {
    size_t at = 0;
    std::string row;
    while (next_between(dom, at, "<tr data-op=\"", "</tr>", row)) {
      const size_t quote = row.find("\">");
      std::string count;
      size_t cell = quote;
      if (quote == std::string::npos || !next_between(row, cell, "<td class=\"num\">", "</td>", count)) continue;
      listed[unescape(row.substr(0, quote))] = count;
    }
  }
  for (const auto& [op, n] : blocked) expect("graphs blocked by " + op, listed.contains(op) ? listed[op] : "(not listed)", std::to_string(n));
  for (const auto& [op, n] : listed)
    if (!blocked.contains(op)) expect("graphs blocked by " + op, n, "(none)");

  if (problems) return 1;
  fmt::print("report_dom_check: {} graphs, {} matching the table's filters, {} rows shown; every number on the page matches the results\n",
             all.size(), matching.size(), rows.size());
  return 0;
}
