#pragma once
// ShapeEnv (semantics.md C): owns the symbols of one trace, their hints and ranges,
// records every decision taken on them (guards), simplifies with what it learned
// (replacements, ranges, divisibility, axioms), defers undecidable checks (runtime
// asserts) and emits the guard predicate (produce_guards).
//
// Data layout: the expression arena is owned here; per-symbol state is a set of columns
// indexed by SymbolId (the arena's symbol index); guards and runtime asserts are flat
// vectors of ExprId. One ShapeEnv per graph specialisation; `reset()` reuses capacity.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "expr/expr.h"
#include "expr/value_range.h"
#include "shape_env/axiom_table.h"
#include "shape_env/copyable_arena.h"
#include "shape_env/evaluate_cache.h"
#include "shape_env/source.h"

namespace symshape {

enum class DimDynamic : uint8_t { Duck, Dynamic, Static, SizeLikeUnbacked, ObliviousSize, InferStride };

enum class SymbolNaming : uint8_t {
  Hash,        // current PyTorch: s<sha256(source) mod 100>, probing upwards on collision
  Sequential,  // PyTorch <= 2.6: s0, s1, ... in creation order
};

struct ShapeEnvSettings {
  bool specialize_zero_one = true;
  bool duck_shape = true;
  bool assume_static_by_default = false;
  bool prefer_deferred_runtime_asserts_over_guards = false;
  bool allow_scalar_outputs = true;
  bool allow_dynamic_output_shape_ops = true;
  SymbolNaming naming = SymbolNaming::Hash;
};

// A min/max constraint from a user spec (export Dim).
struct DimConstraint {
  int64_t min = 0;
  std::optional<int64_t> max;  // none = unbounded
};

struct Guard {
  ExprId expr;
  bool size_oblivious = false;
};

struct RuntimeAssert {
  ExprId expr;       // canonical boolean form
  ExprId key;        // unbacked symbol with the largest suffix, or invalid ("none")
  std::string message;
};

// One (source, value) pair tracked by produce_guards' traversal (phase 0).
struct TrackedInput {
  SourceId source;
  ExprId value;
};

struct ProduceGuardsOptions {
  bool ignore_static = true;
  bool simplified = false;  // PyTorch's `_simplified`
};

class ShapeEnv {
 public:
  explicit ShapeEnv(ShapeEnvSettings settings = {});
  void reset();  // back to an empty environment, keeping capacity

  ExprArena& arena() { return arena_; }
  const ExprArena& arena() const { return arena_; }
  SourceTable& sources() { return sources_; }
  const ShapeEnvSettings& settings() const { return settings_; }

  // ---- symbol creation (C.3, C.4) ---------------------------------------------
  // Returns a constant for STATIC / 0-1 specialisation, a (possibly duck-shared) symbol
  // otherwise. `name` overrides the naming policy (spec dim names). Throws
  // ConstraintViolation for values outside the constraint.
  ExprId create_symbol(int64_t value, SourceId source, DimDynamic dynamic = DimDynamic::Duck,
                       const DimConstraint* constraint = nullptr, bool positive = true,
                       bool do_not_specialize_zero_one = false, std::string_view name = {});
  ExprId create_unspecified_symbol(int64_t value, SourceId source);
  // A backed float input (SymFloat): `zf<N>`, N = number of backed symbols so far, range
  // [-oo, oo]; produce_guards checks it is not NaN.
  ExprId create_float_symbol(double value, SourceId source);
  ExprId create_unbacked_symint();
  ExprId create_unbacked_symbool();  // returns Eq(u, 1)
  ExprId create_unbacked_symfloat();
  // Length of a data-dependent output holding at most `max_len` elements (nonzero,
  // masked_select; B.3): the constant 0 when `max_len` is statically 0, else a fresh
  // size-like unbacked symbol in [0, max_len's upper bound] (2**63-2 when unbounded).
  ExprId create_data_dependent_length(ExprId max_len);

  struct SymbolicTensorMeta {
    std::vector<ExprId> sizes, strides;
    ExprId storage_offset;
  };
  // Fakeification of one input tensor (C.4). `dynamic_sizes` may be empty (all DUCK);
  // `stride_dynamic` may be empty (all INFER_STRIDE); `constraints` may be empty.
  SymbolicTensorMeta create_symbolic_sizes_strides_storage_offset(
      std::span<const int64_t> sizes, std::span<const int64_t> strides, int64_t storage_offset, SourceId tensor,
      std::span<const DimDynamic> dynamic_sizes = {}, std::span<const DimDynamic> stride_dynamic = {},
      std::span<const DimConstraint* const> constraints = {}, std::span<const std::string_view> names = {});

