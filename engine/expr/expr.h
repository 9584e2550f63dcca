#pragma once
// The symbolic expression arena: every expression of one context (one ShapeEnv) lives
// here as a row of structure-of-arrays columns, addressed by a 32-bit ExprId.
//
// Expressions are hash-consed: building a node that already exists returns the
// existing id, so structural equality is an integer compare. Children are always
// built before their parents, so ids are a topological order (a linear sweep over a
// range of ids evaluates every node after its operands: used by batch evaluation).
//
// Canonicalisation (semantics.md A.3-A.8) happens in the builder functions
// (add, mul, floordiv, mod, ...): there is no way to create a non-canonical node
// except `make_raw`, which the parser and the tests use to build *unsimplified*
// input on purpose.
#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/typed_id.h"
#include "expr/chunked_store.h"

namespace symshape {

using ExprId = TypedId<struct ExprTag>;
using SymbolId = TypedId<struct SymbolTag>;

enum class ExprKind : uint8_t {
  // leaves
  Integer,      // payload: int64 value
  Float,        // payload: double bits (also real oo / -oo / nan)
  IntInfinity,  // payload: +1 (int_oo) or -1 (-int_oo)
  True,
  False,
  Symbol,       // payload: SymbolId
  // integer arithmetic
  Add,          // n-ary, canonical order, at most one leading Integer
  Mul,          // n-ary, canonical order, at most one leading Integer coefficient
  Pow,          // (base, Integer exponent >= 2)
  PowByNatural, // (base, exponent expr known >= 0, not an Integer)
  FloorDiv,     // (a, b), Python floor division
  CleanDiv,     // (a, b), FloorDiv known exact; prints like FloorDiv
  Mod,          // (a, b), a >= 0 and b >= 1 known
  PythonMod,    // (a, b), sign of b
  ModularIndexing,  // (a, b, c) = (a // b) % c
  Max,          // n-ary, canonical order
  Min,          // n-ary, canonical order
  Piecewise,    // (e1, c1, e2, c2, ..., en, True)
  BitwiseAnd,
  BitwiseOr,
  IsNonOverlappingAndDenseIndicator,  // (sizes..., strides...)
  // float <-> int
  ToFloat,
  IntTrueDiv,   // int / int -> float
  FloatTrueDiv,
  FloatPow,
  TruncToInt,
  FloorToInt,
  CeilToInt,
  RoundToInt,
  OpaqueUnary,  // payload: OpaqueFn
  // booleans
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  And,
  Or,
  Not,
};
constexpr int kExprKindCount = static_cast<int>(ExprKind::Not) + 1;

enum class OpaqueFn : uint8_t { Sqrt, Log2, Exp, Log, Sin, Cos, Tan, Sinh, Cosh, Tanh, Asin, Acos, Atan };

// Facts known about a node from its structure (SymPy-style assumptions), kept as a
// bit set per node; builders use them to pick Mod vs PythonMod, fold Max(1, s), ...
enum ExprFact : uint8_t {
  kFactInteger = 1 << 0,
  kFactNonNegative = 1 << 1,
  kFactPositive = 1 << 2,
  kFactBool = 1 << 3,
  kFactFloat = 1 << 4,
  kFactHasUnbacked = 1 << 5,  // mentions an unbacked (u*) symbol
  kFactConstant = 1 << 6,     // no free symbols
};

// How a symbol was made; the name prefix follows the kind (semantics.md A.2).
enum class SymbolKind : uint8_t { Backed /* s */, Unbacked /* u */, BackedFloat /* zf */, UnbackedFloat /* zuf */, Free /* any other name */ };

struct SymbolInfo {
  std::string_view name;
  SymbolKind kind;
  uint8_t facts;  // kFactInteger | kFactPositive | ...
};

class ExprArena {
 public:
  ExprArena();

  // ---- leaves -------------------------------------------------------------
  static bool is_small_int(int64_t v) { return static_cast<uint64_t>(v) + kSmallIntBias < kSmallIntCount; }
  ExprId integer(int64_t v) {
    // small constants (sizes, strides, dims, the 1s and 2s of every layout question) come
    // from a direct table instead of the intern table
    const uint64_t k = static_cast<uint64_t>(v) + kSmallIntBias;
    if (k < kSmallIntCount) {
      ExprId& c = small_int_[k];
      if (!c.valid()) c = make_raw(ExprKind::Integer, {}, v);
      return c;
    }
    return make_raw(ExprKind::Integer, {}, v);
  }
  ExprId floating(double v);
  ExprId int_infinity(bool positive = true);
  ExprId boolean(bool v) const { return v ? true_id_ : false_id_; }
  ExprId true_() const { return true_id_; }
  ExprId false_() const { return false_id_; }
  ExprId zero() const { return zero_id_; }
  ExprId one() const { return one_id_; }
  // Creates (or finds, by name) a symbol. facts: kFactInteger/kFactPositive/kFactNonNegative/kFactFloat.
  ExprId symbol(std::string_view name, SymbolKind kind, uint8_t facts);
  // Existing symbol by name, or an invalid id.
  ExprId find_symbol(std::string_view name) const;

