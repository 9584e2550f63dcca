#pragma once
// PropContext: what an op rule sees while propagating one node. It reads the node's
// arguments (literal or from earlier nodes' values), builds output fake tensors, and
// routes every size check through the ShapeEnv so that it becomes a guard, a
// replacement, a runtime assert or an error, exactly as PyTorch's meta kernels do.
//
// A rule is a plain function `void rule(PropContext&)` in a table indexed by OpId
// (rules.h); it must set the node's value (set_tensor / set_value) or throw.
#include <fmt/core.h>

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "prop/reference_host.h"
#include "prop/small_vector.h"
#include "prop/values.h"
#include "shape_env/shape_env.h"

namespace symshape {

constexpr size_t kMaxRank = 16;
using Dims = FixedVector<ExprId, kMaxRank>;
using IntDims = FixedVector<int64_t, kMaxRank>;

// Keyword arguments rules read, resolved to KeyIds once per OpTable.
enum class Key : uint8_t {
  dtype, layout, device, pin_memory, memory_format, alpha, beta, approximate, value, keepdim, dim,
  correction, unbiased, out_dtype, negative_slope, min_val, max_val, output_size, scale, enable_gqa,
  is_causal, dropout_p, attn_mask, non_blocking, copy, align_corners, scale_factors, kCount
};

// Python-scalar / tensor category of an operand for type promotion (semantics.md H.3).
enum class ScalarCategory : uint8_t { Bool, Integer, Floating, Complex };

// Storage of PropContext's layout-predicate cache, owned by whoever runs propagations
// (the Propagator) so its arrays keep their capacity from run to run; cleared per run.
struct LayoutCache {
  struct Entry {
    uint64_t hash = 0;
    uint32_t dims_begin = 0;
    uint8_t rank = 0;
    uint16_t known = 0;  // bit per PropContext::LayoutBit
    uint16_t value = 0;
  };
  std::vector<Entry> entries;
  std::vector<uint32_t> table;  // open addressing: entry index + 1, 0 = empty
  std::vector<ExprId> dims;     // sizes then strides of each entry
  // The entry found last: a rule asks several predicates of one operand in a row, and
  // comparing against it is cheaper than hashing (entry index + 1, 0 = none).
  uint32_t last = 0;
  // by TensorId: FakeTensorMode's cache metadata already asked of the tensor
  // (fake_dispatch_cache.h), so an operand seen by many ops is not hashed again
  std::vector<uint8_t> metadata_asked;
  // by TensorId: FakeTensor's nonzero_memo, the unbacked count of its nonzero() (invalid:
  // none yet, or the tensor was a node's result since, as an in-place op's is)
  std::vector<ExprId> nonzero_memo;
  void clear() {
    entries.clear();
    std::fill(table.begin(), table.end(), 0u);
    dims.clear();
    last = 0;
    metadata_asked.clear();
    nonzero_memo.clear();
  }
};

// Inference mode (`symshape infer`, engine/infer): a size requirement that fails at the hints
// is recorded with its node instead of failing the rule, which continues as if it held, so one
// trace collects every failing check (semantics.md E.6). SumEq tags split sizes whose sum must
// equal the split dim; other kinds are read off the condition (Eq, Divides, Le).
enum class CheckKind : uint8_t { Auto, SumEq };
struct FailedCheck {
  ExprId cond;  // the requirement, a boolean expression over the trace's symbols
  NodeId node;
  CheckKind kind;
};

class PropContext {
 public:
  PropContext(const Graph& graph, ShapeEnv& env, ValueTable& values, std::span<ValId> node_values,
              LayoutCache& layout);

  const Graph& graph;
  ShapeEnv& env;
  ExprArena& ar;
  ValueTable& vals;
  // The reference process's settings (reference_host.h); set by the Propagator per run.
  ReferenceHost host = kFakeTensorModeHost;