  // ---- per-symbol state --------------------------------------------------------
  bool is_backed(ExprId sym) const;
  std::optional<int64_t> hint(ExprId sym) const;
  const ValueRange& range(ExprId sym) const;
  bool is_size_like(ExprId sym) const;
  bool is_unbacked(ExprId sym) const;
  bool is_unbacked_input(ExprId sym) const;  // SIZE_LIKE_UNBACKED / OBLIVIOUS_SIZE inputs
  // Backed symbols created so far (PyTorch's len(var_to_val)); replacements keep them.
  uint32_t backed_symbol_count() const { return backed_count_; }
  const std::vector<SourceId>& symbol_sources(ExprId sym) const;
  void add_source(ExprId sym, SourceId source);  // another input reads the same symbol
  ExprId replacement(ExprId sym) const;  // invalid when none
  uint32_t guard_count(ExprId sym) const;
  void set_unbacked_var_to_val(ExprId sym, int64_t value);

  // ---- queries (C.5, C.6, C.9) -----------------------------------------------------
  ExprId replace(ExprId e);                               // apply replacements, expand
  ExprId simplify(ExprId e, bool size_oblivious = false);  // C.9
  // PyTorch's lru_cache keys on the call's exact arguments: `simplify(expr)` (the axioms,
  // _refine_ranges, produce_guards' printing) and `_maybe_evaluate_static`'s
  // `simplify(expr, size_oblivious)` are cached apart, each kept until it is cleared.
  // An engine shortcut (decided_true) simplifies in a space of its own, which PyTorch's
  // calls never read.
  enum SimplifyCall : uint8_t { kBareSimplify, kStaticSimplify, kShortcutSimplify, kSimplifyCalls };
  ExprId simplify_as(ExprId e, bool size_oblivious, SimplifyCall call);
  ValueRange bound(ExprId e, bool size_oblivious = false);
  std::optional<ExprId> maybe_evaluate_static(ExprId e, bool size_oblivious = false, bool unbacked_only = false);
  bool has_hint(ExprId e);
  int64_t size_hint(ExprId e);  // throws DataDependent when unbacked
  ExprId hint_value(ExprId e);  // hinted constant (int, float or bool)
  bool statically_known_true(ExprId b);
  bool statically_known_false(ExprId b);
  // statically_known_true for the engine's own shortcuts (a conjunct of a check known true
  // decides it without building the And): PyTorch makes no such call, so its answer is kept
  // apart from the `(expr)` calls' cache that simplify's Max(1, b) fold reads (StaticCall).
  bool decided_true(ExprId b);

  // ---- guarding (C.7) ---------------------------------------------------------------
  // Evaluates `e` (bool, int or float) to a constant, recording a guard when needed.
  ExprId evaluate_expr(ExprId e, bool size_oblivious = false, std::optional<bool> fallback = {},
                       std::string_view location = {});
  bool guard_bool(ExprId cond, std::string_view location = {});
  int64_t guard_int(ExprId e, std::string_view location = {});
  double guard_float(ExprId e, std::string_view location = {});
  bool guard_or_false(ExprId cond);
  bool guard_or_true(ExprId cond);
  bool guard_size_oblivious(ExprId cond);
  // torch._check: backed -> guard; unbacked -> deferred runtime assert. Returns the value.
  bool expect_true(ExprId cond, std::string_view message = {});
  bool guard_or_defer_runtime_assert(ExprId cond, std::string_view message = {});
  void defer_runtime_assert(ExprId cond, std::string_view message = {});
  // Refinement entry points
  void constrain_range(ExprId sym, ExtNum lo, ExtNum hi);
  void constrain_range_for_size(ExprId sym, std::optional<int64_t> min = {}, std::optional<int64_t> max = {});

  // ---- recorded state -----------------------------------------------------------------
  const std::vector<Guard>& guards() const { return guards_; }
  const std::vector<RuntimeAssert>& runtime_asserts() const { return runtime_asserts_; }
  std::vector<ExprId> runtime_asserts_for(ExprId key) const;
  const std::vector<ExprId>& divisible() const { return divisible_; }
  std::string format_guards() const;  // " - <str>" per guard

  // ---- scopes and flags (C.14) ------------------------------------------------------------
  void freeze() { frozen_ = true; }
  bool frozen() const { return frozen_; }
  uint32_t ignored_guards_after_freeze() const { return ignored_after_freeze_; }
  void freeze_runtime_asserts() { runtime_asserts_frozen_ = true; }
  class SuppressGuards {
   public:
    explicit SuppressGuards(ShapeEnv& env) : env_(env) { ++env_.suppress_depth_; }
    ~SuppressGuards() { --env_.suppress_depth_; }
    SuppressGuards(const SuppressGuards&) = delete;
    SuppressGuards& operator=(const SuppressGuards&) = delete;