  // ---- canonicalising builders (semantics.md A.3-A.7) ------------------------
  // The two-operand builders answer identities and constant operands inline (most calls
  // while propagating) and go through the memo and the full canonicaliser otherwise.
  ExprId add(ExprId a, ExprId b) {
    if (a == zero_id_) return b;
    if (b == zero_id_) return a;
    int64_t r;
    if (kind(a) == ExprKind::Integer && kind(b) == ExprKind::Integer &&
        !__builtin_add_overflow(payload(a), payload(b), &r) && is_small_int(r))
      return integer(r);
    return add_memoized(a, b);  // a large constant sum is found faster by the memo than by interning
  }
  ExprId add(std::span<const ExprId> terms);
  ExprId add(std::initializer_list<ExprId> terms) { return add(std::span<const ExprId>(terms.begin(), terms.size())); }
  ExprId sub(ExprId a, ExprId b);
  ExprId neg(ExprId a);
  ExprId mul(ExprId a, ExprId b) {
    if (a == one_id_) return b;
    if (b == one_id_) return a;
    int64_t r;
    if (kind(a) == ExprKind::Integer && kind(b) == ExprKind::Integer &&
        !__builtin_mul_overflow(payload(a), payload(b), &r) && is_small_int(r))
      return integer(r);
    return mul_memoized(a, b);
  }
  ExprId mul(std::span<const ExprId> factors);
  ExprId mul(std::initializer_list<ExprId> f) { return mul(std::span<const ExprId>(f.begin(), f.size())); }
  ExprId pow(ExprId base, int64_t exponent);  // exponent >= 0
  ExprId pow_by_natural(ExprId base, ExprId exponent);
  ExprId floordiv(ExprId a, ExprId b);        // throws ZeroDivision
  ExprId clean_div(ExprId a, ExprId b);
  ExprId ceildiv(ExprId a, ExprId b);
  ExprId mod(ExprId a, ExprId b);             // picks Mod or PythonMod; throws ZeroDivision
  ExprId python_mod(ExprId a, ExprId b);
  ExprId modular_indexing(ExprId a, ExprId b, ExprId c);
  ExprId max(ExprId a, ExprId b);
  ExprId max(std::span<const ExprId> args);
  ExprId max(std::initializer_list<ExprId> x) { return max(std::span<const ExprId>(x.begin(), x.size())); }
  ExprId min(ExprId a, ExprId b);
  ExprId min(std::span<const ExprId> args);
  ExprId min(std::initializer_list<ExprId> x) { return min(std::span<const ExprId>(x.begin(), x.size())); }
  ExprId lshift(ExprId a, int64_t k);         // throws Value("negative shift count")
  ExprId rshift(ExprId a, int64_t k);
  ExprId bitwise_and(ExprId a, ExprId b);
  ExprId bitwise_or(ExprId a, ExprId b);
  ExprId piecewise(std::span<const ExprId> value_cond_pairs);  // (e1,c1,...,en,True)
  ExprId sym_ite(ExprId cond, ExprId then_value, ExprId else_value);
  ExprId bool_to_int(ExprId cond);  // Piecewise((1, c), (0, True))
  ExprId is_non_overlapping_and_dense(std::span<const ExprId> sizes, std::span<const ExprId> strides);

  ExprId to_float(ExprId a);
  ExprId int_true_div(ExprId a, ExprId b);
  ExprId float_true_div(ExprId a, ExprId b);
  ExprId float_pow(ExprId a, ExprId b);
  ExprId trunc_to_int(ExprId a);
  ExprId floor_to_int(ExprId a);
  ExprId ceil_to_int(ExprId a);
  ExprId round_to_int(ExprId a);
  ExprId opaque_unary(OpaqueFn fn, ExprId a);

