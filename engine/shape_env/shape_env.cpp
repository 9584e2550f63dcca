// ShapeEnv: symbol creation, hints, static evaluation, guards, replacements, runtime
// asserts (semantics.md C.3-C.10, C.12-C.15). Guard output is in produce_guards.cpp.
#include "shape_env/shape_env.h"

#include <fmt/core.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cmath>

#include "core/checked_math.h"
#include "core/error.h"
#include "expr/bound.h"
#include "expr/sum_bound.h"
#include "expr/canonical.h"
#include "expr/evaluate.h"
#include "expr/inline_vec.h"
#include "expr/printer.h"

namespace symshape {

// Scratch lists of a few symbols / expressions: inline, so asking a question does not allocate.
using SymbolList = InlineVec<ExprId, 8>;

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

ShapeEnv::ShapeEnv(ShapeEnvSettings settings) : settings_(settings) { reset(); }

void ShapeEnv::reset() {
  arena_.clear();
  sources_.clear();
  symbols_.clear();
  val_to_var_.clear();
  used_numbers_.clear();
  guards_.clear();
  runtime_asserts_.clear();
  divisible_.clear();
  axioms_.clear();
  pending_unbacked_.clear();
  replaced_mask_ = 0;
  unbacked_counter_ = unbacked_float_counter_ = sequential_counter_ = backed_count_ = 0;
  suppress_depth_ = 0;
  ignored_after_freeze_ = 0;
  version_ = 0;
  range_version_ = 0;
  replace_version_ = 0;
  frozen_ = runtime_asserts_frozen_ = false;
  static_memo_[0].clear();
  static_memo_[1].clear();
  canonical_memo_.clear();
  simplify_memo_.clear();
  range_memo_[0].clear();
  range_memo_[1].clear();
  replace_memo_.clear();
  shift_symbols_.clear();
  memo_enabled_ = true;
}

ShapeEnv::SymbolState& ShapeEnv::state(ExprId sym) {
  const uint32_t s = arena_.symbol_id(sym).index();
  if (s >= symbols_.size()) symbols_.resize(s + 1);
  return symbols_[s];
}

const ShapeEnv::SymbolState& ShapeEnv::state(ExprId sym) const {
  static const SymbolState kEmpty;
  const uint32_t s = arena_.symbol_id(sym).index();
  return s < symbols_.size() ? symbols_[s] : kEmpty;
}

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

// ---- per-symbol state -----------------------------------------------------------------

bool ShapeEnv::is_backed(ExprId sym) const { return state(sym).hint || state(sym).float_hint; }
std::optional<int64_t> ShapeEnv::hint(ExprId sym) const { return state(sym).hint; }
const ValueRange& ShapeEnv::range(ExprId sym) const { return state(sym).range; }
bool ShapeEnv::is_size_like(ExprId sym) const { return state(sym).size_like; }
bool ShapeEnv::is_unbacked(ExprId sym) const { return state(sym).unbacked; }
bool ShapeEnv::is_unbacked_input(ExprId sym) const { return state(sym).unbacked_input; }
const std::vector<SourceId>& ShapeEnv::symbol_sources(ExprId sym) const { return state(sym).sources; }
ExprId ShapeEnv::replacement(ExprId sym) const { return state(sym).replacement; }
void ShapeEnv::add_source(ExprId sym, SourceId source) {
  if (arena_.kind(sym) == ExprKind::Symbol) state(sym).sources.push_back(source);
}
uint32_t ShapeEnv::guard_count(ExprId sym) const { return state(sym).guard_count; }
void ShapeEnv::set_unbacked_var_to_val(ExprId sym, int64_t value) {
  state(sym).unbacked_value = value;
  bump_version();
}

// ---- replacements ----------------------------------------------------------------------

ExprId ShapeEnv::find(ExprId sym) {
  SymbolState& st = state(sym);
  if (!st.replacement.valid()) return sym;
  ExprId target = st.replacement;
  if (arena_.symbol_mask(target) & replaced_mask_) {
    ExprId resolved = replace(target);
    state(sym).replacement = resolved;  // path compression
    target = resolved;
  }
  return target;
}

ExprId ShapeEnv::replace(ExprId e) {
  if ((arena_.symbol_mask(e) & replaced_mask_) == 0) return e;
  const uint64_t stamp = replace_version_ + 1;
  if (e.index() < replace_memo_.size() && replace_memo_[e.index()].stamp == stamp)
    return replace_memo_[e.index()].value;
  const ExprId r = replace_uncached(e);
  if (replace_memo_.size() <= e.index()) replace_memo_.resize(arena_.size() + arena_.size() / 2 + 64);
  replace_memo_[e.index()] = {r, stamp};
  return r;
}

ExprId ShapeEnv::replace_uncached(ExprId e) {
  SymbolList syms, values;
  arena_.free_symbols(e, syms);
  SymbolList from;
  for (ExprId s : syms) {
    if (!state(s).replacement.valid()) continue;
    from.push_back(s);
    values.push_back(find(s));
  }
  if (from.empty()) return e;
  return arena_.substitute(e, from, values);
}

void ShapeEnv::set_replacement(ExprId a, ExprId tgt) {
  tgt = replace(tgt);
  if (tgt == a || arena_.contains(tgt, a)) return;
  if (state(a).replacement.valid()) return;
  if (settings_.prefer_deferred_runtime_asserts_over_guards) {
    // export keeps symbols: only x, k*x, x + c, k*x + c over one symbol
    SymbolList fs;
    arena_.free_symbols(tgt, fs);
    if (fs.size() != 1) return;
  }
  ValueRange ra = state(a).range;
  ValueRange rt = bound(tgt);
  if (!rt.issubset(ra)) {
    // back-propagate into the single symbol of a linear target: tgt = k*b + c
    SymbolList fs;
    arena_.free_symbols(tgt, fs);
    if (fs.size() == 1 && !state(fs[0]).replacement.valid()) {
      const ExprId b = fs[0];
      const ExprId zero = arena_.zero();
      const ExprId c = arena_.substitute(tgt, std::span<const ExprId>(&b, 1), std::span<const ExprId>(&zero, 1));
      const ExprId kb = arena_.sub(tgt, c);
      auto [k, rest] = arena_.split_coefficient(kb);
      if (rest == b && k > 0 && arena_.kind(c) == ExprKind::Integer) {
        const int64_t cc = arena_.int_value(c);
        ExtNum lo = ExtNum::int_oo(-1), hi = ExtNum::int_oo(1);
        if (ra.lo.kind == ExtNum::Kind::Int) lo = ExtNum::of(-floor_div(-(ra.lo.i - cc), k));  // ceil
        if (ra.hi.kind == ExtNum::Kind::Int) hi = ExtNum::of(floor_div(ra.hi.i - cc, k));
        if (lo <= hi) update_range(b, ValueRange(lo, hi) & state(b).range);
        rt = bound(tgt);
      }
    }
    ra = ra.lo <= rt.hi && rt.lo <= ra.hi ? (ra & rt) : ra;
    update_range(a, ra);
    if (!bound(tgt).issubset(state(a).range)) return;
  } else {
    // a's range narrows to what the target can take
    if (state(a).range.lo < rt.lo || rt.hi < state(a).range.hi) update_range(a, state(a).range & rt);
  }
  SymbolState& st = state(a);
  st.replacement = tgt;
  ++replace_version_;
  if (arena_.kind(tgt) == ExprKind::Symbol && st.size_like) state(tgt).size_like = true;
  replaced_mask_ |= arena_.symbol_mask(a);
  bump_version();
}

void ShapeEnv::update_range(ExprId sym, const ValueRange& r) {
  SymbolState& st = state(sym);
  ValueRange nr = r;
  if (st.size_like && nr.hi < ExtNum::of(2) && nr.hi.is_finite()) nr = ValueRange(nr.lo, ExtNum::of(2));
  if (nr.lo == st.range.lo && nr.hi == st.range.hi) return;
  st.range = nr;
  bump_version();
}

void ShapeEnv::constrain_range(ExprId sym, ExtNum lo, ExtNum hi) {
  update_range(sym, state(sym).range & ValueRange(lo, hi));
}

void ShapeEnv::constrain_range_for_size(ExprId sym, std::optional<int64_t> min, std::optional<int64_t> max) {
  SymbolState& st = state(sym);
  st.size_like = true;
  ValueRange r(ExtNum::of(min.value_or(0)), max ? ExtNum::of(*max) : ExtNum::int_oo());
  update_range(sym, st.range & r);
  bump_version();
}

// ---- queries ---------------------------------------------------------------------------

ValueRange ShapeEnv::symbol_range(SymbolId s, bool size_oblivious) const {
  if (s.index() >= symbols_.size()) return default_symbol_range(arena_, s);
  const SymbolState& st = symbols_[s.index()];
  if (st.range.lo == ExtNum::int_oo(-1) && st.range.hi == ExtNum::int_oo(1) && !st.unbacked && !st.hint)
    return default_symbol_range(arena_, s);
  if (size_oblivious && st.size_like) {
    ExtNum lo = std::max(st.range.lo, ExtNum::of(2));
    ExtNum hi = std::min(st.range.hi, ExtNum::of(int64_t{1} << 48));
    if (hi.is_finite() && ExtNum::of(hi.i - 1) >= lo) hi = ExtNum::of(hi.i - 1);
    if (hi < lo) return st.range;
    return ValueRange(lo, hi);
  }
  return st.range;
}

// bound() over the DAG with per-node memo: propagation asks about many expressions that
// share sub-expressions (every layout question on one tensor mentions the same sizes),
// so only nodes not yet bounded in this version are computed.
ValueRange ShapeEnv::bound(ExprId e, bool size_oblivious) {
  auto leaf_range = [&](ExprId n) {
    if (arena_.kind(n) == ExprKind::Symbol) return symbol_range(arena_.symbol_id(n), size_oblivious);
    return bound_node(arena_, n, {});
  };
  if (arena_.operands(e).empty()) return leaf_range(e);
  std::vector<RangeMemo>& memo = range_memo_[size_oblivious ? 1 : 0];
  if (memo.size() < arena_.size()) memo.resize(arena_.size() + arena_.size() / 2 + 64);
  const uint64_t stamp = range_version_ + 1;
  if (memo[e.index()].stamp == stamp) return memo[e.index()].range;
  bound_stack_.clear();
  bound_stack_.push_back(e);
  while (!bound_stack_.empty()) {
    const ExprId n = bound_stack_.back();
    if (memo[n.index()].stamp == stamp) {
      bound_stack_.pop_back();
      continue;
    }
    bool ready = true;
    for (ExprId o : arena_.operands(n))
      if (!arena_.operands(o).empty() && memo[o.index()].stamp != stamp) {
        bound_stack_.push_back(o);
        ready = false;
      }
    if (!ready) continue;
    bound_args_.clear();
    for (ExprId o : arena_.operands(n))
      bound_args_.push_back(arena_.operands(o).empty() ? leaf_range(o) : memo[o.index()].range);
    memo[n.index()] = {bound_node(arena_, n, bound_args_), stamp};
    bound_stack_.pop_back();
  }
  return memo[e.index()].range;
}

// The positive stand-in x' of symbol x in the lower-bound shift (x = x' + lo - 1): one
// per symbol and arena, so repeated shifts neither format a name nor intern it again.
ExprId ShapeEnv::shift_symbol(ExprId s) {
  const uint32_t i = arena_.symbol_id(s).index();
  if (shift_symbols_.size() <= i) shift_symbols_.resize(i + 1 + i / 2 + 8);
  ExprId& fresh = shift_symbols_[i];
  if (!fresh.valid())
    fresh = arena_.symbol(fmt::format("_shift_{}", arena_.symbol_name(s)), SymbolKind::Free,
                          kFactInteger | kFactPositive | kFactNonNegative);
  return fresh;
}

ExprId ShapeEnv::simplify(ExprId e, bool size_oblivious) {
  if (arena_.is_constant(e) || arena_.kind(e) == ExprKind::Symbol) return replace(e);
  // memo by ExprId for the current version (replacements, ranges and divisibility are
  // what simplify reads; all of them bump the version)
  SimplifyMemo* slot = nullptr;
  if (!size_oblivious) {
    if (simplify_memo_.size() <= e.index()) simplify_memo_.resize(arena_.size() + arena_.size() / 2 + 64);
    slot = &simplify_memo_[e.index()];
    if (slot->version == version_ && slot->value.valid()) return slot->value;
  }
  const ExprId result = simplify_uncached(e, size_oblivious);
  if (!size_oblivious) {
    if (simplify_memo_.size() <= e.index()) simplify_memo_.resize(arena_.size() + arena_.size() / 2 + 64);
    simplify_memo_[e.index()] = {result, version_};
  }
  return result;
}

ExprId ShapeEnv::simplify_uncached(ExprId e, bool size_oblivious) {
  ExprId x = arena_.expand(replace(e));
  if (arena_.is_constant(x)) return x;
  // Max(c, b) / Min(c, b) with c in {0, 1}: decide with the (size-oblivious) bound of b
  SymbolList syms;
  auto fold = [&](auto& self, ExprId n) -> ExprId {
    if (arena_.is_constant(n) || arena_.kind(n) == ExprKind::Symbol) return n;
    // operands are copied only once one of them changed: most simplify calls change
    // nothing, and this runs for every node of every question
    const std::span<const ExprId> in = arena_.operands(n);
    std::vector<ExprId> ops;
    bool changed = false;
    for (size_t i = 0; i < in.size(); ++i) {
      const ExprId r = self(self, in[i]);
      if (r != in[i] && !changed) {
        changed = true;
        ops.assign(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(i));
      }
      if (changed) ops.push_back(r);
    }
    ExprId m = changed ? arena_.rebuild(arena_.kind(n), ops, arena_.payload(n)) : n;
    const ExprKind k = arena_.kind(m);
    if ((k == ExprKind::Max || k == ExprKind::Min) && arena_.operands(m).size() == 2) {
      ExprId c = arena_.operand(m, 0), b = arena_.operand(m, 1);
      if (arena_.kind(c) == ExprKind::Integer && (arena_.int_value(c) == 0 || arena_.int_value(c) == 1)) {
        const ValueRange rb = bound(b, size_oblivious);
        if (rb.lo >= ExtNum::of(arena_.int_value(c))) return k == ExprKind::Max ? b : c;
      }
    }
    if (k == ExprKind::TruncToInt && arena_.kind(arena_.operand(m, 0)) == ExprKind::IntTrueDiv) {
      ExprId div = arena_.operand(m, 0);
      ExprId a = arena_.operand(div, 0), b = arena_.operand(div, 1);
      if (arena_.mod(a, b) == arena_.zero()) return arena_.clean_div(a, b);
      return arena_.floordiv(a, b);
    }
    if (k == ExprKind::FloorDiv) {
      ExprId a = arena_.operand(m, 0), b = arena_.operand(m, 1);
      // FloorDiv(a, FloorDiv(a, d)) -> d when both divisibilities are known
      if ((arena_.kind(b) == ExprKind::FloorDiv || arena_.kind(b) == ExprKind::CleanDiv) && arena_.operand(b, 0) == a) {
        const ExprId d = arena_.operand(b, 1);
        if (known_divisible(arena_.mod(a, b)) && known_divisible(arena_.mod(a, d))) return d;
      }
      if (known_divisible(arena_.mod(a, b))) return arena_.clean_div(a, b);
    }
    return m;
  };
  return fold(fold, x);
}

ExprId ShapeEnv::as_floordiv(ExprId e) {
  if (arena_.is_constant(e) || arena_.kind(e) == ExprKind::Symbol) return e;
  std::vector<ExprId> ops;
  bool changed = false;
  for (ExprId op : arena_.operands(e)) {
    ops.push_back(as_floordiv(op));
    changed |= ops.back() != op;
  }
  if (arena_.kind(e) == ExprKind::CleanDiv) return arena_.floordiv(ops[0], ops[1]);
  return changed ? arena_.rebuild(arena_.kind(e), ops, arena_.payload(e)) : e;
}

bool ShapeEnv::known_divisible(ExprId mod) {
  if (divisible_.empty()) return false;
  const ExprId m = as_floordiv(replace(mod));
  return std::find(divisible_.begin(), divisible_.end(), m) != divisible_.end();
}

ExprId ShapeEnv::canonical(ExprId e) {
  if (canonical_memo_.size() <= e.index()) canonical_memo_.resize(arena_.size() + arena_.size() / 2 + 64);
  ExprId& c = canonical_memo_[e.index()];
  if (!c.valid()) c = canonicalize_bool(arena_, e);
  return c;
}

std::optional<ExprId> ShapeEnv::evaluate_with_axioms(ExprId e) {
  if (axioms_.empty() || !arena_.is_boolean(e)) return std::nullopt;
  if (auto v = axioms_.find(e)) return arena_.boolean(*v);
  ExprId c = canonical(e);
  if (auto v = axioms_.find(c)) return arena_.boolean(*v);
  // a relation whose negation is a known fact (`u0 > s` after `u0 <= s` was implied)
  if (arena_.is_relation(c)) {
    const ExprId n = canonicalize_bool(arena_, arena_.logical_not(c));
    if (auto v = axioms_.find(n)) return arena_.boolean(!*v);
  }
  if (arena_.kind(c) == ExprKind::And) {
    bool all = true;
    for (ExprId x : arena_.operands(c)) {
      const auto v = axioms_.find(x);
      if (!v || !*v) { all = false; break; }
    }
    if (all) return arena_.true_();
  }
  return std::nullopt;
}

std::optional<ExprId> ShapeEnv::decide_by_difference(ExprId rel, bool expand, bool size_oblivious) {
  if (!arena_.is_relation(rel) || !arena_.is_integer(arena_.operand(rel, 0)) ||
      !arena_.is_integer(arena_.operand(rel, 1)))
    return std::nullopt;
  ExprId d = arena_.sub(arena_.operand(rel, 0), arena_.operand(rel, 1));
  if (expand) d = arena_.expand(d);
  const ExtNum zero = ExtNum::of(0);
  auto decides = [&](const ValueRange& rd) -> std::optional<bool> {
    switch (arena_.kind(rel)) {
      case ExprKind::Eq:
      case ExprKind::Ne:
        if (rd.lo > zero || rd.hi < zero) return arena_.kind(rel) == ExprKind::Ne;
        if (rd.is_singleton() && rd.lo == zero) return arena_.kind(rel) == ExprKind::Eq;
        return std::nullopt;
      case ExprKind::Lt: if (rd.hi < zero) return true; if (rd.lo >= zero) return false; return std::nullopt;
      case ExprKind::Le: if (rd.hi <= zero) return true; if (rd.lo > zero) return false; return std::nullopt;
      case ExprKind::Gt: if (rd.lo > zero) return true; if (rd.hi <= zero) return false; return std::nullopt;
      case ExprKind::Ge: if (rd.lo >= zero) return true; if (rd.hi < zero) return false; return std::nullopt;
      default: return std::nullopt;
    }
  };
  std::optional<bool> v = decides(bound(d, size_oblivious));
  // Past the reference: Min/Max bounded against the rest of the difference and floor
  // divisions by one divisor compared through their numerators (expr/sum_bound.h) decide
  // relations such as Min(W, W + 1) == W that interval arithmetic cannot.
  if (!v && expand)
    v = decides(sum_bound(arena_, d, [this, size_oblivious](ExprId x) { return bound(x, size_oblivious); }));
  if (!v) return std::nullopt;
  return arena_.boolean(*v);
}

std::optional<ExprId> ShapeEnv::maybe_evaluate_static(ExprId e, bool size_oblivious, bool unbacked_only) {
  if (arena_.is_constant(e)) return e;
  const bool use_memo = memo_enabled_ && !unbacked_only;
  std::vector<StaticMemo>& memo = static_memo_[size_oblivious ? 1 : 0];
  if (use_memo) {
    if (memo.size() < arena_.size()) memo.resize(arena_.size() + arena_.size() / 2 + 64);
    const StaticMemo& m = memo[e.index()];
    if (m.value.valid()) return m.value;
    if (m.undecided_version == version_) return std::nullopt;
  }
  auto remember = [&, e](std::optional<ExprId> r) {
    if (use_memo) {
      if (memo.size() <= e.index()) memo.resize(arena_.size() + arena_.size() / 2 + 64);
      if (r) memo[e.index()].value = *r;
      else memo[e.index()].undecided_version = version_;
    }
    return r;
  };
  // First the replaced but unexpanded form: products of sums keep tight ranges there
  // ((A - 1)*(B - 1) >= 1 when A, B >= 2) that expansion would lose.
  {
    const ExprId r0 = replace(e);
    if (arena_.is_constant(r0)) return remember(r0);
    const ValueRange rr = bound(r0, size_oblivious);
    if (rr.is_singleton() && rr.lo.is_finite()) {
      if (arena_.is_boolean(r0)) return remember(arena_.boolean(rr.lo.i != 0));
      if (rr.lo.kind == ExtNum::Kind::Int) return remember(arena_.integer(rr.lo.i));
    }
    if (auto v = decide_by_difference(r0, false, size_oblivious)) return remember(*v);
  }
  ExprId x = simplify(e, size_oblivious);
  if (arena_.is_constant(x)) return remember(x);
  if (auto a = evaluate_with_axioms(x)) return remember(*a);
  const ValueRange r = bound(x, size_oblivious);
  if (r.is_singleton() && r.lo.is_finite()) {
    if (arena_.is_boolean(x)) return remember(arena_.boolean(r.lo.i != 0));
    if (r.lo.kind == ExtNum::Kind::Int) return remember(arena_.integer(r.lo.i));
  }
  // A relation between integers is decided by the range of its expanded difference,
  // which cancels shared terms the two sides' separate ranges cannot see
  // (e.g. A*B + A + B + 1 > B + 1 becomes A*B + A > 0).
  if (auto v = decide_by_difference(x, true, size_oblivious)) return remember(*v);
  // Hand the lower bounds to the structure: x := x' + (lo - 1) with x' >= 1, expand, bound.
  SymbolList syms;
  arena_.free_symbols(x, syms);
  SymbolList from, to;
  for (ExprId s : syms) {
    const SymbolState& st = state(s);
    if (unbacked_only && !st.unbacked) continue;
    ValueRange rs = bound(s, size_oblivious);
    if (rs.lo.kind != ExtNum::Kind::Int) continue;
    const int64_t lo = rs.lo.i;
    const ExprId fresh = shift_symbol(s);
    from.push_back(s);
    to.push_back(arena_.add(fresh, arena_.integer(lo - 1)));
  }
  if (!from.empty()) {
    ExprId y = arena_.expand(arena_.substitute(x, from, to));
    if (arena_.is_constant(y)) return remember(y);
    // the callback captures one pointer so std::function keeps it inline (no allocation)
    struct ShiftScope {
      ShapeEnv* env;
      const SymbolList* from;
      const SymbolList* to;
      bool size_oblivious;
    } scope{this, &from, &to, size_oblivious};
    const ValueRange ry = symshape::bound(arena_, y, [sc = &scope](SymbolId sid) -> ValueRange {
      ShapeEnv& self = *sc->env;
      ExprArena& ar = self.arena_;
      const SymbolList& from = *sc->from;
      const SymbolList& to = *sc->to;
      const bool size_oblivious = sc->size_oblivious;
      for (size_t i = 0; i < from.size(); ++i) {
        // to[i] is fresh + (lo - 1), or the bare fresh symbol when lo == 1 (no operands)
        const ExprId f = ar.kind(to[i]) == ExprKind::Add ? ar.operand(to[i], 1) : to[i];
        if (ar.symbol_id(f) == sid) {
          const ValueRange rs = self.bound(from[i], size_oblivious);
          const ExtNum hi = rs.hi.kind == ExtNum::Kind::Int ? ExtNum::of(rs.hi.i - rs.lo.i + 1) : rs.hi;
          return ValueRange(ExtNum::of(1), hi);
        }
      }
      if (sid.index() < self.symbols_.size()) return self.bound(ar.symbol_expr(sid), size_oblivious);
      return default_symbol_range(ar, sid);
    });
    if (ry.is_singleton() && ry.lo.is_finite()) {
      if (arena_.is_boolean(y)) return remember(arena_.boolean(ry.lo.i != 0));
      if (ry.lo.kind == ExtNum::Kind::Int) return remember(arena_.integer(ry.lo.i));
    }
  }
  return remember(std::nullopt);
}

bool ShapeEnv::statically_known_true(ExprId b) {
  auto r = maybe_evaluate_static(b);
  return r && *r == arena_.true_();
}

bool ShapeEnv::statically_known_false(ExprId b) {
  auto r = maybe_evaluate_static(b);
  return r && *r == arena_.false_();
}

bool ShapeEnv::contains_unbacked_without_hint(ExprId e) {
  if (!(arena_.facts(e) & kFactHasUnbacked)) return false;
  SymbolList syms;
  arena_.free_symbols(e, syms);
  for (ExprId s : syms)
    if (state(s).unbacked && !state(s).unbacked_value) return true;
  return false;
}

ExprId ShapeEnv::substitute_hints(ExprId e) {
  SymbolList syms, from, to;
  arena_.free_symbols(e, syms);
  for (ExprId s : syms) {
    const SymbolState& st = state(s);
    if (st.hint) {
      from.push_back(s);
      to.push_back(arena_.integer(*st.hint));
    } else if (st.float_hint) {
      from.push_back(s);
      to.push_back(arena_.floating(*st.float_hint));
    } else if (st.unbacked_value) {
      from.push_back(s);
      to.push_back(arena_.integer(*st.unbacked_value));
    }
  }
  if (from.empty()) return e;
  return arena_.substitute(e, from, to);
}

bool ShapeEnv::has_hint(ExprId e) {
  ExprId x = replace(e);
  SymbolList syms;
  arena_.free_symbols(x, syms);
  for (ExprId s : syms)
    if (!state(s).hint && !state(s).float_hint) return false;
  return true;
}

ExprId ShapeEnv::hint_value(ExprId e) {
  ExprId x = replace(e);
  if (arena_.is_constant(x)) return x;
  if (contains_unbacked_without_hint(x)) {
    if (auto s = maybe_evaluate_static(x)) return *s;
    if (auto v = oblivious_hint(x)) return *v;
    raise_data_dependent(x, !arena_.is_boolean(x), {});
  }
  ExprId v = substitute_hints(x);
  if (arena_.is_constant(v)) return v;
  Bindings b;
  SymbolList syms;
  arena_.free_symbols(x, syms);
  for (ExprId s : syms) {
    const SymbolState& st = state(s);
    if (st.hint) b.set(arena_.symbol_id(s), *st.hint);
    else if (st.float_hint) b.set_float(arena_.symbol_id(s), *st.float_hint);
    else if (st.unbacked_value) b.set(arena_.symbol_id(s), *st.unbacked_value);
  }
  const Scalar sc = evaluate(arena_, x, b);
  switch (sc.kind) {
    case Scalar::Kind::Int: return arena_.integer(sc.i);
    case Scalar::Kind::Bool: return arena_.boolean(sc.i != 0);
    case Scalar::Kind::Float: return arena_.floating(sc.f);
  }
  return v;
}

std::optional<ExprId> ShapeEnv::oblivious_hint(ExprId e) {
  SymbolList syms;
  arena_.free_symbols(e, syms);
  Bindings as_is, at_least_two;
  bool any_oblivious = false;
  for (ExprId s : syms) {
    const SymbolState& st = state(s);
    const SymbolId id = arena_.symbol_id(s);
    if (st.hint) {
      as_is.set(id, *st.hint);
      at_least_two.set(id, *st.hint);
    } else if (st.float_hint) {
      as_is.set_float(id, *st.float_hint);
      at_least_two.set_float(id, *st.float_hint);
    } else if (st.oblivious_value) {
      any_oblivious = true;
      as_is.set(id, *st.oblivious_value);
      at_least_two.set(id, std::max<int64_t>(2, *st.oblivious_value));
    } else if (st.unbacked_value) {
      as_is.set(id, *st.unbacked_value);
      at_least_two.set(id, *st.unbacked_value);
    } else {
      return std::nullopt;
    }
  }
  if (!any_oblivious) return std::nullopt;
  std::optional<Scalar> a, b;
  try {
    a = try_evaluate(arena_, e, as_is);
    b = try_evaluate(arena_, e, at_least_two);
  } catch (const Error&) {
    return std::nullopt;  // overflow or division by zero at one of the points: undecided
  }
  if (!a || !b || a->kind != b->kind || a->i != b->i || a->f != b->f) return std::nullopt;
  switch (a->kind) {
    case Scalar::Kind::Int: return arena_.integer(a->i);
    case Scalar::Kind::Bool: return arena_.boolean(a->i != 0);
    case Scalar::Kind::Float: return arena_.floating(a->f);
  }
  return std::nullopt;
}

int64_t ShapeEnv::size_hint(ExprId e) {
  ExprId v = hint_value(e);
  if (arena_.kind(v) != ExprKind::Integer) throw_error(ErrorKind::Internal, "size_hint of a non-integer expression");
  return arena_.int_value(v);
}

// ---- guarding -----------------------------------------------------------------------------

void ShapeEnv::raise_data_dependent(ExprId e, bool integer_valued, std::string_view location) {
  std::string size_like;
  for (uint32_t i = 0; i < symbols_.size(); ++i)
    if (symbols_[i].size_like) {
      if (!size_like.empty()) size_like += ", ";
      size_like += arena_.symbol_info(SymbolId(i)).name;
    }
  const std::string hinted = to_str(arena_, substitute_hints(e)), unhinted = to_str(arena_, e);
  std::string msg;
  if (integer_valued) {
    msg = fmt::format("Could not extract specialized integer from data-dependent expression {} (unhinted: {}).  "
                      "(Size-like symbols: {})\n\n",
                      hinted, unhinted, size_like.empty() ? "none" : size_like);
  } else {
    msg = fmt::format("Could not guard on data-dependent expression {} (unhinted: {}).  (Size-like symbols: {})\n\n"
                      "consider using data-dependent friendly APIs such as guard_or_false, guard_or_true and "
                      "statically_known_true",
                      hinted, unhinted, size_like.empty() ? "none" : size_like);
  }
  msg += fmt::format("Caused by: {}\nFor more information, run with TORCH_LOGS=\"dynamic\"\n",
                     location.empty() ? "(unknown)" : location);
  throw_error(ErrorKind::DataDependent, std::move(msg));
}

void ShapeEnv::add_axioms(ExprId g) {
  auto put = [&](ExprId r, bool v) {
    if (!arena_.is_constant(r)) axioms_.set(canonical(r), v);
  };
  auto imply = [&](ExprId r) {
    put(r, true);
    put(arena_.logical_not(r), false);
  };
  SymbolList conj;
  ExprId s = simplify(g);
  if (arena_.kind(s) == ExprKind::And) conj.assign(arena_.operands(s).begin(), arena_.operands(s).end());
  else conj.push_back(s);
  for (ExprId r : conj) {
    imply(r);
    if (!arena_.is_relation(r)) continue;
    ExprId a = arena_.operand(r, 0), b = arena_.operand(r, 1);
    switch (arena_.kind(r)) {
      case ExprKind::Eq:
        imply(arena_.eq(b, a));
        imply(arena_.le(a, b));
        imply(arena_.ge(a, b));
        break;
      case ExprKind::Lt:
      case ExprKind::Gt: {
        const bool lt = arena_.kind(r) == ExprKind::Lt;
        imply(lt ? arena_.le(a, b) : arena_.ge(a, b));
        imply(arena_.ne(a, b));
        if (arena_.is_integer(a) && arena_.is_integer(b))
          imply(lt ? arena_.le(a, arena_.sub(b, arena_.one())) : arena_.ge(a, arena_.add(b, arena_.one())));
        break;
      }
      case ExprKind::Le: imply(arena_.lt(a, arena_.add(b, arena_.one()))); break;
      case ExprKind::Ge: imply(arena_.gt(arena_.add(a, arena_.one()), b)); break;
      default: break;
    }
  }
  bump_facts_version();
}

void ShapeEnv::resimplify_floordiv_axioms() {
  auto has_floordiv = [&](auto& self, ExprId n) -> bool {
    if (arena_.kind(n) == ExprKind::FloorDiv) return true;
    for (ExprId op : arena_.operands(n))
      if (self(self, op)) return true;
    return false;
  };
  std::vector<std::pair<ExprId, bool>> updated;
  for (uint32_t key : axioms_.keys()) {
    const ExprId k(key);
    if (!has_floordiv(has_floordiv, k)) continue;
    const ExprId s = canonicalize_bool(arena_, simplify(k));
    if (s != k && !arena_.is_constant(s)) updated.emplace_back(s, *axioms_.find(k));
  }
  for (auto& [k, v] : updated) axioms_.insert(k, v);
}

void ShapeEnv::refine_ranges(ExprId rel) {
  SymbolList syms;
  arena_.free_symbols(rel, syms);
  for (ExprId x : syms) {
    if (!arena_.is_integer(x)) continue;
    auto sol = try_solve(arena_, rel, x);
    if (!sol) continue;
    const ValueRange r = bound(sol->rhs);
    ValueRange cur = state(x).range;
    ExtNum lo = cur.lo, hi = cur.hi;
    const ExprKind op = sol->op;
    // `<=`, not `<`: for a strict relation an equal bound still gains one (x > y, y >= 2
    // gives x >= 3), as current PyTorch does.
    if ((op == ExprKind::Eq || op == ExprKind::Ge || op == ExprKind::Gt) && lo <= r.lo && r.lo.is_int()) {
      lo = r.lo;
      if (op == ExprKind::Gt && lo.kind == ExtNum::Kind::Int) lo = ExtNum::of(lo.i + 1);
    }
    if ((op == ExprKind::Eq || op == ExprKind::Le || op == ExprKind::Lt) && r.hi <= hi && r.hi.is_int()) {
      hi = r.hi;
      if (op == ExprKind::Lt && hi.kind == ExtNum::Kind::Int) hi = ExtNum::of(hi.i - 1);
    }
    if (hi < lo) continue;  // contradiction with what the hint says: leave it to the guard
    update_range(x, ValueRange(lo, hi));
    const ValueRange& nr = state(x).range;
    if (nr.is_singleton() && nr.lo.kind == ExtNum::Kind::Int) set_replacement(x, arena_.integer(nr.lo.i));
  }
}

void ShapeEnv::maybe_guard_rel(ExprId g) {
  if (arena_.kind(g) == ExprKind::And) {
    std::vector<ExprId> conj(arena_.operands(g).begin(), arena_.operands(g).end());
    for (ExprId c : conj) maybe_guard_rel(c);
    return;
  }
  if (!arena_.is_relation(g) || arena_.kind(g) == ExprKind::Ne) return;
  SymbolList syms;
  arena_.free_symbols(g, syms);
  if (syms.size() > 5 || syms.empty()) return;
  refine_ranges(g);
  if (arena_.kind(g) != ExprKind::Eq) return;
  g = replace(g);
  if (arena_.is_constant(g)) return;
  // atoms
  bool has_mod = false, has_floordiv = false;
  ExprId mod_atom;
  auto scan = [&](auto& self, ExprId n) -> void {
    const ExprKind k = arena_.kind(n);
    if (k == ExprKind::Mod || k == ExprKind::PythonMod) {
      has_mod = true;
      mod_atom = n;
    }
    if ((k == ExprKind::FloorDiv || k == ExprKind::CleanDiv) && arena_.operand(n, 1) != arena_.one())
      has_floordiv = true;
    for (ExprId op : arena_.operands(n)) self(self, op);
  };
  scan(scan, g);
  if (has_mod) {
    // Eq(Mod(p, q), 0) -> p divisible by q
    auto sol = try_solve(arena_, g, mod_atom, false);
    if (sol && sol->op == ExprKind::Eq && sol->rhs == arena_.zero()) {
      if (!known_divisible(mod_atom)) {
        // kept with CleanDiv spelled FloorDiv: both name the same value
        divisible_.push_back(as_floordiv(mod_atom));
        bump_facts_version();
        resimplify_floordiv_axioms();
      }
    }
    return;
  }
  if (has_floordiv) return;
  syms.clear();
  arena_.free_symbols(g, syms);
  // Which symbol is eliminated: the largest key (only-ephemeral-sources, hint, name).
  auto key_less = [&](ExprId a, ExprId b) {
    const SymbolState &sa = state(a), &sb = state(b);
    auto eph = [&](const SymbolState& s) {
      return !s.sources.empty() && std::all_of(s.sources.begin(), s.sources.end(),
                                               [&](SourceId src) { return sources_.is_ephemeral(src); });
    };
    const bool ea = eph(sa), eb = eph(sb);
    if (ea != eb) return ea < eb;
    const bool ia = !sa.hint || !arena_.is_positive(a), ib = !sb.hint || !arena_.is_positive(b);
    if (ia != ib) return ia < ib;
    if (!ia && *sa.hint != *sb.hint) return *sa.hint < *sb.hint;
    return arena_.symbol_name(a) < arena_.symbol_name(b);
  };
  std::sort(syms.begin(), syms.end(), [&](ExprId a, ExprId b) { return key_less(b, a); });
  const ExprId lhs = arena_.operand(g, 0), rhs = arena_.operand(g, 1);
  auto has_unbacked_non_input = [&](ExprId e) {
    SymbolList fs;
    arena_.free_symbols(e, fs);
    for (ExprId s : fs)
      if (state(s).unbacked && !state(s).unbacked_input) return true;
    return false;
  };
  // trivial: a lone unbacked symbol equal to something without (non-input) unbacked symbols
  for (int side = 0; side < 2; ++side) {
    ExprId a = side == 0 ? lhs : rhs, b = side == 0 ? rhs : lhs;
    if (arena_.kind(a) == ExprKind::Symbol && state(a).unbacked && !has_unbacked_non_input(b)) {
      set_replacement(a, b);
      return;
    }
  }
  for (ExprId x : syms) {
    auto sol = try_solve(arena_, g, x, false);
    if (!sol || sol->op != ExprKind::Eq) return;
    // accept only an exact integral solution without unbacked symbols
    ExprId back = arena_.expand(arena_.substitute(arena_.sub(lhs, rhs), std::span<const ExprId>(&x, 1),
                                                  std::span<const ExprId>(&sol->rhs, 1)));
    if (back != arena_.zero()) return;
    if (arena_.facts(sol->rhs) & kFactHasUnbacked) return;
    if (!arena_.is_integer(sol->rhs)) return;
    set_replacement(x, sol->rhs);
    return;  // only the first symbol of the sorted list is tried
  }
}

void ShapeEnv::record_guard(ExprId g, bool size_oblivious) {
  if (frozen_) ++ignored_after_freeze_;
  maybe_guard_rel(g);
  guards_.push_back({g, size_oblivious});
  add_axioms(g);
  SymbolList syms;
  arena_.free_symbols(g, syms);
  for (ExprId s : syms) ++state(s).guard_count;
}

ExprId ShapeEnv::evaluate_expr(ExprId e, bool size_oblivious, std::optional<bool> fallback, std::string_view location) {
  if (arena_.is_constant(e)) return e;
  if (auto s = maybe_evaluate_static(e, size_oblivious)) return *s;
  ExprId x = replace(e);
  bool oblivious = false;  // decided by OBLIVIOUS_SIZE example values: a plain guard
  if (contains_unbacked_without_hint(x)) {
    if (auto s = maybe_evaluate_static(x, size_oblivious, /*unbacked_only=*/true)) return *s;
    if (fallback) return arena_.boolean(*fallback);
    if (!oblivious_hint(x)) raise_data_dependent(x, !arena_.is_boolean(x), location);
    oblivious = true;
  } else if (fallback && (arena_.facts(x) & kFactHasUnbacked)) {
    return arena_.boolean(*fallback);  // the default wins over real-tensor values (C.7 step 3)
  }
  const ExprId value = hint_value(x);
  ExprId g;
  if (arena_.is_boolean(x)) g = value == arena_.true_() ? x : arena_.logical_not(x);
  else g = arena_.eq(x, value);
  if (guards_suppressed() || arena_.is_constant(g)) return value;
  // a guard on a value only known from real tensors becomes a runtime assert
  if (!oblivious && (arena_.facts(x) & kFactHasUnbacked)) {
    defer_runtime_assert(g, location);
    return value;
  }
  record_guard(g, size_oblivious);
  return value;
}

bool ShapeEnv::guard_bool(ExprId cond, std::string_view location) {
  return evaluate_expr(cond, false, {}, location) == arena_.true_();
}

int64_t ShapeEnv::guard_int(ExprId e, std::string_view location) {
  ExprId v = evaluate_expr(e, false, {}, location);
  if (arena_.kind(v) != ExprKind::Integer) throw_error(ErrorKind::Internal, "guard_int on a non-integer expression");
  return arena_.int_value(v);
}

double ShapeEnv::guard_float(ExprId e, std::string_view location) {
  ExprId v = evaluate_expr(e, false, {}, location);
  if (!arena_.is_number(v)) throw_error(ErrorKind::Internal, "guard_float on a non-numeric expression");
  return arena_.kind(v) == ExprKind::Integer ? static_cast<double>(arena_.int_value(v)) : arena_.float_value(v);
}

bool ShapeEnv::guard_or_false(ExprId cond) { return evaluate_expr(cond, false, false) == arena_.true_(); }
bool ShapeEnv::guard_or_true(ExprId cond) { return evaluate_expr(cond, false, true) == arena_.true_(); }
bool ShapeEnv::guard_size_oblivious(ExprId cond) { return evaluate_expr(cond, true) == arena_.true_(); }

void ShapeEnv::defer_runtime_assert(ExprId cond, std::string_view message) {
  if (guards_suppressed()) return;
  maybe_guard_rel(cond);
  // The assert is stored as given (canonicalised, not simplified): a replacement it just
  // caused (u0 -> 0) must not make it vanish, it is still checked at runtime.
  ExprId c = canonicalize_bool(arena_, cond);
  if (c == arena_.true_()) return;
  // stored under the unbacked symbol with the largest numeric suffix
  SymbolList syms;
  arena_.free_symbols(c, syms);
  ExprId key;
  int64_t best = -1;
  for (ExprId s : syms) {
    if (!state(s).unbacked) continue;
    std::string_view n = arena_.symbol_name(s);
    int64_t num = 0;
    for (char ch : n)
      if (ch >= '0' && ch <= '9') num = num * 10 + (ch - '0');
    if (num > best) {
      best = num;
      key = s;
    }
  }
  for (const RuntimeAssert& ra : runtime_asserts_)
    if (ra.expr == c) return;
  runtime_asserts_.push_back({c, key, std::string(message)});
  add_axioms(c);
}

bool ShapeEnv::guard_or_defer_runtime_assert(ExprId cond, std::string_view message) {
  if (auto s = maybe_evaluate_static(cond)) return *s == arena_.true_();
  ExprId x = replace(cond);
  const bool unbacked = contains_unbacked_without_hint(x) || (arena_.facts(x) & kFactHasUnbacked);
  if (!unbacked && !settings_.prefer_deferred_runtime_asserts_over_guards) return guard_bool(cond, message);
  defer_runtime_assert(cond, message);
  return true;
}

bool ShapeEnv::expect_true(ExprId cond, std::string_view message) { return guard_or_defer_runtime_assert(cond, message); }

std::vector<ShapeEnv::UnbackedBinding> ShapeEnv::compute_unbacked_bindings(std::span<const ExprId> outputs) {
  std::vector<UnbackedBinding> out;
  if (pending_unbacked_.empty()) return out;
  std::vector<ExprId> pending;
  pending.swap(pending_unbacked_);  // cleared even when a symbol is missing, as PyTorch does
  for (ExprId u : pending) {
    bool found = false;
    for (uint32_t i = 0; i < outputs.size() && !found; ++i) {
      const ExprId v = outputs[i];
      if (v == u) {
        out.push_back({u, i, BindingKind::Direct, ExprId()});
        found = true;
      } else if (arena_.kind(v) == ExprKind::Mul && arena_.operands(v).size() == 2 && arena_.operand(v, 1) == u) {
        const ExprId c = arena_.operand(v, 0);
        if (arena_.kind(c) == ExprKind::Integer || (arena_.kind(c) == ExprKind::Symbol && is_backed(c))) {
          out.push_back({u, i, BindingKind::DivideByCoefficient, c});
          found = true;
        }
      } else if (arena_.kind(v) == ExprKind::Eq && arena_.operand(v, 0) == u && arena_.operand(v, 1) == arena_.one()) {
        out.push_back({u, i, BindingKind::BoolToInt, ExprId()});
        found = true;
      }
    }
    if (found) continue;
    std::string names, values;
    for (ExprId p : pending) {
      bool bound_already = false;
      for (const UnbackedBinding& b : out) bound_already |= b.symbol == p;
      if (!bound_already) names += (names.empty() ? "" : ", ") + std::string(arena_.symbol_name(p));
    }
    for (ExprId v : outputs) values += (values.empty() ? "" : ", ") + to_str(arena_, v);
    throw_error(ErrorKind::Internal,
                fmt::format("Pending unbacked symbols {{{}}} not in returned outputs ({}) .\n"
                            "Did you accidentally call new_dynamic_size() or item() more times than you needed to "
                            "in your fake implementation?",
                            names, values));
  }
  return out;
}

std::vector<ExprId> ShapeEnv::runtime_asserts_for(ExprId key) const {
  std::vector<ExprId> out;
  for (const RuntimeAssert& ra : runtime_asserts_)
    if (ra.key == key) out.push_back(ra.expr);
  return out;
}

std::string ShapeEnv::format_guards() const {
  std::string out;
  for (const Guard& g : guards_) out += fmt::format(" - {}\n", to_str(arena_, g.expr));
  return out;
}

}  // namespace symshape