   private:
    ShapeEnv& env_;
  };
  bool guards_suppressed() const { return suppress_depth_ > 0; }

  // ---- unbacked bindings (C.12) --------------------------------------------------------------
  const std::vector<ExprId>& pending_fresh_unbacked_symbols() const { return pending_unbacked_; }
  void clear_pending_unbacked() { pending_unbacked_.clear(); }
  // How an output exposes an unbacked symbol: the value itself, `c*u` (read it and divide
  // by c), or the SymBool `Eq(u, 1)` (convert the bool to an int).
  enum class BindingKind : uint8_t { Direct, DivideByCoefficient, BoolToInt };
  struct UnbackedBinding {
    ExprId symbol;
    uint32_t output;  // index into the outputs passed in
    BindingKind kind;
    ExprId coefficient;  // for DivideByCoefficient: c (an integer or a backed symbol)
  };
  // Binding sites of every pending fresh unbacked symbol among an op's output values
  // (sizes, strides, offsets or scalars, flattened). Clears the pending list; throws
  // Error(Internal) "Pending unbacked symbols {...} not in returned outputs ..." when a
  // pending symbol appears in none of them as a bindable form.
  std::vector<UnbackedBinding> compute_unbacked_bindings(std::span<const ExprId> outputs);

  // ---- guard output (C.11) --------------------------------------------------------------------
  // The guard predicate as boolean expressions over symbols plus, for each, its printed form.
  struct ProducedGuards {
    std::vector<std::string> text;   // Python form, one line per guard, in PyTorch's order
    // Machine-checkable form, parallel to `text`: a boolean expression over the bound
    // symbols, or invalid for lines checked through source_equalities / float_not_nan.
    std::vector<ExprId> exprs;
    std::vector<std::pair<SourceId, ExprId>> source_equalities;  // value(source) == expr
    std::vector<ExprId> float_not_nan;
    std::vector<ExprId> bound_symbols;     // symbols bound directly from an input source
    std::vector<SourceId> bound_sources;   // ... and that source (first source in traversal)
  };
  ProducedGuards produce_guards(std::span<const TrackedInput> inputs, const ProduceGuardsOptions& options = {});
  // Phase 2 of produce_guards: the recorded guards that ranges alone (no axioms) do not
  // decide, simplified, without repeats, in recording order.
  std::vector<ExprId> undecided_guards();
  // Python source for an expression, each symbol printed as its first source.
  std::string guard_text(ExprId e, const std::unordered_map<uint32_t, SourceId>& symbol_source);

  // bind_symbols: symbol -> value from concrete tracked values (bare symbols and -s only).
  std::vector<std::pair<ExprId, int64_t>> bind_symbols(std::span<const TrackedInput> inputs,
                                                       std::span<const int64_t> values) const;

  // Error text of a data-dependent guard (C.15).
  [[noreturn]] void raise_data_dependent(ExprId e, bool integer_valued, std::string_view location);

 private:
  struct SymbolState {
    std::optional<int64_t> hint;
    std::optional<double> float_hint;  // backed float symbols (zf)
    std::optional<int64_t> unbacked_value;  // real-tensor value of an unbacked symbol
    std::optional<int64_t> oblivious_value;  // OBLIVIOUS_SIZE input's example value
    ValueRange range;
    std::vector<SourceId> sources;
    ExprId replacement;
    uint32_t guard_count = 0;
    bool size_like = false;
    bool unbacked = false;
    bool unbacked_input = false;
  };
  ValueRange symbol_range(SymbolId s, bool size_oblivious) const;
  SymbolState& state(ExprId sym);
  const SymbolState& state(ExprId sym) const;
  ExprId new_symbol(std::string name, SymbolKind kind, uint8_t facts);
  std::string backed_name(SourceId source);