  // relations: fold on numbers and on assumptions (A.3.3)
  ExprId eq(ExprId a, ExprId b) { return relation(ExprKind::Eq, a, b); }
  ExprId ne(ExprId a, ExprId b) { return relation(ExprKind::Ne, a, b); }
  ExprId lt(ExprId a, ExprId b) { return relation(ExprKind::Lt, a, b); }
  ExprId le(ExprId a, ExprId b) { return relation(ExprKind::Le, a, b); }
  ExprId gt(ExprId a, ExprId b) { return relation(ExprKind::Gt, a, b); }
  ExprId ge(ExprId a, ExprId b) { return relation(ExprKind::Ge, a, b); }
  ExprId relation(ExprKind k, ExprId a, ExprId b) {
    if (kind(a) == ExprKind::Integer && kind(b) == ExprKind::Integer) return boolean(integer_relation(k, payload(a), payload(b)));
    // x ? x for anything but a Float (NaN is unequal to itself)
    if (a == b && kind(a) != ExprKind::Float) return boolean(k == ExprKind::Eq || k == ExprKind::Le || k == ExprKind::Ge);
    return relation_memoized(k, a, b);
  }
  ExprId logical_and(std::span<const ExprId> args);
  ExprId logical_and(ExprId a, ExprId b);
  ExprId logical_or(std::span<const ExprId> args);
  ExprId logical_or(ExprId a, ExprId b);
  ExprId logical_not(ExprId a);  // pushed into relations

  // Builds `kind(operands)` through the canonicalising builder for that kind.
  ExprId rebuild(ExprKind kind, std::span<const ExprId> operands, int64_t payload);
  // Interns the node exactly as given (no canonicalisation): for the parser's raw mode,
  // tests of unsimplified input, and the builders themselves.
  ExprId make_raw(ExprKind kind, std::span<const ExprId> operands, int64_t payload = 0);

  // ---- column access -------------------------------------------------------
  ExprKind kind(ExprId e) const { return kind_[e.index()]; }
  uint8_t facts(ExprId e) const { return facts_[e.index()]; }
  // fact_bounds' non-negativity of a FloorDiv node, memoised on first use (0 not yet known,
  // 1 non-negative, 2 not known to be): a chain of floor divisions is walked once, not once
  // per relation built over it
  uint8_t floordiv_nonneg_memo(ExprId e) const {
    return e.index() < floordiv_nonneg_.size() ? floordiv_nonneg_[e.index()] : 0;
  }
  void remember_floordiv_nonneg(ExprId e, bool nonneg) const {
    if (floordiv_nonneg_.size() <= e.index()) floordiv_nonneg_.resize(size() + size() / 2 + 64, 0);
    floordiv_nonneg_[e.index()] = nonneg ? 1 : 2;
  }
  int64_t payload(ExprId e) const { return payload_[e.index()]; }
  std::span<const ExprId> operands(ExprId e) const {
    return {ops_ptr_[e.index()], ops_count_[e.index()]};
  }
  ExprId operand(ExprId e, uint32_t i) const { return ops_ptr_[e.index()][i]; }
  uint64_t symbol_mask(ExprId e) const { return sym_mask_[e.index()]; }  // bloom of free symbols
  // SymPy's node count of the expression *tree* (shared sub-expressions counted each
  // time, a Float counts 1/2), in half units, saturating: the first key of ordered().
  uint32_t tree_size_halves(ExprId e) const { return tree_size_[e.index()]; }
  uint32_t size() const { return static_cast<uint32_t>(kind_.size()); }

  bool is_integer_const(ExprId e) const { return kind(e) == ExprKind::Integer; }
  int64_t int_value(ExprId e) const { return payload(e); }
  double float_value(ExprId e) const;
  bool is_number(ExprId e) const {  // Integer, Float or IntInfinity
    const ExprKind k = kind(e);
    return k == ExprKind::Integer || k == ExprKind::Float || k == ExprKind::IntInfinity;
  }
  bool is_bool_const(ExprId e) const { return kind(e) == ExprKind::True || kind(e) == ExprKind::False; }
  bool is_relation(ExprId e) const;
  bool is_boolean(ExprId e) const { return facts(e) & kFactBool; }
  bool is_integer(ExprId e) const { return facts(e) & kFactInteger; }
  bool is_positive(ExprId e) const { return facts(e) & kFactPositive; }
  bool is_nonnegative(ExprId e) const { return facts(e) & (kFactNonNegative | kFactPositive); }
  bool is_constant(ExprId e) const { return facts(e) & kFactConstant; }

  // symbols
  SymbolId symbol_id(ExprId sym) const { return SymbolId(static_cast<uint32_t>(payload(sym))); }
  ExprId symbol_expr(SymbolId s) const { return symbol_expr_[s.index()]; }
  SymbolInfo symbol_info(SymbolId s) const;
  std::string_view symbol_name(ExprId sym) const { return symbol_info(symbol_id(sym)).name; }
  uint32_t symbol_count() const { return static_cast<uint32_t>(symbol_expr_.size()); }

