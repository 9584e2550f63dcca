#include "batch/example_columns.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "batch/ndjson_lines.h"
#include "formats/example_set.h"
#include "graph/example_view.h"

namespace symshape {

void ExampleColumns::init_layout(const Graph& g) {
  ph_first_.clear();
  ph_rank_.clear();
  uint32_t k = 0;
  for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
    ph_first_.push_back(k);
    ph_rank_.push_back(g.placeholder_rank(PlaceholderId(p)));
    k += ph_rank_.back();
  }
  storage_.assign(k, {});
}

void ExampleColumns::adopt_storage() {
  cols_.clear();
  for (auto& c : storage_) cols_.push_back(c.data());
}

bool ExampleColumns::regular(size_t e) const {
  if (given_rank_.empty()) return true;
  for (uint32_t p = 0; p < num_placeholders(); ++p)
    if (given_rank_[p * n_ + e] != ph_rank_[p]) return false;
  return true;
}

void ExampleColumns::sizes_of(size_t e, std::vector<std::vector<int64_t>>& out) const {
  out.resize(num_placeholders());
  for (uint32_t p = 0; p < num_placeholders(); ++p) {
    out[p].clear();
    if (given_rank(p, e) != ph_rank_[p]) {
      auto it = std::lower_bound(irregular_.begin(), irregular_.end(), std::pair(e, p),
                                 [](const Irregular& a, std::pair<size_t, uint32_t> b) {
                                   return std::pair(a.example, a.placeholder) < b;
                                 });
      if (it != irregular_.end() && it->example == e && it->placeholder == p) out[p] = it->sizes;
      continue;
    }
    for (uint32_t d = 0; d < ph_rank_[p]; ++d) out[p].push_back(cols_[ph_first_[p] + d][e]);
  }
}

ExampleColumns ExampleColumns::gather(std::span<const uint32_t> rows) const {
  ExampleColumns c;
  c.ph_first_ = ph_first_;
  c.ph_rank_ = ph_rank_;
  c.n_ = rows.size();
  c.storage_.resize(cols_.size());
  for (size_t k = 0; k < cols_.size(); ++k) {
    std::vector<int64_t>& col = c.storage_[k];
    col.resize(rows.size());
    const int64_t* src = cols_[k];
    for (size_t i = 0; i < rows.size(); ++i) col[i] = src[rows[i]];
  }
  if (!given_rank_.empty()) {
    const uint32_t np = num_placeholders();
    c.given_rank_.resize(size_t(np) * rows.size());
    for (uint32_t p = 0; p < np; ++p)
      for (size_t i = 0; i < rows.size(); ++i) c.given_rank_[p * rows.size() + i] = given_rank_[p * n_ + rows[i]];
    for (size_t i = 0; i < rows.size(); ++i)  // irregular_ stays sorted: rows ascend
      for (auto it = std::lower_bound(irregular_.begin(), irregular_.end(), size_t(rows[i]),
                                      [](const Irregular& a, size_t e) { return a.example < e; });
           it != irregular_.end() && it->example == rows[i]; ++it)
        c.irregular_.push_back({i, it->placeholder, it->sizes});
  }
  c.from_lines_ = from_lines_;
  c.source_index_.resize(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) c.source_index_[i] = source_index(rows[i]);
  c.adopt_storage();
  return c;
}

ExampleColumns ExampleColumns::from_graph(const Graph& g) {
  ExampleColumns c;
  c.init_layout(g);
  c.n_ = g.num_examples();
  bool any_irregular = false;
  for (uint32_t e = 0; e < g.num_examples(); ++e) {
    const ExampleView ex = g.example(e);
    for (uint32_t p = 0; p < c.num_placeholders(); ++p)
      if (ex.input_sizes(PlaceholderId(p)).size() != c.ph_rank_[p]) any_irregular = true;
  }
  if (any_irregular) c.given_rank_.assign(size_t(c.num_placeholders()) * c.n_, 0);
  for (auto& col : c.storage_) col.assign(c.n_, -1);
  for (uint32_t e = 0; e < g.num_examples(); ++e) {
    const ExampleView ex = g.example(e);
    for (uint32_t p = 0; p < c.num_placeholders(); ++p) {
      const std::span<const int64_t> s = ex.input_sizes(PlaceholderId(p));
      for (uint32_t d = 0; d < c.ph_rank_[p] && d < s.size(); ++d) c.storage_[c.ph_first_[p] + d][e] = s[d];
      if (any_irregular) {
        c.given_rank_[p * c.n_ + e] = uint8_t(std::min<size_t>(s.size(), 255));
        if (s.size() != c.ph_rank_[p]) c.irregular_.push_back({e, p, std::vector<int64_t>(s.begin(), s.end())});
      }
    }
  }
  c.adopt_storage();
  return c;
}

