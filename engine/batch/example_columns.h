#pragma once
// Example input sizes as columns, the batch engine's input: one int64 column per
// (placeholder, dim), placeholder-major and dim-minor as formats/examples.fbs lays them
// out, plus the rank each example actually gave per placeholder. A column entry of an
// example whose rank is too small is -1; irregular examples (a rank other than the
// declared one) also keep their full sizes, so a new specialisation can be traced from them.
//
// Built from a graph's own examples, an NDJSON stream (`{"x": [2, 3, 64, 64]}` per line),
// an examples.fb set, or borrowed caller-owned column pointers (no copy: the C++ facade
// and NumPy arrays).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "graph/diagnostic.h"
#include "graph/graph.h"

namespace symshape {

class ExampleColumns {
 public:
  ExampleColumns() = default;
  ExampleColumns(ExampleColumns&&) = default;  // column pointers stay valid: buffers move
  ExampleColumns& operator=(ExampleColumns&&) = default;
  ExampleColumns(const ExampleColumns&) = delete;
  ExampleColumns& operator=(const ExampleColumns&) = delete;

  // The graph's golden examples.
  static ExampleColumns from_graph(const Graph& g);
  // One JSON object per line, keyed by placeholder name. A malformed line (bad JSON, an
  // unknown or missing input, a non-integer or negative size) is reported in `problems`
  // with its line number and left out; the other lines still load. Blank lines are skipped.
  static ExampleColumns from_ndjson(const Graph& g, std::string_view text, std::string_view file_name,
                                    Diagnostics& problems);
  static bool from_ndjson_file(const Graph& g, const std::string& path, ExampleColumns& out, Diagnostics& problems);
  // An examples.fb set for this graph (placeholders matched by name).
  static bool from_example_set_file(const Graph& g, const std::string& path, ExampleColumns& out, std::string& error);
  // Caller-owned columns (num_columns == sum of the graph's ranks, each `n` long, every
  // example of declared rank). Nothing is copied; the pointers must outlive this object.
  static ExampleColumns borrow(const Graph& g, const int64_t* const* columns, size_t n);
  // Owned columns for inputs of the given ranks (each column as long as the first).
  static ExampleColumns from_columns(std::vector<uint32_t> ranks, std::vector<std::vector<int64_t>> columns);

  size_t num_examples() const { return n_; }
  uint32_t num_placeholders() const { return uint32_t(ph_first_.size()); }
  uint32_t rank(uint32_t p) const { return ph_rank_[p]; }  // declared
  uint32_t num_columns() const { return uint32_t(cols_.size()); }
  uint32_t column_index(uint32_t p, uint32_t dim) const { return ph_first_[p] + dim; }
  const int64_t* column(uint32_t p, uint32_t dim) const { return cols_[ph_first_[p] + dim]; }
  const int64_t* column(uint32_t k) const { return cols_[k]; }
  // Rank the example gave for placeholder p (== rank(p) unless irregular).
  uint32_t given_rank(uint32_t p, size_t e) const { return given_rank_.empty() ? ph_rank_[p] : given_rank_[p * n_ + e]; }
  bool regular(size_t e) const;
  // Every example gives every input its declared rank (no irregular example at all).
  bool all_declared_ranks() const { return given_rank_.empty(); }
  // The example's sizes of every input (for tracing a new specialisation from it).
  void sizes_of(size_t e, std::vector<std::vector<int64_t>>& out) const;
  // Position of the example in the stream it came from (NDJSON line number, example index).
  uint64_t source_index(size_t e) const { return source_index_.empty() ? e : source_index_[e]; }
  // The NDJSON line the example came from (1-based), or 0 when the source has no lines.
  uint64_t line_of(size_t e) const { return from_lines_ ? source_index(e) : 0; }
  // An owned copy of the given examples, in the given order (ranks, irregular sizes and
  // source positions kept): a stream's later specialisations run over what is still unserved.
  ExampleColumns gather(std::span<const uint32_t> rows) const;

 private:
  void init_layout(const Graph& g);
  void adopt_storage();  // cols_ point into storage_

  size_t n_ = 0;
  std::vector<uint32_t> ph_first_, ph_rank_;
  std::vector<const int64_t*> cols_;
  std::vector<std::vector<int64_t>> storage_;  // owned columns (empty when borrowed)
  std::vector<uint8_t> given_rank_;            // [p * n + e]; empty: all declared
  struct Irregular {
    size_t example;
    uint32_t placeholder;
    std::vector<int64_t> sizes;
  };
  std::vector<Irregular> irregular_;  // sorted by (example, placeholder)
  std::vector<uint64_t> source_index_;
  bool from_lines_ = false;  // source_index_ holds NDJSON line numbers
};

}  // namespace symshape