  // Free symbols in first-occurrence (depth-first) order, appended to `out`.
  // Appends the distinct symbols of `e` to `out` (a std::vector or an InlineVec).
  template <class List>
  void free_symbols(ExprId e, List& out) const {
    uint64_t found = 0;
    for (ExprId s : out) found |= sym_mask_[s.index()];
    free_symbols_below(e, out, found);
  }
  bool contains(ExprId e, ExprId sym) const;
  // Substitutes symbol -> expression (pairs given as parallel spans), rebuilding canonically.
  ExprId substitute(ExprId e, std::span<const ExprId> symbols, std::span<const ExprId> values);
  // Expands products of sums (C.9 step 1).
  ExprId expand(ExprId e);

  // SymPy's structural order (Basic.compare): <0, 0, >0.
  int compare(ExprId a, ExprId b) const;
  // compare() through the builder memo: sorting the terms of sums and products compares
  // the same deep operands again and again while one graph is propagated.
  int compare_memoized(ExprId a, ExprId b) {
    if (a == b) return 0;
    if (ExprId r = memo_find(kMemoCompare, a, b.value)) return static_cast<int>(r.value) - 2;
    const int c = compare(a, b);
    memo_store(kMemoCompare, a, b.value, ExprId(static_cast<uint32_t>(c < 0 ? 1 : c > 0 ? 3 : 2)));
    return c;
  }

  // Splits `c*rest` into its integer coefficient and the rest (1 for a constant).
  std::pair<int64_t, ExprId> split_coefficient(ExprId e);

  // Resets to the empty arena (keeps capacity): cheap reuse across graphs.
  void clear();
  // Unique for this arena's contents over the process's life (a new value on construction
  // and on every clear()): per-thread caches keyed by node id check it before use.
  uint64_t identity() const { return identity_; }

  // SymPy's is_even / is_odd of an integer expression: 0 even, 1 odd, -1 unknown (an
  // integer literal, a product with an even factor or of odd factors, a sum of known
  // parities, a power of a known base).
  int parity(ExprId e) const;

 private:
  friend class ExprBuilderAccess;
  uint64_t hash_node(ExprKind kind, std::span<const ExprId> ops, int64_t payload) const;
  void grow_table();

  // builders behind the memo (the public binary builders are memoised wrappers)
  enum MemoOp : uint32_t {
    kMemoAdd = 1, kMemoMul, kMemoPow, kMemoFloorDiv, kMemoCleanDiv, kMemoCeilDiv, kMemoMod, kMemoPythonMod,
    kMemoMax, kMemoMin, kMemoAnd, kMemoOr, kMemoNot, kMemoCompare, kMemoRelation = 64,  // + ExprKind
  };
  template <class Fn>
  ExprId memoized(uint32_t op, ExprId a, uint32_t b, Fn&& build) {
    if (ExprId r = memo_find(op, a, b)) return r;
    const ExprId r = build();
    memo_store(op, a, b, r);
    return r;
  }
  ExprId add_memoized(ExprId a, ExprId b);
  ExprId mul_memoized(ExprId a, ExprId b);
  ExprId relation_memoized(ExprKind kind, ExprId a, ExprId b);
  static bool integer_relation(ExprKind k, int64_t p, int64_t q) {
    switch (k) {
      case ExprKind::Eq: return p == q;
      case ExprKind::Ne: return p != q;
      case ExprKind::Lt: return p < q;
      case ExprKind::Le: return p <= q;
      case ExprKind::Gt: return p > q;
      case ExprKind::Ge: return p >= q;
      default: return false;
    }
  }
  ExprId add_uncached(ExprId a, ExprId b);
  ExprId mul_uncached(ExprId a, ExprId b);
  ExprId pow_uncached(ExprId base, int64_t exponent);
  ExprId floordiv_uncached(ExprId a, ExprId b);
  ExprId clean_div_uncached(ExprId a, ExprId b);
  ExprId ceildiv_uncached(ExprId a, ExprId b);
  ExprId mod_uncached(ExprId a, ExprId b);
  ExprId python_mod_uncached(ExprId a, ExprId b);
  ExprId relation_uncached(ExprKind kind, ExprId a, ExprId b);
  ExprId logical_not_uncached(ExprId a);
  uint8_t derive_facts(ExprKind kind, std::span<const ExprId> ops, int64_t payload) const;
  std::optional<int64_t> least_value(ExprId term) const;