  // ---- the current node ----------------------------------------------------------
  // `is_view`: the op's schema aliases an argument without writing it (OpSchema::is_view)
  void begin_node(NodeId n, bool is_view = false);
  NodeId node() const { return node_; }
  std::string_view node_name() const { return graph.node_name(node_); }
  std::string_view target() const { return graph.node_target(node_); }
  size_t num_args() const { return graph.node_args(node_).size(); }
  ArgId arg(size_t i) const {  // invalid when the schema argument is absent
    auto args = graph.node_args(node_);
    return i < args.size() ? args[i] : ArgId();
  }
  ArgId kwarg(Key k) const;       // invalid when not given
  // Schema argument `i` named `name`, given positionally or by keyword (a keyword-only
  // argument without a default, e.g. meshgrid's `indexing`, is in `kwargs` in a torch.export
  // graph and positional in hand-made ones); invalid when given neither way.
  ArgId arg_or_kwarg(size_t i, std::string_view name) const;
  bool is_none(ArgId a) const { return !a.valid() || graph.arg_kind(a) == ArgKind::None; }

  // ---- reading arguments ------------------------------------------------------------
  ValId value_of(ArgId a) const {  // a Node ARG's value
    if (!a.valid() || graph.arg_kind(a) != ArgKind::Node) fail_not_a_node();
    return node_values_[graph.arg_node(a).index()];
  }
  ValId node_value(NodeId n) const { return node_values_[n.index()]; }
  TensorId tensor(ArgId a) const {  // throws unless a tensor-valued node
    if (!is_tensor(a)) fail_not_a_tensor();
    return vals.as_tensor(node_values_[graph.arg_node(a).index()]);
  }
  TensorId tensor_arg(size_t i) const { return tensor(arg(i)); }
  std::optional<TensorId> opt_tensor(ArgId a) const;
  bool is_tensor(ArgId a) const {
    return a.valid() && graph.arg_kind(a) == ArgKind::Node &&
           vals.kind(node_values_[graph.arg_node(a).index()]) == ValKind::Tensor;
  }
  // A list of tensors (cat, stack, index): null entries give invalid TensorIds.
  void tensor_list(ArgId a, std::vector<TensorId>& out) const;
  ExprId int_expr(ArgId a) const;           // int literal, bool literal, or a SymInt node
  int64_t int_const(ArgId a);               // guard_int on symbolic values
  std::optional<int64_t> opt_int(ArgId a);  // None -> nullopt
  // An int list argument (a single int becomes a one-element list).
  void int_list(ArgId a, Dims& out) const;
  void int_list_const(ArgId a, IntDims& out);
  double float_const(ArgId a) const;        // int or float literal, or a constant SymFloat
  bool bool_const(ArgId a) const;
  std::string_view string_arg(ArgId a) const;
  std::optional<DType> opt_dtype(ArgId a) const;
  // Category of a scalar operand (literal or Sym node), or of a tensor's dtype.
  ScalarCategory scalar_category(ArgId a) const;

  // ---- building results -------------------------------------------------------------------
  TensorId new_tensor(DType dtype, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                      ExprId storage_offset = {});
  TensorId new_contiguous(DType dtype, std::span<const ExprId> sizes);
  TensorId new_channels_last(DType dtype, std::span<const ExprId> sizes);
  // A view of `base`: shares its storage.
  TensorId new_view(TensorId base, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                    ExprId storage_offset);
  TensorId new_view_dtype(TensorId base, DType dtype, std::span<const ExprId> sizes,
                          std::span<const ExprId> strides, ExprId storage_offset);
  void set_tensor(TensorId t);
  void set_value(ValId v);
  void set_tensors(std::span<const TensorId> ts);  // a list value (split, topk, ...)
  void set_int(ExprId e) { set_value(vals.of_int(e)); }

