#include "guard_batch.h"

#include <fmt/core.h>

#include <algorithm>

#include "conform/specialization.h"

namespace symshape::py {

namespace {

constexpr size_t kChunkRows = 1 << 14;  // rows per BatchProgram run: scratch stays in cache

const InputSource* find_source(const Propagator& prop, SourceId s) {
  for (const InputSource& in : prop.input_sources())
    if (in.source == s) return &in;
  return nullptr;
}

}  // namespace

GuardBatch::GuardBatch(std::shared_ptr<const PropagationHandle> p) : p_(std::move(p)) {
  const Graph& g = p_->g->graph;
  for (uint32_t ph = 0; ph < g.num_placeholders(); ++ph) {
    first_column_.push_back(static_cast<uint32_t>(columns_.size()));
    for (uint32_t d = 0; d < g.placeholder_rank(PlaceholderId(ph)); ++d) columns_.push_back({ph, d});
  }
  const ExprArena& ar = p_->env.arena();
  const ShapeEnv::ProducedGuards& pg = p_->guards;
  for (size_t i = 0; i < pg.bound_symbols.size(); ++i) {
    const InputSource* in = find_source(*p_->prop, pg.bound_sources[i]);
    if (!in) throw Error(ErrorKind::Internal, "a guard symbol has no input source");
    const uint32_t sym = ar.symbol_id(pg.bound_symbols[i]).index();
    symbol_slots_ = std::max(symbol_slots_, sym + 1);
    feeds_.push_back({sym, *in});
  }
  for (ExprId e : pg.exprs)
    if (e.valid()) roots_.push_back(e);
  guard_roots_ = roots_.size();
  for (const auto& [src, expr] : pg.source_equalities) {
    const InputSource* in = find_source(*p_->prop, src);
    if (!in) throw Error(ErrorKind::Internal, "a source equality reads no input source");
    equality_sources_.push_back(*in);
    roots_.push_back(expr);
  }
  program_ = std::make_unique<BatchProgram>(ar, roots_);
}

int32_t GuardBatch::column_of(uint32_t placeholder, uint32_t dim) const {
  return static_cast<int32_t>(first_column_[placeholder] + dim);
}

std::vector<std::string> GuardBatch::column_names() const {
  const Graph& g = p_->g->graph;
  std::vector<std::string> names;
  for (const SizeColumn& c : columns_)
    names.push_back(fmt::format("{}.size()[{}]", g.node_name(g.placeholder_node(PlaceholderId(c.placeholder))), c.dim));
  return names;
}

void GuardBatch::evaluate(const std::vector<const int64_t*>& col, size_t rows, uint8_t* verdict) const {
  const Graph& g = p_->g->graph;
  const size_t nroots = roots_.size();
  const size_t ncols = columns_.size();
  const size_t chunk = std::min(rows, kChunkRows);
  std::vector<int64_t> out(nroots * chunk);
  std::vector<int64_t*> out_ptr(nroots);
  std::vector<uint8_t> error_rows(chunk);
  std::vector<const int64_t*> sym_col(symbol_slots_, nullptr);
  // Contiguous strides of every input dim, a column per dim (product of max(size, 1) to
  // the right), and a zero column for storage offsets; computed per chunk, column-wise.
  std::vector<int64_t> strides(ncols * chunk);
  std::vector<int64_t> zeros(chunk, 0);
  std::vector<uint8_t> overflow(chunk);
  auto column = [&](const InputSource& s, size_t begin) -> const int64_t* {
    const size_t c = static_cast<size_t>(column_of(s.placeholder, s.dim));
    switch (s.kind) {
      case SourceKind::Size: return col[c] + begin;
      case SourceKind::Stride: return strides.data() + c * chunk;
      default: return zeros.data();
    }
  };
  for (size_t begin = 0; begin < rows; begin += chunk) {
    const size_t n = std::min(chunk, rows - begin);
    std::fill(overflow.begin(), overflow.begin() + n, 0);
    for (uint32_t ph = 0; ph < g.num_placeholders(); ++ph) {
      const uint32_t rank = g.placeholder_rank(PlaceholderId(ph));
      if (rank == 0) continue;
      const size_t first = first_column_[ph];
      int64_t* last = strides.data() + (first + rank - 1) * chunk;
      std::fill(last, last + n, 1);
      for (uint32_t d = rank - 1; d-- > 0;) {
        const int64_t* right = strides.data() + (first + d + 1) * chunk;
        const int64_t* size = col[first + d + 1] + begin;
        int64_t* here = strides.data() + (first + d) * chunk;
        for (size_t r = 0; r < n; ++r)
          overflow[r] |= __builtin_mul_overflow(right[r], std::max<int64_t>(size[r], 1), &here[r]);
      }
    }
    for (const SymbolFeed& feed : feeds_) sym_col[feed.symbol] = column(feed.source, begin);
    for (size_t k = 0; k < nroots; ++k) out_ptr[k] = out.data() + k * chunk;
    std::fill(error_rows.begin(), error_rows.begin() + n, 0);
    if (nroots) program_->run(sym_col, n, out_ptr, error_rows.data());
    uint8_t* v = verdict + begin;
    for (size_t r = 0; r < n; ++r) v[r] = error_rows[r] == 0 && overflow[r] == 0;
    for (size_t k = 0; k < guard_roots_; ++k) {
      const int64_t* o = out_ptr[k];
      for (size_t r = 0; r < n; ++r) v[r] &= o[r] != 0;
    }
    for (size_t k = guard_roots_; k < nroots; ++k) {
      const int64_t* o = out_ptr[k];
      const int64_t* c = column(equality_sources_[k - guard_roots_], begin);
      for (size_t r = 0; r < n; ++r) v[r] &= o[r] == c[r];
    }
  }
}

void GuardBatch::evaluate_scalar(const std::vector<const int64_t*>& col, size_t rows, uint8_t* verdict) const {
  const ExprArena& ar = p_->env.arena();
  const ShapeEnv::ProducedGuards& pg = p_->guards;
  const Graph& g = p_->g->graph;
  std::vector<std::vector<int64_t>> sizes(g.num_placeholders());
  std::vector<std::span<const int64_t>> spans(g.num_placeholders());
  Bindings b;
  for (size_t row = 0; row < rows; ++row) {
    for (uint32_t ph = 0; ph < g.num_placeholders(); ++ph) {
      sizes[ph].resize(g.placeholder_rank(PlaceholderId(ph)));
      for (uint32_t d = 0; d < sizes[ph].size(); ++d) sizes[ph][d] = col[column_of(ph, d)][row];
      spans[ph] = sizes[ph];
    }
    bool ok = true;
    b.clear();
    for (const SymbolFeed& feed : feeds_) {
      std::optional<int64_t> v = input_source_value(feed.source, spans);
      if (!v) ok = false;
      else b.set(SymbolId(feed.symbol), *v);
    }
    try {
      for (size_t k = 0; ok && k < pg.source_equalities.size(); ++k) {
        std::optional<int64_t> v = input_source_value(equality_sources_[k], spans);
        ok = v && evaluate_int(ar, pg.source_equalities[k].second, b) == *v;
      }
      for (size_t k = 0; ok && k < pg.exprs.size(); ++k)
        if (pg.exprs[k].valid()) ok = evaluate_bool(ar, pg.exprs[k], b);
    } catch (const Error&) {
      ok = false;  // overflow or division by zero at these sizes
    }
    verdict[row] = ok;
  }
}

}  // namespace symshape::py