ExampleColumns ExampleColumns::borrow(const Graph& g, const int64_t* const* columns, size_t n) {
  ExampleColumns c;
  c.init_layout(g);
  c.storage_.clear();
  c.n_ = n;
  uint32_t total = 0;
  for (uint32_t r : c.ph_rank_) total += r;
  c.cols_.assign(columns, columns + total);
  return c;
}

ExampleColumns ExampleColumns::from_columns(std::vector<uint32_t> ranks, std::vector<std::vector<int64_t>> columns) {
  ExampleColumns c;
  uint32_t k = 0;
  for (uint32_t r : ranks) {
    c.ph_first_.push_back(k);
    k += r;
  }
  c.ph_rank_ = std::move(ranks);
  c.n_ = columns.empty() ? 0 : columns[0].size();
  for (auto& col : columns) col.resize(c.n_, -1);
  c.storage_ = std::move(columns);
  c.adopt_storage();
  return c;
}

ExampleColumns ExampleColumns::from_ndjson(const Graph& g, std::string_view text, std::string_view file_name,
                                           Diagnostics& problems) {
  ExampleColumns c;
  c.init_layout(g);
  const uint32_t np = c.num_placeholders();
  std::vector<std::vector<int64_t>> row(np);
  std::vector<uint8_t> seen(np);
  bool any_irregular = false;
  std::vector<uint8_t> ranks;  // [e * np + p] while loading; transposed at the end
  auto problem = [&](uint64_t line, std::string field, std::string msg) {
    Diagnostic d;
    d.code = GraphErrc::BadValue;
    d.file = std::string(file_name);
    d.graph = std::string(g.name());
    d.field = fmt::format("line {}{}{}", line, field.empty() ? "" : ": ", field);
    d.message = std::move(msg);
    problems.add(std::move(d));
  };
  auto read_example = [&](uint64_t line_no, simdjson::dom::object obj) {
    std::fill(seen.begin(), seen.end(), 0);
    bool bad = false;
    for (auto kv : obj) {
      const NodeId n = g.find_node(kv.key);
      const PlaceholderId p = n.valid() ? g.placeholder_of(n) : PlaceholderId();
      if (!p.valid()) {
        problem(line_no, std::string(kv.key), fmt::format("'{}' is not an input of graph '{}'", std::string(kv.key), g.name()));
        bad = true;
        break;
      }
      simdjson::dom::array arr;
      if (kv.value.get_array().get(arr)) {
        problem(line_no, std::string(kv.key), "expected a list of sizes");
        bad = true;
        break;
      }
      auto& sizes = row[p.index()];
      sizes.clear();
      size_t d = 0;
      for (auto v : arr) {
        int64_t x;
        if (v.get_int64().get(x) || x < 0) {
          problem(line_no, fmt::format("{}[{}]", std::string(kv.key), d), "expected a non-negative integer size");
          bad = true;
          break;
        }
        if (sizes.size() == 255) {
          problem(line_no, std::string(kv.key), "more than 255 dimensions");
          bad = true;
          break;
        }
        sizes.push_back(x);
        ++d;
      }
      if (bad) break;
      seen[p.index()] = 1;
    }
    if (bad) return;
    for (uint32_t p = 0; p < np && !bad; ++p)
      if (!seen[p]) {
        problem(line_no, std::string(g.node_name(g.placeholder_node(PlaceholderId(p)))), "missing input");
        bad = true;
      }
    if (bad) return;
    const size_t e = c.n_++;
    c.source_index_.push_back(line_no);
    for (uint32_t p = 0; p < np; ++p) {
      for (uint32_t d = 0; d < c.ph_rank_[p]; ++d) c.storage_[c.ph_first_[p] + d].push_back(d < row[p].size() ? row[p][d] : -1);
      ranks.push_back(uint8_t(row[p].size()));
      if (row[p].size() != c.ph_rank_[p]) {
        any_irregular = true;
        c.irregular_.push_back({e, p, row[p]});
      }
    }
  };
  for_each_ndjson_object(text, "input sizes, e.g. {\"x\": [2, 3, 64, 64]}", read_example,
                         [&](uint64_t line_no, std::string msg) { problem(line_no, "", std::move(msg)); });
  if (any_irregular) {
    c.given_rank_.assign(size_t(np) * c.n_, 0);
    for (size_t e = 0; e < c.n_; ++e)
      for (uint32_t p = 0; p < np; ++p) c.given_rank_[p * c.n_ + e] = ranks[e * np + p];
  }
  c.from_lines_ = true;
  c.adopt_storage();
  return c;
}

