// ShapeEnv symbol creation (semantics.md C.3, C.4): 0/1 specialisation, duck sizing,
// STATIC, constraints, hash naming; unbacked and float symbols; fakeified tensors.
#include "shape_env/shape_env.h"

#include <fmt/core.h>
#include <openssl/evp.h>

#include <algorithm>

#include "core/checked_math.h"
#include "core/error.h"

namespace symshape {

namespace {

// sha256(text) mod 100, PyTorch's backed-symbol numbering.
uint32_t sha256_mod_100(std::string_view text) {
  unsigned char digest[32];
  unsigned int len = 0;
  EVP_Digest(text.data(), text.size(), digest, &len, EVP_sha256(), nullptr);
  uint32_t r = 0;
  for (unsigned i = 0; i < len; ++i) r = (r * 256 + digest[i]) % 100;
  return r;
}

uint8_t size_facts(bool positive) { return kFactInteger | (positive ? (kFactPositive | kFactNonNegative) : 0); }

}  // namespace

ExprId ShapeEnv::new_symbol(std::string name, SymbolKind kind, uint8_t facts) {
  if (arena_.find_symbol(name)) throw_error(ErrorKind::Internal, fmt::format("symbol {} already exists", name));
  ExprId sym = arena_.symbol(name, kind, facts);
  SymbolState& st = state(sym);
  st = SymbolState{};
  st.range = ValueRange::unknown_int();
  return sym;
}

std::string ShapeEnv::backed_name(SourceId source) {
  uint32_t n;
  if (settings_.naming == SymbolNaming::Sequential) {
    n = sequential_counter_++;
  } else {
    n = sha256_mod_100(sources_.name(source));
  }
  while (true) {
    if (n >= used_numbers_.size()) used_numbers_.resize(n + 1, 0);
    std::string name = fmt::format("s{}", n);
    if (!used_numbers_[n] && !arena_.find_symbol(name)) {
      used_numbers_[n] = 1;
      return name;
    }
    ++n;
  }
}

// ---- symbol creation -----------------------------------------------------------------

ExprId ShapeEnv::create_symbol(int64_t val, SourceId source, DimDynamic dynamic, const DimConstraint* constraint,
                               bool positive, bool do_not_specialize_zero_one, std::string_view name) {
  if (constraint && constraint->max && constraint->min == *constraint->max) {
    if (val != constraint->min)
      throw_error(ErrorKind::ConstraintViolation,
                  fmt::format("Static shape constraint of {} does not match input size of {}, for {}", constraint->min,
                              val, sources_.name(source)));
    dynamic = DimDynamic::Static;
    constraint = nullptr;
  }
  if (constraint && (val < constraint->min || (constraint->max && val > *constraint->max)))
    throw_error(ErrorKind::ConstraintViolation,
                fmt::format("{} not in range [{}, {}]", val, constraint->min,
                            constraint->max ? std::to_string(*constraint->max) : std::string("int_oo")));
  if (dynamic == DimDynamic::SizeLikeUnbacked || dynamic == DimDynamic::ObliviousSize) {
    ExprId u = create_unbacked_symint();
    pending_unbacked_.pop_back();  // an input, not a data-dependent output
    SymbolState& st = state(u);
    st.unbacked_input = true;
    st.sources.push_back(source);
    constrain_range_for_size(u);
    if (dynamic == DimDynamic::ObliviousSize) st.oblivious_value = val;
    return u;
  }
  if (constraint) dynamic = DimDynamic::Dynamic;
  if (dynamic == DimDynamic::Static) return arena_.integer(val);
  const bool duck = dynamic == DimDynamic::Duck && settings_.duck_shape;
  const bool specialize = positive && settings_.specialize_zero_one && !do_not_specialize_zero_one;
  if ((val == 0 || val == 1) && specialize) return arena_.integer(val);
  if (duck) {
    if (auto it = val_to_var_.find(val); it != val_to_var_.end()) {
      SymbolState& st = state(it->second);
      st.sources.push_back(source);
      if (st.sources.size() > 1 && sources_.is_ephemeral(st.sources.front()) && !sources_.is_ephemeral(source))
        std::swap(st.sources.front(), st.sources.back());
      return it->second;
    }
  }
  std::string sym_name = name.empty() ? backed_name(source) : std::string(name);
  ExprId sym = new_symbol(std::move(sym_name), SymbolKind::Backed, size_facts(positive));
  ++backed_count_;
  SymbolState& st = state(sym);
  st.hint = val;
  st.sources.push_back(source);
  ValueRange r = positive ? (specialize ? ValueRange(ExtNum::of(2), ExtNum::int_oo())
                                        : ValueRange(ExtNum::of(0), ExtNum::int_oo()))
                          : ValueRange::unknown_int();
  if (constraint) {
    const ExtNum lo = std::max(r.lo, ExtNum::of(constraint->min));
    const ExtNum hi = constraint->max ? std::min(r.hi, ExtNum::of(*constraint->max)) : r.hi;
    if (hi < lo)
      throw_error(ErrorKind::ConstraintViolation,
                  fmt::format("{} not in range [{}, {}]", val, lo.str(), hi.str()));
    r = ValueRange(lo, hi);
  }
  if (!r.contains(val))
    throw_error(ErrorKind::ConstraintViolation, fmt::format("{} not in range [{}, {}]", val, r.lo.str(), r.hi.str()));
  st.range = r;
  if (duck) val_to_var_.emplace(val, sym);
  bump_version();
  return sym;
}

ExprId ShapeEnv::create_unspecified_symbol(int64_t val, SourceId source) {
  return create_symbol(val, source, DimDynamic::Dynamic, nullptr, /*positive=*/false, /*dnszo=*/true);
}

ExprId ShapeEnv::create_float_symbol(double val, SourceId source) {
  // PyTorch numbers float symbols by len(var_to_val), not by the source hash
  ExprId sym = new_symbol(fmt::format("zf{}", backed_count_++), SymbolKind::BackedFloat, kFactFloat);
  SymbolState& st = state(sym);
  st.float_hint = val;
  st.range = ValueRange::unknown();
  st.sources.push_back(source);
  bump_version();
  return sym;
}

ExprId ShapeEnv::create_data_dependent_length(ExprId max_len) {
  const ExprId m = replace(max_len);
  if (auto v = maybe_evaluate_static(m); v && *v == arena_.zero()) return arena_.zero();
  const ValueRange r = bound(m);
  constexpr int64_t kUnbounded = INT64_MAX - 1;  // 2**63 - 2
  const int64_t hi = r.hi.kind == ExtNum::Kind::Int ? r.hi.i : kUnbounded;
  ExprId u = create_unbacked_symint();
  constrain_range_for_size(u, 0, hi);
  return u;
}

ExprId ShapeEnv::create_unbacked_symint() {
  ExprId u = new_symbol(fmt::format("u{}", unbacked_counter_++), SymbolKind::Unbacked, kFactInteger);
  SymbolState& st = state(u);
  st.unbacked = true;
  st.range = ValueRange::unknown_int();
  pending_unbacked_.push_back(u);
  bump_version();
  return u;
}

ExprId ShapeEnv::create_unbacked_symbool() {
  ExprId u = create_unbacked_symint();
  state(u).range = ValueRange(ExtNum::of(0), ExtNum::of(1));
  bump_version();
  return arena_.eq(u, arena_.one());
}

ExprId ShapeEnv::create_unbacked_symfloat() {
  ExprId u = new_symbol(fmt::format("zuf{}", unbacked_float_counter_++), SymbolKind::UnbackedFloat, kFactFloat);
  SymbolState& st = state(u);
  st.unbacked = true;
  st.range = ValueRange::unknown();
  pending_unbacked_.push_back(u);
  return u;
}

ShapeEnv::SymbolicTensorMeta ShapeEnv::create_symbolic_sizes_strides_storage_offset(
    std::span<const int64_t> sizes, std::span<const int64_t> strides, int64_t storage_offset, SourceId tensor,
    std::span<const DimDynamic> dynamic_sizes, std::span<const DimDynamic> stride_dynamic,
    std::span<const DimConstraint* const> constraints, std::span<const std::string_view> names) {
  const size_t n = sizes.size();
  SymbolicTensorMeta meta;
  meta.sizes.resize(n);
  meta.strides.resize(n);
  bool all_static = true;
  for (size_t i = 0; i < n; ++i) {
    const DimDynamic d = i < dynamic_sizes.size() ? dynamic_sizes[i] : DimDynamic::Duck;
    all_static = all_static && d == DimDynamic::Static;
    meta.sizes[i] = create_symbol(sizes[i], sources_.size(tensor, static_cast<uint32_t>(i)), d,
                                  i < constraints.size() ? constraints[i] : nullptr, true, false,
                                  i < names.size() ? names[i] : std::string_view{});
  }
  // Strides in increasing value (ties: larger index first), reusing size products.
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return strides[a] != strides[b] ? strides[a] < strides[b] : a > b;
  });
  std::vector<std::pair<int64_t, ExprId>> candidates;
  const DimDynamic stride_policy = all_static ? DimDynamic::Static : DimDynamic::Duck;
  for (size_t i : order) {
    const int64_t v = strides[i];
    const DimDynamic sd = i < stride_dynamic.size() ? stride_dynamic[i] : DimDynamic::InferStride;
    const bool contiguous_position = i + 1 < n && strides[i] == sizes[i + 1] * strides[i + 1];
    ExprId e;
    if ((v == 0 || v == 1) && !contiguous_position) {
      e = arena_.integer(v);
    } else {
      if (sd == DimDynamic::InferStride)
        for (auto& [k, ex] : candidates)
          if (k == v) { e = ex; break; }
      if (!e.valid())
        e = create_symbol(v, sources_.stride(tensor, static_cast<uint32_t>(i)),
                          sd == DimDynamic::InferStride ? stride_policy : sd);
    }
    meta.strides[i] = e;
    if (auto prod = try_mul(sizes[i], v)) candidates.emplace_back(*prod, arena_.mul(meta.sizes[i], e));
  }
  meta.storage_offset = create_symbol(storage_offset, sources_.storage_offset(tensor), stride_policy);
  return meta;
}

}  // namespace symshape