  // max(size, 1): the factor a size contributes to a new dense tensor's strides (c10's
  // `size.max(1)`), folded only from facts (a symbol, a product of symbols) as SymPy folds
  // it, never from the ranges: PyTorch's strides keep Max(1, (H - 3)//2 - 1), and later
  // questions over them fold (or not) as PyTorch's do
  ExprId stride_factor(ExprId size) {
    return ar.is_integer_const(size) ? ar.integer(std::max<int64_t>(ar.int_value(size), 1)) : ar.max(ar.one(), size);
  }
  // contiguous strides: stride[i] = stride[i+1] * max(size[i+1], 1) (semantics.md H.2)
  void contiguous_strides(std::span<const ExprId> sizes, Dims& out);
  // The strides of a contiguous tensor viewed as `sizes` (computeStride over one chunk with
  // base stride 1; 2.x's split_dim): products of the raw sizes, without the max(size, 1) of a
  // new tensor's. A possibly empty view takes computeStride's zero-element branch: the
  // contiguous strides.
  void view_contiguous_strides(std::span<const ExprId> sizes, Dims& out);
  // every size known nonzero (a literal, or statically decided): Max(1, s) and s then agree
  bool known_nonzero(std::span<const ExprId> sizes);
  // channels_last (rank 4) / channels_last_3d (rank 5) strides, raw sizes (no max)
  void channels_last_strides(std::span<const ExprId> sizes, Dims& out);
  bool is_contiguous(TensorId t);                 // H.2 test, decided through guards
  bool is_channels_last_contiguous(TensorId t);
  bool is_non_overlapping_and_dense(TensorId t);
  // One cached answer per distinct (sizes, strides) and predicate: many tensors share a
  // layout, and once a predicate was decided (statically or by a guard) it cannot change.
  // The kPrims* bits are torch/_prims_common's forms of the predicates (shape_helpers.h),
  // which ask other questions than the C++ ones.
  enum LayoutBit : uint8_t {
    kContiguous = 0, kChannelsLast = 1, kDense = 2, kStridesLikeChannelsLast = 3,
    kPrimsContiguous = 4, kPrimsChannelsLast2d = 5, kPrimsDense = 6, kPrimsStridesLikeChannelsLast = 7,
    kCxxStridesLikeChannelsLast = 8  // the SymInt form (suggest_memory_format_cxx)
  };
  // True the first time FakeTensorMode's cache metadata is asked of tensor t
  // (fake_dispatch_cache.h), then false; under SuppressGuards always true (nothing recorded).
  bool first_metadata_question(TensorId t) {
    if (env.guards_suppressed()) return true;  // recorded nothing: asked again later
    std::vector<uint8_t>& asked = layout_.metadata_asked;
    if (asked.size() <= t.index()) asked.resize(t.index() + t.index() / 2 + 64, 0);
    if (asked[t.index()]) return false;
    asked[t.index()] = 1;
    return true;
  }
  // FakeTensor's nonzero_memo of tensor t: the count a nonzero() of it created, kept until
  // an in-place op returns t (its version moves). Invalid when none.
  ExprId& nonzero_memo(TensorId t) {
    std::vector<ExprId>& memo = layout_.nonzero_memo;
    if (memo.size() <= t.index()) memo.resize(t.index() + t.index() / 2 + 64);
    return memo[t.index()];
  }
  // Under ShapeEnv::SuppressGuards an answer is computed but not kept: it recorded no
  // guard, and a later question must still record its own.
  template <class F>
  bool cached_layout(TensorId t, LayoutBit bit, F&& compute) {
    return cached_layout(vals.sizes(t), vals.strides(t), bit, std::forward<F>(compute));
  }
  template <class F>
  bool cached_layout(std::span<const ExprId> sizes, std::span<const ExprId> strides, LayoutBit bit, F&& compute) {
    // by index: computing may add entries (a predicate asks another one)
    const uint32_t i = layout_index(sizes, strides);
    if (layout_.entries[i].known & (1u << bit)) return (layout_.entries[i].value >> bit) & 1u;
    const bool v = compute();
    if (env.guards_suppressed()) return v;
    LayoutEntry& e = layout_.entries[i];
    e.known |= static_cast<uint16_t>(1u << bit);
    if (v) e.value |= static_cast<uint16_t>(1u << bit);
    return v;
  }