bool ExampleColumns::from_ndjson_file(const Graph& g, const std::string& path, ExampleColumns& out, Diagnostics& problems) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    Diagnostic d;
    d.code = GraphErrc::Io;
    d.file = path;
    d.message = "cannot open file";
    problems.add(std::move(d));
    return false;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  out = from_ndjson(g, ss.str(), path, problems);
  return true;
}

bool ExampleColumns::from_example_set_file(const Graph& g, const std::string& path, ExampleColumns& out, std::string& error) {
  ExampleSetFile set;
  if (!set.open(path, error)) return false;
  ExampleColumns c;
  c.init_layout(g);
  c.n_ = set.num_examples();
  std::vector<int32_t> file_ph(c.num_placeholders(), -1);
  for (uint32_t q = 0; q < set.num_placeholders(); ++q) {
    const NodeId n = g.find_node(set.placeholder_name(q));
    const PlaceholderId p = n.valid() ? g.placeholder_of(n) : PlaceholderId();
    if (!p.valid()) {
      error = fmt::format("{}: input '{}' is not an input of graph '{}'", path, set.placeholder_name(q), g.name());
      return false;
    }
    if (set.declared_rank(q) != c.ph_rank_[p.index()]) {
      error = fmt::format("{}: input '{}' has rank {} but graph '{}' declares {}", path, set.placeholder_name(q),
                          set.declared_rank(q), g.name(), c.ph_rank_[p.index()]);
      return false;
    }
    file_ph[p.index()] = int32_t(q);
  }
  for (uint32_t p = 0; p < c.num_placeholders(); ++p)
    if (file_ph[p] < 0) {
      error = fmt::format("{}: no sizes for input '{}'", path, g.node_name(g.placeholder_node(PlaceholderId(p))));
      return false;
    }
  bool any_irregular = false;
  for (uint32_t p = 0; p < c.num_placeholders(); ++p) {
    for (uint32_t d = 0; d < c.ph_rank_[p]; ++d) {
      const std::span<const int64_t> col = set.column(uint32_t(file_ph[p]), d);
      c.storage_[c.ph_first_[p] + d].assign(col.begin(), col.end());
    }
    for (uint8_t r : set.input_rank(uint32_t(file_ph[p])))
      if (r != c.ph_rank_[p]) any_irregular = true;
  }
  if (any_irregular) {
    c.given_rank_.assign(size_t(c.num_placeholders()) * c.n_, 0);
    for (uint32_t p = 0; p < c.num_placeholders(); ++p) {
      const std::span<const uint8_t> r = set.input_rank(uint32_t(file_ph[p]));
      std::copy(r.begin(), r.end(), c.given_rank_.begin() + std::ptrdiff_t(p * c.n_));
    }
    for (uint32_t i = 0; i < set.num_irregular(); ++i) {
      const auto ir = set.irregular(i);
      for (uint32_t p = 0; p < c.num_placeholders(); ++p)
        if (uint32_t(file_ph[p]) == ir.placeholder)
          c.irregular_.push_back({ir.example, p, std::vector<int64_t>(ir.sizes.begin(), ir.sizes.end())});
    }
    std::sort(c.irregular_.begin(), c.irregular_.end(), [](const Irregular& a, const Irregular& b) {
      return std::pair(a.example, a.placeholder) < std::pair(b.example, b.placeholder);
    });
  }
  c.adopt_storage();
  out = std::move(c);
  return true;
}

}  // namespace symshape