  ExprId find(ExprId sym);  // transitive replacement with path compression
  void set_replacement(ExprId sym, ExprId target);
  void maybe_guard_rel(ExprId g);
  void refine_ranges(ExprId rel);
  void update_range(ExprId sym, const ValueRange& r);
  void add_axioms(ExprId g);
  void record_guard(ExprId g, bool size_oblivious);
  std::optional<ExprId> evaluate_with_axioms(ExprId e);
  ExprId canonical(ExprId e);  // memoised canonicalize_bool
  ExprId simplify_uncached(ExprId e, bool size_oblivious);
  // Decides an integer relation from the range of lhs - rhs (optionally expanded).
  std::optional<ExprId> decide_by_difference(ExprId rel, bool expand, bool size_oblivious);
  std::optional<ExprId> decide_by_reduced_parity(ExprId rel);
  bool contains_unbacked_without_hint(ExprId e);
  ExprId substitute_hints(ExprId e);
  // C.5/C.7: the value of `e` with every OBLIVIOUS_SIZE symbol at its example value v,
  // provided substituting max(2, v) instead gives the same value; else none.
  std::optional<ExprId> oblivious_hint(ExprId e);
  // After `divisible_` grows: FloorDiv inside axioms may now be CleanDiv; re-key them.
  void resimplify_floordiv_axioms();
  // Divisibility facts are matched with CleanDiv spelled as FloorDiv (the inner division
  // of Mod(a, a//2) may already have become CleanDiv when the fact is looked up).
  ExprId as_floordiv(ExprId e);
  // as_floordiv by node (a pure function of the immutable node): a DAG of shared floor
  // divisions, as the view helper's sizes make, is rewritten once per node, not per path
  std::vector<ExprId> as_floordiv_memo_;
  bool known_divisible(ExprId mod);
  // A change to a symbol's range, size-likeness or replacement: range_version_ moves only
  // then, so range memos survive the axioms every guard adds.
  void bump_version() {
    ++range_version_;
    ++simplify_version_;
  }
  // A new divisibility fact: simplify() reads it.
  void bump_divisible_version() { ++simplify_version_; }
  // PyTorch's _version_counter moved (the count of replacements, divisibility facts or
  // deferred runtime asserts grew): its _lru_cache'd simplify and _maybe_evaluate_static
  // are cleared. _refine_ranges clears the latter alone (static_cache_version_).
  void bump_version_counter() {
    ++static_cache_version_;
    ++simplify_cache_version_;
  }

