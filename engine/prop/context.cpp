#include "prop/context.h"

#include <algorithm>

#include "core/error.h"
#include "expr/printer.h"
#include "prop/layout_predicates.h"

namespace symshape {

namespace {

constexpr std::string_view kKeyNames[] = {
    "dtype",   "layout",     "device",      "pin_memory", "memory_format", "alpha",     "beta",
    "approximate", "value",  "keepdim",     "dim",        "correction",    "unbiased",  "out_dtype",
    "negative_slope", "min_val", "max_val", "output_size", "scale",        "enable_gqa", "is_causal",
    "dropout_p", "attn_mask", "non_blocking", "copy",     "align_corners", "scale_factors"};
static_assert(std::size(kKeyNames) == static_cast<size_t>(Key::kCount));

}  // namespace

PropContext::PropContext(const Graph& g, ShapeEnv& e, ValueTable& values, std::span<ValId> node_values,
                         LayoutCache& layout)
    : graph(g), env(e), ar(e.arena()), vals(values), layout_(layout), node_values_(node_values) {
  layout_.clear();
  for (size_t i = 0; i < std::size(kKeyNames); ++i) keys_[i] = g.ops().find_key(kKeyNames[i]);
}

void PropContext::begin_node(NodeId n, bool is_view) {
  node_ = n;
  node_first_tensor_ = vals.tensor_count();
  node_is_view_ = is_view;
}

ArgId PropContext::kwarg(Key k) const {
  const KeyId key = keys_[static_cast<size_t>(k)];
  if (!key.valid()) return {};
  return graph.kwarg(node_, key);
}

ArgId PropContext::arg_or_kwarg(size_t i, std::string_view name) const {
  const ArgId a = arg(i);
  if (a.valid() || graph.node_kwargs(node_).empty()) return a;
  return graph.kwarg(node_, name);
}

void PropContext::fail_message(std::string message) { throw_error(ErrorKind::Shape, std::move(message)); }

void PropContext::fail_not_a_node() const { throw_error(ErrorKind::BadInput, "expected a node reference argument"); }

void PropContext::fail_not_a_tensor() const {
  throw_error(ErrorKind::BadInput, fmt::format("node {} ({}): expected a tensor argument", node_name(), target()));
}

std::optional<TensorId> PropContext::opt_tensor(ArgId a) const {
  if (is_none(a)) return std::nullopt;
  return tensor(a);
}

void PropContext::tensor_list(ArgId a, std::vector<TensorId>& out) const {
  out.clear();
  if (!a.valid()) return;
  if (graph.arg_kind(a) == ArgKind::Node) {
    // a node whose value is a list of tensors (e.g. split's output)
    ValId v = value_of(a);
    if (vals.kind(v) != ValKind::List) throw_error(ErrorKind::BadInput, "expected a list of tensors");
    for (ValId item : vals.items(v))
      out.push_back(vals.kind(item) == ValKind::Tensor ? vals.as_tensor(item) : TensorId());
    return;
  }
  if (graph.arg_kind(a) != ArgKind::List) throw_error(ErrorKind::BadInput, "expected a list of tensors");
  for (ArgId item : graph.list_items(a)) out.push_back(is_none(item) ? TensorId() : tensor(item));
}

ExprId PropContext::int_expr(ArgId a) const {
  if (!a.valid()) throw_error(ErrorKind::BadInput, fmt::format("node {}: missing int argument", node_name()));
  switch (graph.arg_kind(a)) {
    case ArgKind::Int: return ar.integer(graph.arg_int(a));
    case ArgKind::Bool: return ar.integer(graph.arg_bool(a) ? 1 : 0);
    case ArgKind::Node: {
      ValId v = value_of(a);
      if (vals.kind(v) == ValKind::SymInt) return vals.as_expr(v);
      if (vals.kind(v) == ValKind::SymBool) return ar.bool_to_int(vals.as_expr(v));
      break;
    }
    default: break;
  }
  throw_error(ErrorKind::BadInput, fmt::format("node {}: expected an int argument", node_name()));
}

int64_t PropContext::int_const(ArgId a) { return guard_int(int_expr(a)); }

std::optional<int64_t> PropContext::opt_int(ArgId a) {
  if (is_none(a)) return std::nullopt;
  return int_const(a);
}

void PropContext::int_list(ArgId a, Dims& out) const {
  out.clear();
  if (!a.valid()) return;
  if (graph.arg_kind(a) == ArgKind::List) {
    for (ArgId item : graph.list_items(a)) out.push_back(int_expr(item));
    return;
  }
  if (graph.arg_kind(a) == ArgKind::Node && vals.kind(value_of(a)) == ValKind::List) {
    for (ValId item : vals.items(value_of(a))) {
      if (vals.kind(item) != ValKind::SymInt) throw_error(ErrorKind::BadInput, "expected a list of ints");
      out.push_back(vals.as_expr(item));
    }
    return;
  }
  out.push_back(int_expr(a));
}

void PropContext::int_list_const(ArgId a, IntDims& out) {
  Dims d;
  int_list(a, d);
  out.clear();
  for (ExprId e : d) out.push_back(guard_int(e));
}

double PropContext::float_const(ArgId a) const {
  switch (graph.arg_kind(a)) {
    case ArgKind::Int: return static_cast<double>(graph.arg_int(a));
    case ArgKind::Float: return graph.arg_float(a);
    case ArgKind::Bool: return graph.arg_bool(a) ? 1.0 : 0.0;
    case ArgKind::Node: {
      ValId v = value_of(a);
      if (vals.kind(v) == ValKind::SymFloat || vals.kind(v) == ValKind::SymInt) {
        ExprId e = env.hint_value(vals.as_expr(v));
        if (ar.is_number(e)) return ar.float_value(e);
      }
      break;
    }
    default: break;
  }
  throw_error(ErrorKind::BadInput, fmt::format("node {}: expected a float argument", node_name()));
}

bool PropContext::bool_const(ArgId a) const {
  if (!a.valid()) return false;
  switch (graph.arg_kind(a)) {
    case ArgKind::Bool: return graph.arg_bool(a);
    case ArgKind::Int: return graph.arg_int(a) != 0;
    case ArgKind::None: return false;
    case ArgKind::Node: {
      ValId v = value_of(a);
      if (vals.kind(v) == ValKind::SymBool) return env.guard_bool(vals.as_expr(v));
      break;
    }
    default: break;
  }
  throw_error(ErrorKind::BadInput, fmt::format("node {}: expected a bool argument", node_name()));
}

std::string_view PropContext::string_arg(ArgId a) const {
  if (!a.valid() || graph.arg_kind(a) != ArgKind::String)
    throw_error(ErrorKind::BadInput, fmt::format("node {}: expected a string argument", node_name()));
  return graph.arg_string(a);
}

std::optional<DType> PropContext::opt_dtype(ArgId a) const {
  if (is_none(a)) return std::nullopt;
  if (graph.arg_kind(a) != ArgKind::DType)
    throw_error(ErrorKind::BadInput, fmt::format("node {}: expected a dtype argument", node_name()));
  return graph.arg_dtype(a);
}

ScalarCategory PropContext::scalar_category(ArgId a) const {
  switch (graph.arg_kind(a)) {
    case ArgKind::Bool: return ScalarCategory::Bool;
    case ArgKind::Int: return ScalarCategory::Integer;
    case ArgKind::Float: return ScalarCategory::Floating;
    case ArgKind::Node: {
      ValId v = value_of(a);
      switch (vals.kind(v)) {
        case ValKind::SymBool: return ScalarCategory::Bool;
        case ValKind::SymInt: return ScalarCategory::Integer;
        case ValKind::SymFloat: return ScalarCategory::Floating;
        case ValKind::Tensor: {
          DType d = vals.dtype(vals.as_tensor(v));
          if (d == DType::Bool) return ScalarCategory::Bool;
          if (d == DType::Complex64) return ScalarCategory::Complex;
          if (d == DType::Float16 || d == DType::BFloat16 || d == DType::Float32 || d == DType::Float64)
            return ScalarCategory::Floating;
          return ScalarCategory::Integer;
        }
        default: break;
      }
      break;
    }
    default: break;
  }
  throw_error(ErrorKind::BadInput, fmt::format("node {}: expected a scalar or tensor operand", node_name()));
}

// ---- results -------------------------------------------------------------------------------

TensorId PropContext::new_tensor(DType dtype, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                                 ExprId storage_offset) {
  return vals.add_tensor(dtype, sizes, strides, storage_offset.valid() ? storage_offset : ar.zero(),
                         vals.new_storage());
}

TensorId PropContext::new_contiguous(DType dtype, std::span<const ExprId> sizes) {
  Dims strides;
  contiguous_strides(sizes, strides);
  return new_tensor(dtype, sizes, strides);
}

TensorId PropContext::new_channels_last(DType dtype, std::span<const ExprId> sizes) {
  Dims strides;
  channels_last_strides(sizes, strides);
  return new_tensor(dtype, sizes, strides);
}

TensorId PropContext::new_view(TensorId base, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                               ExprId storage_offset) {
  return new_view_dtype(base, vals.dtype(base), sizes, strides, storage_offset);
}

TensorId PropContext::new_view_dtype(TensorId base, DType dtype, std::span<const ExprId> sizes,
                                     std::span<const ExprId> strides, ExprId storage_offset) {
  // contents of a view are not tracked (only whole get_attr tables are)
  return vals.add_tensor(dtype, sizes, strides, storage_offset, vals.tensor(base).storage);
}

void PropContext::set_tensor(TensorId t) {
  // a tensor from before this node returned by an in-place op: FakeTensor's version counter
  // moved, and no longer vouches for its contents. A view op returning its argument itself
  // (`to` with nothing to change, an already contiguous `contiguous`) leaves the version
  // and the memo as they were (transformers higgs_audio_v2's mask, `to` twice, indexed again)
  if (!node_is_view_ && t.index() < node_first_tensor_ && t.index() < layout_.nonzero_memo.size())
    layout_.nonzero_memo[t.index()] = ExprId();
  set_value(vals.of_tensor(t));
}

void PropContext::set_value(ValId v) { node_values_[node_.index()] = v; }

void PropContext::set_tensors(std::span<const TensorId> ts) {
  vals.begin_list();
  for (TensorId t : ts) vals.list_push(vals.of_tensor(t));
  set_value(vals.end_list());
}

void PropContext::contiguous_strides(std::span<const ExprId> sizes, Dims& out) {
  const size_t n = sizes.size();
  out.resize(n);
  if (n == 0) return;
  ExprId running = ar.one();
  for (size_t i = n; i-- > 0;) {
    out[i] = running;
    running = ar.mul(running, stride_factor(sizes[i]));
  }
}

bool PropContext::known_nonzero(std::span<const ExprId> sizes) {
  for (ExprId s : sizes)
    if (ar.is_integer_const(s) ? ar.int_value(s) == 0 : !known_true(ar.ne(s, ar.zero()))) return false;
  return true;
}

void PropContext::view_contiguous_strides(std::span<const ExprId> sizes, Dims& out) {
  if (!known_nonzero(sizes)) return contiguous_strides(sizes, out);
  out.resize(sizes.size());
  ExprId running = ar.one();
  for (size_t i = sizes.size(); i-- > 0;) {
    out[i] = running;
    running = ar.mul(running, sizes[i]);
  }
}

void PropContext::channels_last_strides(std::span<const ExprId> sizes, Dims& out) {
  const size_t n = sizes.size();
  out.resize(n);
  if (n != 4 && n != 5) {
    contiguous_strides(sizes, out);
    return;
  }
  // fill in order C, W, H, (D,) N with a running product of the raw sizes
  ExprId running = ar.one();
  out[1] = running;
  running = ar.mul(running, sizes[1]);
  for (size_t i = n - 1; i >= 2; --i) {
    out[i] = running;
    running = ar.mul(running, sizes[i]);
  }
  out[0] = running;
}

uint32_t PropContext::layout_index(std::span<const ExprId> sizes, std::span<const ExprId> strides) {
  if (layout_.last) {
    const LayoutEntry& e = layout_.entries[layout_.last - 1];
    if (e.rank == sizes.size() && std::equal(sizes.begin(), sizes.end(), layout_.dims.begin() + e.dims_begin) &&
        std::equal(strides.begin(), strides.end(), layout_.dims.begin() + e.dims_begin + e.rank))
      return layout_.last - 1;
  }
  uint64_t h = 0x9e3779b97f4a7c15ull * (sizes.size() + 1);
  for (ExprId e : sizes) h = (h ^ e.value) * 0xff51afd7ed558ccdull;
  for (ExprId e : strides) h = (h ^ (e.value + 0x51)) * 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 29;  // the slot is taken from the low bits: fold the well-mixed high bits in
  if (layout_.table.empty()) layout_.table.assign(256, 0);
  size_t mask = layout_.table.size() - 1;
  size_t slot = h & mask;
  while (uint32_t idx = layout_.table[slot]) {
    LayoutEntry& e = layout_.entries[idx - 1];
    if (e.hash == h && e.rank == sizes.size() &&
        std::equal(sizes.begin(), sizes.end(), layout_.dims.begin() + e.dims_begin) &&
        std::equal(strides.begin(), strides.end(), layout_.dims.begin() + e.dims_begin + e.rank)) {
      layout_.last = idx;
      return idx - 1;
    }
    slot = (slot + 1) & mask;
  }
  LayoutEntry e;
  e.hash = h;
  e.dims_begin = static_cast<uint32_t>(layout_.dims.size());
  e.rank = static_cast<uint8_t>(sizes.size());
  layout_.dims.insert(layout_.dims.end(), sizes.begin(), sizes.end());
  layout_.dims.insert(layout_.dims.end(), strides.begin(), strides.end());
  layout_.entries.push_back(e);
  layout_.table[slot] = static_cast<uint32_t>(layout_.entries.size());
  if (layout_.entries.size() * 2 > layout_.table.size()) {
    std::vector<uint32_t> table(layout_.table.size() * 2, 0);
    const size_t m = table.size() - 1;
    for (uint32_t i = 0; i < layout_.entries.size(); ++i) {
      size_t sl = layout_.entries[i].hash & m;
      while (table[sl]) sl = (sl + 1) & m;
      table[sl] = i + 1;
    }
    layout_.table.swap(table);
  }
  layout_.last = static_cast<uint32_t>(layout_.entries.size());
  return layout_.last - 1;
}

bool PropContext::is_contiguous(TensorId t) {
  return cached_layout(t, kContiguous, [&] { return compute_is_contiguous(t); });
}

bool PropContext::is_channels_last_contiguous(TensorId t) {
  return cached_layout(t, kChannelsLast, [&] { return compute_is_channels_last_contiguous(t); });
}

bool PropContext::is_non_overlapping_and_dense(TensorId t) {
  return cached_layout(t, kDense, [&] { return compute_is_non_overlapping_and_dense(t); });
}

// Layout predicates never raise on unbacked sizes: an undecidable stride equality
// counts as "no" (guard_or_false), like PyTorch's size-oblivious contiguity checks
// (layout_predicates.h).
bool PropContext::compute_is_contiguous(TensorId t) {
  return layout::contiguous_sym(*this, vals.sizes(t), vals.strides(t), [this](ExprId c) { return guard_or_false(c); });
}

bool PropContext::compute_is_channels_last_contiguous(TensorId t) {
  return layout::channels_last_contiguous(*this, vals.sizes(t), vals.strides(t),
                                          [this](ExprId c) { return guard_or_false(c); });
}

// Asking the (cached) contiguity predicates first also spares most tensors the size-2
// questions of the sort.
bool PropContext::compute_is_non_overlapping_and_dense(TensorId t) {
  if (is_contiguous(t)) return true;
  const size_t n = vals.rank(t);
  if ((n == 4 || n == 5) && is_channels_last_contiguous(t)) return true;
  return layout::dense_by_sorted_strides(*this, vals.sizes(t), vals.strides(t),
                                         [this](ExprId c) { return guard_or_false(c); });
}

// ---- checks ---------------------------------------------------------------------------------

bool PropContext::guard_or_true(ExprId cond) {
  if (cond == ar.true_()) return true;
  if (cond == ar.false_()) return false;
  return env.guard_or_true(cond);
}

int64_t PropContext::guard_int(ExprId e) {
  if (ar.is_integer_const(e)) return ar.int_value(e);
  return env.guard_int(e, node_name());
}

int64_t PropContext::wrap_dim(int64_t dim, int64_t rank) {
  const int64_t n = rank <= 0 ? 1 : rank;
  if (dim < -n || dim >= n)
    throw_error(ErrorKind::Shape, fmt::format("IndexError: Dimension out of range (expected to be in range of "
                                              "[{}, {}], but got {})",
                                              -n, n - 1, dim));
  return dim < 0 ? dim + n : dim;
}

std::string PropContext::str(ExprId e) const { return to_str(ar, e); }

std::string PropContext::shape_str(std::span<const ExprId> s) const {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) out += ", ";
    out += to_str(ar, s[i]);
  }
  return out + "]";
}

}  // namespace symshape