  // free_symbols' walk. With at most 64 symbols the bloom bits are one per symbol, so a
  // sub-expression whose bits are all found already holds no new symbol and is skipped: a
  // DAG of shared sub-expressions is not walked as the (exponentially larger) tree.
  template <class List>
  void free_symbols_below(ExprId e, List& out, uint64_t& found) const {
    const uint64_t mask = sym_mask_[e.index()];
    if (mask == 0 || ((mask & ~found) == 0 && symbol_expr_.size() <= 64)) return;
    if (kind(e) == ExprKind::Symbol) {
      for (ExprId s : out)
        if (s == e) return;
      out.push_back(e);
      found |= mask;
      return;
    }
    for (ExprId op : operands(e)) free_symbols_below(op, out, found);
  }

  uint64_t identity_ = 0;
  // SoA columns, one row per node
  std::vector<ExprKind> kind_;
  std::vector<uint8_t> facts_;
  mutable std::vector<uint8_t> floordiv_nonneg_;  // floordiv_nonneg_memo
  std::vector<int64_t> payload_;
  std::vector<const ExprId*> ops_ptr_;  // into operand_store_: stable while the arena grows
  std::vector<uint32_t> ops_count_;
  std::vector<uint64_t> hash_;
  std::vector<uint64_t> sym_mask_;
  std::vector<uint32_t> tree_size_;
  ChunkedStore<ExprId, 1u << 16> operand_store_;
  // open-addressing intern table: node index plus the hash's high bits, so a probe that
  // meets another node rarely touches the node columns
  struct TableSlot {
    uint32_t id;
    uint32_t tag;
  };
  static_assert(sizeof(TableSlot) == 8);
  std::vector<TableSlot> table_;
  // Memo of builder calls, (builder, a, b) -> result, direct-mapped: canonicalising the
  // same operands again costs one probe. Builders are pure functions of immutable nodes,
  // so an entry never goes stale; clear() drops them with the nodes.
  struct MemoEntry {
    uint64_t key;  // generation << 48 | builder << 32 | a
    uint32_t b;
    uint32_t result;  // kNone = empty
  };
  static_assert(sizeof(MemoEntry) == 16);
  std::vector<MemoEntry> memo_;
  // clear() starts a new generation instead of wiping the memo: entries of older
  // generations never match (builder ids stay below 2^16).
  uint64_t memo_generation_ = 1;
  uint64_t memo_key(uint32_t builder, ExprId a) const {
    return (memo_generation_ << 48) | (uint64_t{builder} << 32) | a.value;
  }
  ExprId memo_find(uint32_t builder, ExprId a, uint32_t b) const {
    const uint64_t key = memo_key(builder, a);
    const MemoEntry& m = memo_[memo_slot(key, b)];
    return m.key == key && m.b == b ? ExprId(m.result) : ExprId{};
  }
  void memo_store(uint32_t builder, ExprId a, uint32_t b, ExprId r) {
    const uint64_t key = memo_key(builder, a);
    memo_[memo_slot(key, b)] = {key, b, r.value};
  }
  size_t memo_slot(uint64_t key, uint32_t b) const {
    const uint64_t h = (key ^ (uint64_t{b} * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;
    return static_cast<size_t>(h >> 40) & (memo_.size() - 1);
  }
  // symbols
  std::vector<ExprId> symbol_expr_;
  std::vector<SymbolKind> symbol_kind_;
  std::vector<uint8_t> symbol_facts_;
  std::vector<const char*> symbol_name_ptr_;  // into name_store_: views stay valid
  std::vector<uint32_t> symbol_name_len_;
  ChunkedStore<char, 1u << 14> name_store_;
  std::vector<uint32_t> symbol_table_;  // open addressing by name hash -> symbol index

  ExprId true_id_, false_id_, zero_id_, one_id_;
  static constexpr uint64_t kSmallIntBias = 64;
  static constexpr uint64_t kSmallIntCount = 64 + 1024;  // -64 .. 1023
  std::array<ExprId, kSmallIntCount> small_int_;
  // expand(e) by node id: nodes are immutable, so an expansion never goes stale
  std::vector<ExprId> expand_memo_;
  ExprId expand_uncached(ExprId e);
  // substitute(): per-call results by node id, valid where the stamp is the call's
  std::vector<uint32_t> subst_stamp_;
  std::vector<ExprId> subst_value_;
  uint32_t subst_epoch_ = 0;
};

// Numeric helpers shared by the builders and the evaluators.
double apply_opaque(OpaqueFn fn, double x);
bool non_overlapping_and_dense(std::span<const int64_t> sizes, std::span<const int64_t> strides);

}  // namespace symshape
