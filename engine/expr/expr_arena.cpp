// The arena itself: SoA columns, the hash-consing intern table, symbols, structural
// order, fact derivation and the generic tree walks (free symbols, substitute, expand).
// The canonicalising builders live in expr_build_*.cpp.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "core/error.h"
#include "expr/expr.h"
#include "expr/inline_vec.h"
#include "expr/sympy_names.h"

namespace symshape {

namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

uint64_t hash_name(std::string_view s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace

ExprArena::ExprArena() { clear(); }

void ExprArena::clear() {
  static std::atomic<uint64_t> next_identity{1};
  identity_ = next_identity.fetch_add(1, std::memory_order_relaxed);
  // An arena reused graph after graph keeps its capacity. A small arena in a big table
  // empties just its own slots (each node is found by probing from its hash; the rest
  // of the table is already empty), so a reset costs the nodes it held, not the table.
  if (!table_.empty() && kind_.size() * 8 < table_.size()) {
    const size_t mask = table_.size() - 1;
    for (uint32_t i = 0; i < kind_.size(); ++i) {
      size_t slot = hash_[i] & mask;
      while (table_[slot].id != i) slot = (slot + 1) & mask;
      table_[slot] = TableSlot{TypedId<ExprTag>::kNone, 0};
    }
  } else {
    table_.assign(std::max<size_t>(table_.size(), 1024), TableSlot{TypedId<ExprTag>::kNone, 0});
  }
  if (memo_.empty() || ++memo_generation_ == (uint64_t{1} << 16)) {
    memo_generation_ = 1;
    memo_.assign(std::max<size_t>(memo_.size(), 4096), MemoEntry{0, 0, TypedId<ExprTag>::kNone});
  }
  kind_.clear();
  facts_.clear();
  floordiv_nonneg_.clear();
  payload_.clear();
  ops_ptr_.clear();
  ops_count_.clear();
  hash_.clear();
  sym_mask_.clear();
  tree_size_.clear();
  operand_store_.clear();
  symbol_expr_.clear();
  symbol_kind_.clear();
  symbol_facts_.clear();
  symbol_name_ptr_.clear();
  symbol_name_len_.clear();
  name_store_.clear();
  symbol_table_.assign(64, TypedId<SymbolTag>::kNone);
  small_int_.fill(ExprId{});
  expand_memo_.clear();
  std::fill(subst_stamp_.begin(), subst_stamp_.end(), 0u);
  false_id_ = make_raw(ExprKind::False, {});
  true_id_ = make_raw(ExprKind::True, {});
  zero_id_ = integer(0);
  one_id_ = integer(1);
}

uint64_t ExprArena::hash_node(ExprKind kind, std::span<const ExprId> ops, int64_t payload) const {
  uint64_t h = mix(static_cast<uint64_t>(kind) + 1, static_cast<uint64_t>(payload));
  for (ExprId op : ops) h = mix(h, op.value);
  // final avalanche: the low bits pick the slot, the high bits are the tag
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 29);
}

void ExprArena::grow_table() {
  std::vector<TableSlot> table(table_.size() * 2, TableSlot{TypedId<ExprTag>::kNone, 0});
  const size_t mask = table.size() - 1;
  for (uint32_t i = 0; i < kind_.size(); ++i) {
    size_t slot = hash_[i] & mask;
    while (table[slot].id != TypedId<ExprTag>::kNone) slot = (slot + 1) & mask;
    table[slot] = {i, static_cast<uint32_t>(hash_[i] >> 32)};
  }
  table_.swap(table);
  // keep the builder memo at about a quarter of the node count
  if (memo_.size() * 4 < table_.size() / 2) memo_.assign(table_.size() / 8, MemoEntry{0, 0, TypedId<ExprTag>::kNone});
}

ExprId ExprArena::make_raw(ExprKind kind, std::span<const ExprId> ops, int64_t payload) {
  const uint64_t h = hash_node(kind, ops, payload);
  const uint32_t tag = static_cast<uint32_t>(h >> 32);
  const size_t tmask = table_.size() - 1;
  size_t slot = h & tmask;
  for (; table_[slot].id != TypedId<ExprTag>::kNone; slot = (slot + 1) & tmask) {
    if (table_[slot].tag != tag) continue;
    const uint32_t i = table_[slot].id;
    if (kind_[i] == kind && payload_[i] == payload && ops_count_[i] == ops.size() &&
        std::equal(ops.begin(), ops.end(), ops_ptr_[i]))
      return ExprId(i);
  }
  // a new node: only now derive what the columns hold about it
  if (kind_.size() >= 0xfffffff0u) throw_error(ErrorKind::Overflow, "expression arena is full (2^32 nodes)");
  uint64_t mask = 0;
  uint64_t size = kind == ExprKind::Float ? 1 : 2;  // SymPy's node count: a Float is 1/2
  for (ExprId op : ops) {
    mask |= sym_mask_[op.index()];
    size += tree_size_[op.index()];
  }
  if (kind == ExprKind::Symbol) mask = 1ull << (payload & 63);
  if (kind == ExprKind::Piecewise) size += ops.size();  // the (expr, cond) pairs are nodes too
  const uint8_t facts = derive_facts(kind, ops, payload);
  const uint32_t id = static_cast<uint32_t>(kind_.size());
  kind_.push_back(kind);
  facts_.push_back(facts);
  payload_.push_back(payload);
  ops_ptr_.push_back(operand_store_.append(ops.data(), ops.size()));
  ops_count_.push_back(static_cast<uint32_t>(ops.size()));
  hash_.push_back(h);
  sym_mask_.push_back(mask);
  tree_size_.push_back(size > 0xffffffffu ? 0xffffffffu : static_cast<uint32_t>(size));
  table_[slot] = {id, tag};
  if (kind_.size() * 2 > table_.size()) grow_table();
  return ExprId(id);
}

// SymPy's _monotonic_sign for one integer term: the value closest to 0 it can take when
// its sign is fixed. A positive integer gives 1 (2 when it is an even multiple), a
// nonnegative one 0; a monomial k*x**n of one positive symbol gives k (the univariate
// polynomial branch finds its exact least value). nullopt: no fixed sign, or not a term
// SymPy treats so (an Add).
std::optional<int64_t> ExprArena::least_value(ExprId t) const {
  const uint8_t f = facts_[t.index()];
  if (!(f & kFactInteger) || kind_[t.index()] == ExprKind::Add) return std::nullopt;
  if (!(f & (kFactPositive | kFactNonNegative))) return std::nullopt;
  if (!(f & kFactPositive)) return 0;
  if (kind_[t.index()] != ExprKind::Mul) return 1;
  const auto ops = operands(t);
  const int64_t k = kind_[ops[0].index()] == ExprKind::Integer ? payload_[ops[0].index()] : 1;
  const auto factors = kind_[ops[0].index()] == ExprKind::Integer ? ops.subspan(1) : ops;
  const auto plain_power = [&](ExprId x) {
    if (kind_[x.index()] == ExprKind::Pow) x = operands(x)[0];
    return kind_[x.index()] == ExprKind::Symbol;
  };
  if (factors.size() == 1 && plain_power(factors[0])) return k;
  return k % 2 == 0 ? 2 : 1;
}

uint8_t ExprArena::derive_facts(ExprKind kind, std::span<const ExprId> ops, int64_t payload) const {
  uint8_t unbacked = 0;
  bool constant = true;
  for (ExprId op : ops) {
    unbacked |= facts_[op.index()] & kFactHasUnbacked;
    constant = constant && (facts_[op.index()] & kFactConstant);
  }
  uint8_t f = unbacked | (constant ? kFactConstant : 0);
  auto all = [&](uint8_t fact) {
    return std::all_of(ops.begin(), ops.end(), [&](ExprId o) { return (facts_[o.index()] & fact) != 0; });
  };
  auto all_nonneg = [&] {
    return std::all_of(ops.begin(), ops.end(),
                       [&](ExprId o) { return (facts_[o.index()] & (kFactNonNegative | kFactPositive)) != 0; });
  };
  auto any = [&](uint8_t fact) {
    return std::any_of(ops.begin(), ops.end(), [&](ExprId o) { return (facts_[o.index()] & fact) != 0; });
  };
  switch (kind) {
    case ExprKind::Integer:
      return kFactInteger | kFactConstant | (payload >= 0 ? kFactNonNegative : 0) | (payload > 0 ? kFactPositive : 0);
    case ExprKind::Float: {
      double v;
      std::memcpy(&v, &payload, sizeof v);
      return kFactFloat | kFactConstant | (v >= 0 ? kFactNonNegative : 0) | (v > 0 ? kFactPositive : 0);
    }
    case ExprKind::IntInfinity:
      return kFactInteger | kFactConstant | (payload > 0 ? kFactPositive | kFactNonNegative : 0);
    case ExprKind::True:
    case ExprKind::False:
      return kFactBool | kFactConstant;
    case ExprKind::Symbol: {
      const uint32_t s = static_cast<uint32_t>(payload);
      return symbol_facts_[s] | (symbol_kind_[s] == SymbolKind::Unbacked || symbol_kind_[s] == SymbolKind::UnbackedFloat
                                     ? kFactHasUnbacked
                                     : 0);
    }
    case ExprKind::Add:
      if (any(kFactFloat)) f |= kFactFloat;
      else if (all(kFactInteger)) f |= kFactInteger;
      if (all_nonneg()) f |= kFactNonNegative | (any(kFactPositive) ? kFactPositive : 0);
      // `c + t`, one integer term and a number: SymPy's Add._eval_is_positive / _nonnegative
      // add c to the least value t can take (_monotonic_sign), so `s - 1` is nonnegative and
      // `(s - 1)//32 + 1` positive (Max(1, .) of it folds), while `s + r - 1` stays unknown
      if (ops.size() == 2 && (f & kFactInteger) && !(f & kFactPositive)) {
        const bool first_const = kind_[ops[0].index()] == ExprKind::Integer;
        const ExprId c = ops[first_const ? 0 : 1], t = ops[first_const ? 1 : 0];
        if (kind_[c.index()] == ExprKind::Integer && !(facts_[t.index()] & kFactConstant))
          if (const std::optional<int64_t> m = least_value(t)) {
            const int64_t least = *m + payload_[c.index()];
            if (least >= 1) f |= kFactPositive | kFactNonNegative;
            else if (least >= 0) f |= kFactNonNegative;
          }
      }
      return f;
    case ExprKind::Mul:
      if (any(kFactFloat)) f |= kFactFloat;
      else if (all(kFactInteger)) f |= kFactInteger;
      if (all(kFactPositive)) f |= kFactPositive | kFactNonNegative;
      else if (all_nonneg()) f |= kFactNonNegative;
      return f;
    case ExprKind::Pow:
      f |= facts_[ops[0].index()] & (kFactInteger | kFactFloat | kFactPositive | kFactNonNegative);
      if (ops[1].valid() && kind_[ops[1].index()] == ExprKind::Integer && payload_[ops[1].index()] % 2 == 0)
        f |= kFactNonNegative;
      return f;
    case ExprKind::PowByNatural:
      f |= kFactInteger | (facts_[ops[0].index()] & (kFactPositive | kFactNonNegative));
      return f;
    case ExprKind::FloorDiv:
    case ExprKind::CleanDiv:
      f |= kFactInteger;
      if (is_nonnegative(ops[0]) && is_positive(ops[1])) f |= kFactNonNegative;
      return f;
    case ExprKind::Mod:
    case ExprKind::ModularIndexing:
    case ExprKind::IsNonOverlappingAndDenseIndicator:
      return f | kFactInteger | kFactNonNegative;
    case ExprKind::PythonMod:
      return f | kFactInteger | (is_positive(ops[1]) ? kFactNonNegative : 0);
    case ExprKind::Max:
      if (all(kFactInteger)) f |= kFactInteger;
      if (any(kFactFloat)) f |= kFactFloat;
      if (any(kFactPositive)) f |= kFactPositive | kFactNonNegative;
      else if (any(kFactNonNegative)) f |= kFactNonNegative;
      return f;
    case ExprKind::Min:
      if (all(kFactInteger)) f |= kFactInteger;
      if (any(kFactFloat)) f |= kFactFloat;
      if (all(kFactPositive)) f |= kFactPositive | kFactNonNegative;
      else if (all_nonneg()) f |= kFactNonNegative;
      return f;
    case ExprKind::Piecewise: {
      bool integer = true;
      for (size_t i = 0; i + 1 < ops.size(); i += 2) integer = integer && is_integer(ops[i]);
      return f | (integer ? kFactInteger : 0);
    }
    case ExprKind::BitwiseAnd:
    case ExprKind::BitwiseOr:
    case ExprKind::TruncToInt:
    case ExprKind::FloorToInt:
    case ExprKind::CeilToInt:
    case ExprKind::RoundToInt:
      return f | kFactInteger;
    case ExprKind::ToFloat:
    case ExprKind::IntTrueDiv:
    case ExprKind::FloatTrueDiv:
    case ExprKind::FloatPow:
    case ExprKind::OpaqueUnary:
      return f | kFactFloat;
    case ExprKind::Eq:
    case ExprKind::Ne:
    case ExprKind::Lt:
    case ExprKind::Le:
    case ExprKind::Gt:
    case ExprKind::Ge:
    case ExprKind::And:
    case ExprKind::Or:
    case ExprKind::Not:
      return f | kFactBool;
  }
  return f;
}

// ---- leaves -----------------------------------------------------------------


ExprId ExprArena::floating(double v) {
  int64_t bits;
  if (v == 0.0) v = 0.0;  // one zero
  if (std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();
  std::memcpy(&bits, &v, sizeof bits);
  return make_raw(ExprKind::Float, {}, bits);
}

double ExprArena::float_value(ExprId e) const {
  switch (kind(e)) {
    case ExprKind::Float: {
      double v;
      int64_t bits = payload(e);
      std::memcpy(&v, &bits, sizeof v);
      return v;
    }
    case ExprKind::Integer: return static_cast<double>(payload(e));
    case ExprKind::IntInfinity: return payload(e) > 0 ? INFINITY : -INFINITY;
    default: return std::numeric_limits<double>::quiet_NaN();
  }
}

ExprId ExprArena::int_infinity(bool positive) { return make_raw(ExprKind::IntInfinity, {}, positive ? 1 : -1); }

bool ExprArena::is_relation(ExprId e) const {
  ExprKind k = kind(e);
  return k >= ExprKind::Eq && k <= ExprKind::Ge;
}

ExprId ExprArena::symbol(std::string_view name, SymbolKind kind, uint8_t facts) {
  if (ExprId existing = find_symbol(name)) return existing;
  const uint32_t s = static_cast<uint32_t>(symbol_expr_.size());
  symbol_kind_.push_back(kind);
  symbol_facts_.push_back(facts);
  symbol_name_ptr_.push_back(name_store_.append(name.data(), name.size()));
  symbol_name_len_.push_back(static_cast<uint32_t>(name.size()));
  ExprId e = make_raw(ExprKind::Symbol, {}, s);
  symbol_expr_.push_back(e);
  if (symbol_expr_.size() * 2 > symbol_table_.size()) {
    symbol_table_.assign(symbol_table_.size() * 2, TypedId<SymbolTag>::kNone);
    for (uint32_t i = 0; i < symbol_expr_.size(); ++i) {
      size_t slot = hash_name(symbol_info(SymbolId(i)).name) & (symbol_table_.size() - 1);
      while (symbol_table_[slot] != TypedId<SymbolTag>::kNone) slot = (slot + 1) & (symbol_table_.size() - 1);
      symbol_table_[slot] = i;
    }
  } else {
    size_t slot = hash_name(name) & (symbol_table_.size() - 1);
    while (symbol_table_[slot] != TypedId<SymbolTag>::kNone) slot = (slot + 1) & (symbol_table_.size() - 1);
    symbol_table_[slot] = s;
  }
  return e;
}

ExprId ExprArena::find_symbol(std::string_view name) const {
  size_t mask = symbol_table_.size() - 1;
  size_t slot = hash_name(name) & mask;
  while (symbol_table_[slot] != TypedId<SymbolTag>::kNone) {
    uint32_t s = symbol_table_[slot];
    if (symbol_info(SymbolId(s)).name == name) return symbol_expr_[s];
    slot = (slot + 1) & mask;
  }
  return {};
}

SymbolInfo ExprArena::symbol_info(SymbolId s) const {
  const uint32_t i = s.index();
  return {std::string_view(symbol_name_ptr_[i], symbol_name_len_[i]), symbol_kind_[i],
          symbol_facts_[i]};
}

// ---- SymPy structural order (Basic.compare) ------------------------------------

namespace {

constexpr int kUnknownClass = 70;

// Index in SymPy's ordering_of_classes, or kUnknownClass.
int class_index(const ExprArena& a, ExprId e) {
  switch (a.kind(e)) {
    case ExprKind::Integer: {
      int64_t v = a.payload(e);
      return v == 0 ? 0 : v == 1 ? 1 : v == -1 ? 5 : 7;
    }
    case ExprKind::Float: {
      double v = a.float_value(e);
      if (std::isnan(v)) return 4;
      if (std::isinf(v)) return v > 0 ? 3 : 6;
      return 9;
    }
    case ExprKind::Symbol: return 13;
    case ExprKind::Pow: return 16;
    case ExprKind::Mul: return 17;
    case ExprKind::Add: return 18;
    case ExprKind::Eq: return 63;
    case ExprKind::Ne: return 64;
    case ExprKind::Gt: return 65;
    case ExprKind::Lt: return 66;
    case ExprKind::Ge: return 67;
    case ExprKind::Le: return 68;
    default: return kUnknownClass;
  }
}

// Number of assumption entries SymPy stores for a symbol (commutative + given ones);
// it is part of a Symbol's hashable content, so it orders symbols before the name.
int symbol_assumption_count(uint8_t facts) {
  int n = 1;  // commutative
  if (facts & kFactInteger) ++n;
  if (facts & kFactPositive) ++n;
  else if (facts & kFactNonNegative) ++n;
  return n;
}

}  // namespace

int ExprArena::compare(ExprId a, ExprId b) const {
  if (a == b) return 0;
  const ExprKind ka = kind(a);
  // One kind is one SymPy class, except for the kinds whose class depends on the payload.
  const bool same_class = ka == kind(b) && ka != ExprKind::Integer && ka != ExprKind::Float &&
                          ka != ExprKind::IntInfinity && ka != ExprKind::OpaqueUnary;
  const int ca = same_class ? 0 : class_index(*this, a), cb = same_class ? 0 : class_index(*this, b);
  if (!same_class && (ca != cb || ca == kUnknownClass)) {
    if (ca != kUnknownClass || cb != kUnknownClass) return ca < cb ? -1 : 1;
    const std::string_view na = sympy_class_name(*this, a), nb = sympy_class_name(*this, b);
    if (na != nb) return na < nb ? -1 : 1;
  }
  switch (kind(a)) {
    case ExprKind::Integer: return payload(a) < payload(b) ? -1 : payload(a) > payload(b) ? 1 : 0;
    case ExprKind::Float:
    case ExprKind::IntInfinity: {
      double x = float_value(a), y = float_value(b);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case ExprKind::Symbol: {
      const SymbolInfo sa = symbol_info(symbol_id(a)), sb = symbol_info(symbol_id(b));
      const int na = symbol_assumption_count(sa.facts), nb = symbol_assumption_count(sb.facts);
      if (na != nb) return na < nb ? -1 : 1;
      if (sa.name != sb.name) return sa.name < sb.name ? -1 : 1;
      return 0;
    }
    case ExprKind::True:
    case ExprKind::False: return 0;
    default: break;
  }
  if (payload(a) != payload(b)) return payload(a) < payload(b) ? -1 : 1;
  auto oa = operands(a), ob = operands(b);
  if (oa.size() != ob.size()) return oa.size() < ob.size() ? -1 : 1;
  for (size_t i = 0; i < oa.size(); ++i) {
    if (int c = compare(oa[i], ob[i])) return c;
  }
  return 0;
}

// ---- walks --------------------------------------------------------------------

bool ExprArena::contains(ExprId e, ExprId sym) const {
  if (e == sym) return true;
  if ((sym_mask_[e.index()] & sym_mask_[sym.index()]) == 0) return false;
  for (ExprId op : operands(e))
    if (contains(op, sym)) return true;
  return false;
}

std::pair<int64_t, ExprId> ExprArena::split_coefficient(ExprId e) {
  if (kind(e) == ExprKind::Integer) return {payload(e), one_id_};
  if (kind(e) == ExprKind::Mul) {
    auto ops = operands(e);
    if (kind(ops[0]) == ExprKind::Integer) {
      if (ops.size() == 2) return {payload(ops[0]), ops[1]};
      return {payload(ops[0]), make_raw(ExprKind::Mul, ops.subspan(1))};
    }
  }
  return {1, e};
}

ExprId ExprArena::substitute(ExprId e, std::span<const ExprId> symbols, std::span<const ExprId> values) {
  uint64_t mask = 0;
  for (ExprId s : symbols) mask |= sym_mask_[s.index()];
  if ((sym_mask_[e.index()] & mask) == 0) return e;
  // Results of visited nodes by id, stamped per call, so shared sub-expressions are
  // rebuilt once and no map is allocated. A nested call (a builder substituting while
  // an outer substitution runs) takes a stamp of its own.
  const uint32_t stamp = ++subst_epoch_;
  if (stamp == 0) {  // wrapped: old stamps could match again
    std::fill(subst_stamp_.begin(), subst_stamp_.end(), 0u);
    subst_epoch_ = 1;
    return substitute(e, symbols, values);
  }
  if (subst_stamp_.size() < kind_.size()) {
    subst_stamp_.resize(kind_.size() + kind_.size() / 2 + 64, 0u);
    subst_value_.resize(subst_stamp_.size());
  }
  auto go = [&](auto& self, ExprId x) -> ExprId {
    if ((sym_mask_[x.index()] & mask) == 0) return x;
    if (kind(x) == ExprKind::Symbol) {
      for (size_t i = 0; i < symbols.size(); ++i)
        if (symbols[i] == x) return values[i];
      return x;
    }
    if (subst_stamp_[x.index()] == stamp) return subst_value_[x.index()];
    InlineVec<ExprId, 8> new_ops;
    bool changed = false;
    for (ExprId op : operands(x)) {
      ExprId n = self(self, op);
      changed |= n != op;
      new_ops.push_back(n);
    }
    ExprId r = changed ? rebuild(kind(x), std::span<const ExprId>(new_ops), payload(x)) : x;
    // x existed before this call, so its slot exists even if rebuilding grew the arena
    subst_stamp_[x.index()] = stamp;
    subst_value_[x.index()] = r;
    return r;
  };
  return go(go, e);
}

ExprId ExprArena::expand(ExprId e) {
  if (is_constant(e) || kind(e) == ExprKind::Symbol) return e;
  // safe_expand: SymPy's And / Or / Not have no expand(), so a junction keeps its operands'
  // forms (caformer's `a*(b + 1) == c or ... % c == 0` stays factored)
  if (kind(e) == ExprKind::And || kind(e) == ExprKind::Or || kind(e) == ExprKind::Not) return e;
  if (e.index() < expand_memo_.size() && expand_memo_[e.index()].valid()) return expand_memo_[e.index()];
  const ExprId x = expand_uncached(e);
  if (expand_memo_.size() <= e.index()) expand_memo_.resize(kind_.size() + kind_.size() / 2 + 64);
  expand_memo_[e.index()] = x;
  return x;
}

ExprId ExprArena::expand_uncached(ExprId e) {
  InlineVec<ExprId, 8> ops;
  bool changed = false;
  for (ExprId op : operands(e)) {
    ExprId n = expand(op);
    changed |= n != op;
    ops.push_back(n);
  }
  ExprId x = changed ? rebuild(kind(e), std::span<const ExprId>(ops), payload(e)) : e;
  if (kind(x) == ExprKind::Pow && kind(operand(x, 0)) == ExprKind::Add) {
    const int64_t k = payload(operand(x, 1));
    if (k >= 2 && k <= 16) {
      InlineVec<ExprId, 16> factors;
      for (int64_t i = 0; i < k; ++i) factors.push_back(operand(x, 0));
      return expand(make_raw(ExprKind::Mul, std::span<const ExprId>(factors)));
    }
    return x;
  }
  if (kind(x) != ExprKind::Mul) return x;
  // distribute the product over every Add factor
  InlineVec<ExprId, 16> terms, next;
  terms.push_back(one_id_);
  for (ExprId f : operands(x)) {
    next.clear();
    if (kind(f) == ExprKind::Add) {
      for (ExprId t : terms)
        for (ExprId s : operands(f)) next.push_back(mul(t, s));
    } else {
      for (ExprId t : terms) next.push_back(mul(t, f));
    }
    terms.assign(next.begin(), next.end());
    if (terms.size() > 4096) return x;  // refuse a blow-up; the product stays factored
  }
  return add(std::span<const ExprId>(terms));
}

}  // namespace symshape