  // ---- checks through the ShapeEnv ------------------------------------------------------
  // evaluate_expr: static, else a guard from the hint
  bool guard(ExprId cond) {
    if (cond == ar.true_()) return true;
    if (cond == ar.false_()) return false;
    return env.guard_bool(cond, node_name());
  }
  // data-dependent -> false, no guard
  bool guard_or_false(ExprId cond) {
    if (cond == ar.true_()) return true;
    if (cond == ar.false_()) return false;
    return env.guard_or_false(cond);
  }
  bool guard_or_true(ExprId cond);
  bool known_true(ExprId cond) { return env.statically_known_true(cond); }
  // known_true for a shortcut of the engine's own (ShapeEnv::decided_true)
  bool decided_true(ExprId cond) { return env.decided_true(cond); }
  int64_t guard_int(ExprId e);
  int64_t hint(ExprId e) { return env.size_hint(e); }
  // A size requirement (torch._check): true when it holds (a guard or a deferred assert as
  // needed). When it fails: false, unless inference mode records it and the rule continues.
  bool require(ExprId cond, CheckKind kind = CheckKind::Auto) {
    if (cond == ar.true_() || env.expect_true(cond, node_name())) return true;
    return tolerate(cond, kind);
  }
  // The failure path of a requirement a rule tested another way (a guard on the failing
  // condition): true when inference mode recorded `required` and the rule should continue.
  bool tolerate(ExprId required, CheckKind kind = CheckKind::Auto) {
    if (failed_checks_ == nullptr) return false;
    failed_checks_->push_back({required, node_, kind});
    return true;
  }
  void set_failed_checks(std::vector<FailedCheck>* log) { failed_checks_ = log; }
  bool inference_mode() const { return failed_checks_ != nullptr; }
  // Inference mode only: a requirement of the current node failed and was recorded (the
  // op would have raised there, so no later question of it is asked).
  bool node_failed_a_check() const {
    return failed_checks_ != nullptr && !failed_checks_->empty() && failed_checks_->back().node == node_;
  }
  // Records `cond` (torch._check / meta-kernel check); throws a shape error if it fails.
  template <class... A>
  void check(ExprId cond, fmt::format_string<A...> f, A&&... a) {
    if (!env.expect_true(cond, node_name()) && !tolerate(cond)) fail(f, std::forward<A>(a)...);
  }
  template <class... A>
  [[noreturn]] void fail(fmt::format_string<A...> f, A&&... a) {
    fail_message(fmt::format(f, std::forward<A>(a)...));
  }
  [[noreturn]] void fail_message(std::string message);
  // Wraps a possibly negative dim against `rank` (a 0-d tensor counts as rank 1); throws
  // PyTorch's IndexError text when out of range.
  int64_t wrap_dim(int64_t dim, int64_t rank);

  // ---- printing for messages -------------------------------------------------------------
  std::string str(ExprId e) const;                  // internal form (`s0`, `2*s0 + 1`)
  std::string shape_str(std::span<const ExprId> s) const;  // "[2, s0, 3]"

  // Scratch vectors, reused across nodes (no allocation in steady state).
  std::vector<TensorId> scratch_tensors;
  std::vector<ExprId> scratch_exprs;

 private:
  [[noreturn, gnu::cold]] void fail_not_a_node() const;
  [[noreturn, gnu::cold]] void fail_not_a_tensor() const;
  // Layout predicates (contiguous, channels_last, non-overlapping-and-dense) by the
  // hash-consed (sizes, strides) of a tensor: many tensors share a layout, and once a
  // predicate was decided (statically or by a guard) the answer cannot change.
  using LayoutEntry = LayoutCache::Entry;
  uint32_t layout_index(std::span<const ExprId> sizes, std::span<const ExprId> strides);
  bool compute_is_contiguous(TensorId t);
  bool compute_is_channels_last_contiguous(TensorId t);
  bool compute_is_non_overlapping_and_dense(TensorId t);
  LayoutCache& layout_;
  std::vector<FailedCheck>* failed_checks_ = nullptr;  // inference mode when set

  NodeId node_;
  uint32_t node_first_tensor_ = 0;  // vals.tensor_count() when the node began
  bool node_is_view_ = false;       // the op only aliases (to, contiguous returning self)
  std::span<ValId> node_values_;
  KeyId keys_[static_cast<size_t>(Key::kCount)];
};

}  // namespace symshape