  ShapeEnvSettings settings_;
  CopyableArena arena_;  // copyable so the environment is (behaviour 127)
  SourceTable sources_;
  std::vector<SymbolState> symbols_;                 // by SymbolId
  std::unordered_map<int64_t, ExprId> val_to_var_;   // duck sizing
  std::vector<uint8_t> used_numbers_;                // hash naming: s<N> taken
  std::vector<Guard> guards_;
  std::vector<RuntimeAssert> runtime_asserts_;
  std::vector<ExprId> divisible_;
  AxiomTable axioms_;                                // canonical bool ExprId -> value
  std::vector<ExprId> pending_unbacked_;
  uint64_t replaced_mask_ = 0;                       // symbol_mask bits of replaced symbols
  uint32_t unbacked_counter_ = 0;
  uint32_t backed_count_ = 0;
  uint32_t unbacked_float_counter_ = 0;
  uint32_t sequential_counter_ = 0;
  uint32_t suppress_depth_ = 0;
  uint32_t ignored_after_freeze_ = 0;
  uint64_t range_version_ = 0;
  uint64_t replace_version_ = 0;  // bumped by every new replacement
  // What simplify() reads (replacements, ranges, divisibility; not the axioms every guard
  // adds): the simplify and fold memos hold for one value of it. The Max(1, b) fold asks the
  // axioms too, yet is kept like PyTorch's: its simplify and _maybe_evaluate_static are
  // _lru_cache'd per _version_counter, which a new guard does not bump.
  uint64_t simplify_version_ = 0;
  // PyTorch's _version_counter, which keys simplify()'s _lru_cache: it moves when the count
  // of replacements, divisibility facts or deferred runtime asserts grows (_get_key), not
  // when a range narrows. A whole expression simplified before a range refinement keeps
  // that form (a batch_norm guard `Max(1, A)*Max(1, B) != 1` printed unfolded although a
  // later guard made A >= 1 known); its sub-expressions' folds, like PyTorch's
  // _maybe_evaluate_static, are asked afresh (simplify_version_).
  uint64_t simplify_cache_version_ = 0;
  bool frozen_ = false;
  bool runtime_asserts_frozen_ = false;
  // produce_guards' `_maybe_evaluate_static(expr, axioms=())`: the decision ignores the
  // axioms, simplify's Max fold inside it does not (undecided_guards)
  bool static_without_axioms_ = false;
  // When PyTorch's _maybe_evaluate_static cache is cleared: its _lru_cache clears when the
  // _version_counter moves (the count of replacements, divisibility facts, deferred runtime
  // asserts or real unbacked values grew: _get_key), and _refine_ranges clears it when a
  // guard narrows a symbol's range. A guard alone (an axiom) does not clear it.
  uint64_t static_cache_version_ = 0;
  // _maybe_evaluate_static's _lru_cache by ExprId: decided and undecided answers alike hold
  // for one static_cache_version_, so a question undecided before a guard stays undecided
  // after it, and a decided one is asked afresh once the cache is cleared (when simplify
  // may fold a Max the first answer relied on). lru_cache keys on the call's exact arguments, so
  // each call form has its own table (StaticCall).
  struct StaticMemo {
    ExprId value;         // invalid: undecided
    uint64_t stamp = 0;   // static_cache_version_ + 1 when valid
  };
  enum StaticCall : uint8_t {
    kEvaluateExpr = 0,           // evaluate_expr's `(expr, size_oblivious=False)`
    kEvaluateExprOblivious = 1,  // ... `size_oblivious=True`
    kBareCall = 2,               // `(expr)`: statically_known_true, simplify's Max fold, runtime asserts
    kEngineShortcut = 3,         // decided_true: no PyTorch call, so no PyTorch cache
  };
  std::vector<StaticMemo> static_memo_[4];
  EvaluateCache evaluate_cache_;  // evaluate_expr's lru_cache(256)
  ExprId evaluate_expr_uncached(ExprId e, bool size_oblivious, std::optional<bool> fallback, std::string_view location);
  std::optional<ExprId> maybe_evaluate_static_as(ExprId e, bool size_oblivious, bool unbacked_only, StaticCall call);
  std::vector<ExprId> canonical_memo_;  // canonicalize_bool, by ExprId
  // The canonical sides of a relation's difference `to - from` (expr/canonical.h), by the
  // operand pair: the relations a guard implies share two differences, and a question and
  // its negation share one. Direct-mapped, entries of an older generation never match.
  struct SidesEntry {
    uint32_t to = 0, from = 0, generation = 0;
    ExprId lhs, rhs;
  };
  std::vector<SidesEntry> sides_memo_;
  uint32_t sides_generation_ = 0;
  std::pair<ExprId, ExprId> relation_sides(ExprId to, ExprId from);
  SidesEntry& sides_slot(ExprId to, ExprId from);
  struct SimplifyMemo {
    ExprId value;
    uint64_t version = ~0ull;
  };
  // by SimplifyCall: simplify(e), valid for one simplify_cache_version_
  std::vector<SimplifyMemo> simplify_memo_[kSimplifyCalls];
  // simplify()'s fold of one node (Max/Min against 0/1, TruncToInt, FloorDiv -> CleanDiv),
  // one per size_oblivious mode, valid for one simplify_version_: the sub-expressions
  // questions share are folded once, not once per question.
  struct FoldMemo {
    ExprId value;
    uint64_t version = ~0ull;
    bool exact_division = false;  // the result holds a division known exact (CleanDiv)
  };
  std::vector<FoldMemo> fold_memo_[2];
  ExprId fold(ExprId n, bool size_oblivious);
  // simplify's divisibility passes expand their result once a floor division is known
  // exact, unless the expansion brings in a power the expression did not have
  ExprId expand_after_exact_division(ExprId folded);
  // bound(e) per node, one per size_oblivious mode, valid for one version (ranges only
  // change with a version bump). Symbols are looked up, not memoised.
  struct RangeMemo {
    ValueRange range;
    uint64_t stamp = 0;  // range_version_ + 1 when valid
  };
  std::vector<RangeMemo> range_memo_[2];
  struct ReplaceMemo {
    ExprId value;
    uint64_t stamp = 0;  // replace_version_ + 1 when valid
  };
  std::vector<ReplaceMemo> replace_memo_;
  ExprId replace_uncached(ExprId e);
  ExprId shift_symbol(ExprId s);
  std::vector<ExprId> shift_symbols_;  // by SymbolId: the _shift_ stand-in, once made
  std::vector<ExprId> shift_origin_;   // by the stand-in's SymbolId: the symbol it shifts
  // The lower-bound shift of maybe_evaluate_static, x := x' + (lo - 1) for every symbol with
  // an integer lower bound, applied to node `n`: a function of the node and the ranges, so
  // memoised per node (one per size_oblivious mode) for one range_version_.
  ExprId shifted(ExprId n, bool size_oblivious);
  struct ShiftMemo {
    ExprId value;
    uint64_t stamp = 0;  // range_version_ + 1 when valid
  };
  std::vector<ShiftMemo> shift_memo_[2];
  std::vector<ExprId> bound_stack_;
  std::vector<ValueRange> bound_args_;
  bool memo_enabled_ = true;                 // produce_guards evaluates without axioms or memo
};

}  // namespace symshape
