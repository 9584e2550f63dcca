#include "prop/propagate.h"

#include <fmt/core.h>

#include <algorithm>
#include <optional>

#include "core/checked_math.h"
#include "prop/context.h"
#include "prop/fake_dispatch_cache.h"
#include "prop/op_schema.h"

namespace symshape {

void contiguous_int_strides(std::span<const int64_t> sizes, std::vector<int64_t>& out) {
  out.assign(sizes.size(), 1);
  int64_t running = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    out[i] = running;
    running = checked_mul(running, std::max<int64_t>(sizes[i], 1));
  }
}

void Propagator::check_input_sizes(PlaceholderId p, std::span<const int64_t> sizes) const {
  const NodeId n = graph_.placeholder_node(p);
  const uint32_t rank = graph_.placeholder_rank(p);
  if (sizes.size() != rank && !(any_input_rank_ && policy_ == InputPolicy::Static))
    throw_error(ErrorKind::Shape, fmt::format("input {} has rank {} but the graph expects rank {}",
                                              graph_.node_name(n), sizes.size(), rank));
  for (int64_t s : sizes)
    if (s < 0) throw_error(ErrorKind::Shape, fmt::format("input {} has a negative size", graph_.node_name(n)));
}

// Duck / Static inputs: what FakeTensorMode.from_tensor makes of a contiguous tensor (C.4).
void Propagator::place_converted(ShapeEnv& env, PlaceholderId p, std::span<const int64_t> sizes) {
  check_input_sizes(p, sizes);
  const SourceId tensor_source = env.sources().local(graph_.node_name(graph_.placeholder_node(p)));
  std::vector<int64_t> strides;
  contiguous_int_strides(sizes, strides);
  FixedVector<DimDynamic, 16> dynamic;  // empty: every size DUCK
  if (policy_ == InputPolicy::Static) dynamic.resize(sizes.size(), DimDynamic::Static);
  if (policy_ == InputPolicy::Automatic)
    for (size_t d = 0; d < sizes.size(); ++d) {
      const bool dyn = p.index() < dynamic_mask_.size() && d < dynamic_mask_[p.index()].size() && dynamic_mask_[p.index()][d];
      dynamic.push_back(dyn ? DimDynamic::Dynamic : DimDynamic::Static);
    }
  const ShapeEnv::SymbolicTensorMeta meta =
      env.create_symbolic_sizes_strides_storage_offset(sizes, strides, 0, tensor_source, dynamic.span());
  add_input_tensor(env, p, tensor_source, meta);
}

void Propagator::place_input(ShapeEnv& env, PlaceholderId p, std::span<const int64_t> sizes) {
  if (policy_ != InputPolicy::Spec) return place_converted(env, p, sizes);
  const NodeId n = graph_.placeholder_node(p);
  const uint32_t rank = graph_.placeholder_rank(p);
  check_input_sizes(p, sizes);
  const SourceId tensor_source = env.sources().local(graph_.node_name(n));
  std::vector<int64_t> strides;
  contiguous_int_strides(sizes, strides);

  // Spec'd dims are DYNAMIC with the spec's range and name; every other dim is static.
  FixedVector<DimDynamic, 16> dynamic;
  FixedVector<DimConstraint, 16> constraint_storage;
  FixedVector<const DimConstraint*, 16> constraints;
  FixedVector<std::string_view, 16> names;
  const bool has_spec = graph_.spec_has(p);
  std::span<const SpecDim> spec = has_spec ? graph_.spec_dims(p) : std::span<const SpecDim>();
  constraint_storage.resize(rank);
  // Derived dims (`dx + 1`) get their size from the root once this tensor's own symbols exist.
  FixedVector<uint8_t, 16> derived;
  derived.resize(rank);
  for (uint32_t d = 0; d < rank; ++d) {
    derived[d] = d < spec.size() && spec[d].sym.valid() && !graph_.spec_dim_fn(p, d).identity();
    if (derived[d]) {
      dynamic.push_back(DimDynamic::Static);  // placeholder; replaced below
      constraints.push_back(nullptr);
      names.push_back({});
    } else if (d < spec.size() && spec[d].sym.valid()) {
      const SymId sym = spec[d].sym;
      dynamic.push_back(DimDynamic::Dynamic);
      constraint_storage[d] = DimConstraint{graph_.sym_min(sym), graph_.sym_max(sym)};
      constraints.push_back(&constraint_storage[d]);
      names.push_back(graph_.sym_name(sym));
    } else {
      if (d < spec.size() && !spec[d].any_size && spec[d].size != sizes[d])
        throw_error(ErrorKind::ConstraintViolation,
                    fmt::format("Static shape constraint of {} does not match input size of {}, for {}.size()[{}]",
                                spec[d].size, sizes[d], env.sources().name(tensor_source), d));
      dynamic.push_back(DimDynamic::Static);
      constraints.push_back(nullptr);
      names.push_back({});
    }
  }
  // A dim name used again (e.g. `seq` of input_ids and attention_mask) is the same symbol.
  // So is a name repeated within this tensor (a square input `["n", "n"]`): later dims reuse
  // the first dim's symbol.
  FixedVector<ExprId, 16> reused;
  reused.resize(rank);
  FixedVector<uint32_t, 16> same_as;  // dim of this tensor whose symbol dim d reuses, or rank
  same_as.resize(rank);
  for (uint32_t d = 0; d < rank; ++d) {
    same_as[d] = rank;
    if (!(d < spec.size() && spec[d].sym.valid()) || derived[d]) continue;
    const uint32_t s = spec[d].sym.index();
    for (uint32_t e = 0; e < d && same_as[d] == rank; ++e)
      if (!reused[e].valid() && same_as[e] == rank && e < spec.size() && spec[e].sym == spec[d].sym) same_as[d] = e;
    if (same_as[d] != rank) {
      if (sizes[same_as[d]] != sizes[d])
        throw_error(ErrorKind::ConstraintViolation,
                    fmt::format("{}.size()[{}] = {} must equal the other dims named '{}' ({})",
                                env.sources().name(tensor_source), d, sizes[d], graph_.sym_name(spec[d].sym),
                                sizes[same_as[d]]));
      dynamic[d] = DimDynamic::Static;  // placeholder; replaced below
      constraints[d] = nullptr;
      names[d] = {};
      continue;
    }
    if (s < spec_symbols_.size() && spec_symbols_[s].valid()) {
      const ExprId existing = spec_symbols_[s];
      const int64_t existing_value = env.size_hint(existing);
      if (existing_value != sizes[d])
        throw_error(ErrorKind::ConstraintViolation,
                    fmt::format("{}.size()[{}] = {} must equal the other dims named '{}' ({})",
                                env.sources().name(tensor_source), d, sizes[d], graph_.sym_name(spec[d].sym),
                                existing_value));
      reused[d] = existing;
      dynamic[d] = DimDynamic::Static;  // placeholder; replaced below
      constraints[d] = nullptr;
    }
  }
  ShapeEnv::SymbolicTensorMeta meta = env.create_symbolic_sizes_strides_storage_offset(
      sizes, strides, 0, tensor_source, dynamic.span(), {}, constraints.span(), names.span());
  for (uint32_t d = 0; d < rank; ++d) {
    if (derived[d]) continue;
    if (same_as[d] != rank) reused[d] = reused[same_as[d]].valid() ? reused[same_as[d]] : meta.sizes[same_as[d]];
    if (reused[d].valid()) {
      meta.sizes[d] = reused[d];
      const SourceId src = env.sources().size(tensor_source, d);
      // a root made early for a derived dim of an earlier input already has this source
      const bool known = env.arena().kind(reused[d]) == ExprKind::Symbol &&
                         std::ranges::find(env.symbol_sources(reused[d]), src) != env.symbol_sources(reused[d]).end();
      if (!known) env.add_source(reused[d], src);
    } else if (d < spec.size() && spec[d].sym.valid()) {
      const uint32_t s = spec[d].sym.index();
      if (s >= spec_symbols_.size()) spec_symbols_.resize(s + 1);
      spec_symbols_[s] = meta.sizes[d];
    }
  }
  bool replaced = std::any_of(reused.begin(), reused.end(), [](ExprId e) { return e.valid(); });
  for (uint32_t d = 0; d < rank; ++d)
    if (derived[d]) {
      meta.sizes[d] = place_derived(env, p, d, sizes[d], env.sources().size(tensor_source, d));
      replaced = true;
    }
  if (replaced) {
    // strides were built from placeholder constants: rebuild them from the final sizes
    ExprArena& ar = env.arena();
    ExprId running = ar.one();
    for (uint32_t d = rank; d-- > 0;) {
      meta.strides[d] = strides[d] <= 1 ? ar.integer(strides[d]) : running;
      running = ar.mul(running, sizes[d] <= 1 ? ar.integer(std::max<int64_t>(sizes[d], 1)) : meta.sizes[d]);
    }
  }
  add_input_tensor(env, p, tensor_source, meta);
}

namespace {

// sympy's str of fn(Symbol(root)): `dx + 1`, `dx - 1`, `2*dx`, `2*dx + 2` (export's messages).
std::string derived_text(std::string_view root, SpecDimFn fn) {
  std::string out = fn.mul == 1 ? std::string(root) : fmt::format("{}*{}", fn.mul, root);
  if (fn.add > 0) out += fmt::format(" + {}", fn.add);
  if (fn.add < 0) out += fmt::format(" - {}", uint64_t(0) - uint64_t(fn.add));
  return out;
}

// fn(v) when it fits int64.
std::optional<int64_t> apply_fn(SpecDimFn fn, int64_t v) {
  int64_t r;
  if (__builtin_mul_overflow(fn.mul, v, &r) || __builtin_add_overflow(r, fn.add, &r)) return std::nullopt;
  return r;
}

}  // namespace

// The root of derived dim d of p (export's _process_equalities): the symbol its Dim already
// got; else the symbol of the first input dim that uses the Dim directly (made now, with that
// dim's source and size, when that input comes later); else a phantom root (_PhantomRoot):
// a symbol with the Dim's range, valued by solving fn(root) = size (Python's int() of the
// rational solution), whose source is the Dim's name (ConstantSource).
ExprId Propagator::derived_root(ShapeEnv& env, PlaceholderId p, uint32_t d, int64_t size) {
  const SymId root = graph_.spec_dims(p)[d].sym;
  if (root.index() < spec_symbols_.size() && spec_symbols_[root.index()].valid()) return spec_symbols_[root.index()];
  if (root.index() >= spec_symbols_.size()) spec_symbols_.resize(root.index() + 1);
  const DimConstraint range{graph_.sym_min(root), graph_.sym_max(root)};
  for (uint32_t q = 0; q < graph_.num_placeholders(); ++q) {
    const PlaceholderId ph(q);
    std::span<const SpecDim> dims = graph_.spec_dims(ph);
    for (uint32_t e = 0; e < dims.size(); ++e) {
      if (dims[e].sym != root || !graph_.spec_dim_fn(ph, e).identity()) continue;
      if (q >= run_sizes_.size() || e >= run_sizes_[q].size())
        throw_error(ErrorKind::BadInput, fmt::format("no size given for {}.size()[{}], the root of a derived dim",
                                                     graph_.node_name(graph_.placeholder_node(ph)), e));
      const SourceId src = env.sources().size(env.sources().local(graph_.node_name(graph_.placeholder_node(ph))), e);
      return spec_symbols_[root.index()] =
                 env.create_symbol(run_sizes_[q][e], src, DimDynamic::Dynamic, &range, true, false, graph_.sym_name(root));
    }
  }
  const SpecDimFn fn = graph_.spec_dim_fn(p, d);
  int64_t offset;
  if (__builtin_sub_overflow(size, fn.add, &offset)) throw_error(ErrorKind::Overflow, "derived dim root overflows int64");
  const int64_t value = offset / fn.mul;  // truncates toward zero, as int(Rational)
  const SourceId src = env.sources().constant(graph_.sym_name(root));
  const ExprId sym = env.create_symbol(value, src, DimDynamic::Dynamic, &range, true, false, graph_.sym_name(root));
  if (env.arena().kind(sym) == ExprKind::Symbol) {
    // produce_guards binds phantom symbols before any input source
    tracked_.insert(tracked_.begin() + phantoms_, TrackedInput{src, sym});
    input_sources_.insert(input_sources_.begin() + phantoms_,
                          InputSource{src, p.index(), SourceKind::Constant, d, fn.mul, fn.add});
    ++phantoms_;
  }
  return spec_symbols_[root.index()] = sym;
}

// Derived dim d of p, size `size`: checked against its own range [fn(min), fn(max)] as
// create_symbol checks a constraint, then against the root (produce_guards' derived
// equality: ConstraintViolationError "Expected input ... to be equal to dx + 1, where dx = 4,
// but got 7"). The size is fn(root), and the root's range narrows to what keeps fn(root) in
// the derived range (∩ [2, oo]), as the replacement `s1 -> fn(root)` export makes does.
// A 0/1 size is specialised (C.4) and the equality is guarded instead, as export does.
ExprId Propagator::place_derived(ShapeEnv& env, PlaceholderId p, uint32_t d, int64_t size, SourceId size_source) {
  ExprArena& ar = env.arena();
  const SymId root = graph_.spec_dims(p)[d].sym;
  const SpecDimFn fn = graph_.spec_dim_fn(p, d);
  const std::optional<int64_t> lo = apply_fn(fn, graph_.sym_min(root));
  const std::optional<int64_t> root_max = graph_.sym_max(root);
  const std::optional<int64_t> hi = root_max ? apply_fn(fn, *root_max) : std::nullopt;
  if (!lo || (root_max && !hi)) throw_error(ErrorKind::Overflow, "derived dim range overflows int64");
  auto not_in_range = [&](int64_t l) {
    throw_error(ErrorKind::ConstraintViolation,
                fmt::format("{} not in range [{}, {}]", size, l, hi ? std::to_string(*hi) : std::string("int_oo")));
  };
  if (size < *lo || (hi && size > *hi)) not_in_range(*lo);
  const bool specialize = env.settings().specialize_zero_one && (size == 0 || size == 1);
  const int64_t default_lo = env.settings().specialize_zero_one ? 2 : 0;
  if (!specialize && size < std::max(*lo, default_lo)) not_in_range(std::max(*lo, default_lo));

  const ExprId root_expr = derived_root(env, p, d, size);
  const ExprId fn_root = ar.add(ar.mul(ar.integer(fn.mul), root_expr), ar.integer(fn.add));
  const std::string_view root_name = graph_.sym_name(root);
  auto violated = [&] {
    throw_error(ErrorKind::ConstraintViolation,
                fmt::format("Expected input {} to be equal to {}, where {} = {}, but got {}",
                            env.sources().name(size_source), derived_text(root_name, fn), root_name,
                            env.size_hint(root_expr), size));
  };
  if (specialize) {
    if (env.evaluate_expr(ar.eq(ar.integer(size), fn_root)) != ar.true_()) violated();
    return ar.integer(size);
  }
  if (apply_fn(fn, env.size_hint(root_expr)) != size) violated();
  // The size is its own DYNAMIC symbol with the derived range (export's _DerivedConstraint),
  // and produce_guards' `evaluate_expr(Eq(size, fn(root)))` relates it: _maybe_guard_rel
  // replaces the symbol with the larger hint when it solves to an integral expression. So
  // `dx + 1`, `2*dx`, `2*r + 1` make the size fn(root) (the root's range narrows to keep it
  // in the derived range ∩ [2, oo]); `dx - 1` makes the root the size + 1 (the size's symbol
  // carries the range: `2 <= L['y'].size()[0] and L['y'].size()[0] <= 31`, as PyTorch prints).
  const DimConstraint own_range{*lo, hi};
  const ExprId own = env.create_symbol(size, size_source, DimDynamic::Dynamic, &own_range, true, false);
  if (env.evaluate_expr(ar.eq(own, fn_root)) != ar.true_()) violated();
  return env.replace(own);
}

void Propagator::add_input_tensor(ShapeEnv& env, PlaceholderId p, SourceId tensor_source,
                                  const ShapeEnv::SymbolicTensorMeta& meta) {
  const NodeId n = graph_.placeholder_node(p);
  const uint32_t rank = graph_.placeholder_rank(p);
  const TensorId t = values_.add_tensor(graph_.placeholder_dtype(p), meta.sizes, meta.strides, meta.storage_offset,
                                        values_.new_storage());
  node_values_[n.index()] = values_.of_tensor(t);
  for (uint32_t d = 0; d < rank; ++d) {
    tracked_.push_back({env.sources().size(tensor_source, d), meta.sizes[d]});
    input_sources_.push_back({tracked_.back().source, p.index(), SourceKind::Size, d});
  }
  for (uint32_t d = 0; d < rank; ++d) {
    tracked_.push_back({env.sources().stride(tensor_source, d), meta.strides[d]});
    input_sources_.push_back({tracked_.back().source, p.index(), SourceKind::Stride, d});
  }
  tracked_.push_back({env.sources().storage_offset(tensor_source), meta.storage_offset});
  input_sources_.push_back({tracked_.back().source, p.index(), SourceKind::StorageOffset, 0});
}

void Propagator::place_attr(ShapeEnv& env, NodeId n) {
  // a subgraph module is no tensor and nothing symbolic: its value is None (D.3 step 4);
  // invoke_subgraph reads the Graph itself
  if (graph_.subgraph_of(n)) {
    node_values_[n.index()] = values_.none();
    return;
  }
  ExprArena& ar = env.arena();
  const AttrId a = graph_.attr_of(n);
  auto shape = graph_.attr_shape(a);
  auto stride = graph_.attr_stride(a);
  FixedVector<ExprId, 16> sizes, strides;
  for (int64_t s : shape) sizes.push_back(ar.integer(s));
  for (int64_t s : stride) strides.push_back(ar.integer(s));
  const TensorId t = values_.add_tensor(graph_.attr_dtype(a), sizes.span(), strides.span(), ar.zero(),
                                        values_.new_storage());
  if (graph_.attr_has_data(a)) values_.mutable_tensor(t).data = graph_.attr_data(a).data();
  node_values_[n.index()] = values_.of_tensor(t);
}

ValId Propagator::build_output(ExprArena& ar, ArgId a) {
  if (!a.valid()) return values_.none();
  switch (graph_.arg_kind(a)) {
    case ArgKind::Node: return node_values_[graph_.arg_node(a).index()];
    case ArgKind::List: {
      values_.begin_list();
      for (ArgId item : graph_.list_items(a)) values_.list_push(build_output(ar, item));
      return values_.end_list();
    }
    // a literal returned as is (`return x, 3`) is a plain number
    case ArgKind::Int: return values_.of_int(ar.integer(graph_.arg_int(a)));
    case ArgKind::Bool: return values_.of_bool(graph_.arg_bool(a) ? ar.true_() : ar.false_());
    case ArgKind::Float: return values_.of_float(ar.floating(graph_.arg_float(a)));
    default: return values_.none();
  }
}

template <class PlaceFn>
PropStatus Propagator::run_nodes(ShapeEnv& env, PlaceFn&& place) {
  values_.clear();
  tracked_.clear();
  input_sources_.clear();
  spec_symbols_.clear();
  phantoms_ = 0;
  node_values_.assign(graph_.num_nodes(), ValId());
  PropContext ctx(graph_, env, values_, node_values_, layout_cache_);
  ctx.set_failed_checks(failed_checks_);
  ctx.host = host_;
  ctx.host.eager_torch = eager_torch_;
  if (fake_dispatch_.size() != graph_.num_nodes()) {
    fake_dispatch_.assign(graph_.num_nodes(), 0);
    for (uint32_t i = 0; i < graph_.num_nodes(); ++i) {
      if (graph_.node_kind(NodeId(i)) != NodeKind::CallFunction || !graph_.node_target(NodeId(i)).starts_with("aten."))
        continue;
      const OpSchema* schema = find_op_schema(graph_.node_target(NodeId(i)));
      fake_dispatch_[i] = kFakeDispatched | (schema && schema->is_view ? kFakeView : 0);
    }
  }
  NodeId current;
  try {
    for (uint32_t i = 0; i < graph_.num_nodes(); ++i) {
      const NodeId n(i);
      current = n;
      switch (graph_.node_kind(n)) {
        case NodeKind::Placeholder: place(graph_.placeholder_of(n), n); break;
        case NodeKind::GetAttr: place_attr(env, n); break;
        case NodeKind::CallFunction: {
          if (hooks_) {
            if (const ValId v = hooks_->before_call(n); v.valid()) {
              node_values_[i] = v;
              break;
            }
          }
          const OpRule rule = rules_.rule(graph_.node_op(n));
          if (!rule)
            throw_error(ErrorKind::Unsupported, fmt::format("unsupported op {}", graph_.node_target(n)));
          ctx.begin_node(n, fake_dispatch_[i] & kFakeView);
          if (fake_dispatch_[i]) fake_cache_key_questions(ctx);
          rule(ctx);
          if (!node_values_[i].valid())
            throw_error(ErrorKind::Internal, fmt::format("rule for {} set no value", graph_.node_target(n)));
          if (fake_dispatch_[i]) fake_cache_output_questions(ctx, node_values_[i]);
          if (fake_dispatch_[i] & kFakeView) fake_cache_view_output_questions(ctx, node_values_[i]);
          break;
        }
        case NodeKind::Output: {
          auto args = graph_.node_args(n);
          node_values_[i] = build_output(env.arena(), args.empty() ? ArgId() : args[0]);
          break;
        }
      }
      if (hooks_) hooks_->after_node(n);
    }
  } catch (const Error& e) {
    PropStatus st;
    st.ok = false;
    st.kind = e.kind();
    st.node = current;
    st.message = current.valid() ? fmt::format("{} ({}): {}", graph_.node_name(current), graph_.node_target(current),
                                               e.what())
                                 : std::string(e.what());
    return st;
  }
  return {};
}

PropStatus Propagator::run(ShapeEnv& env, std::span<const std::span<const int64_t>> input_sizes) {
  run_sizes_ = input_sizes;
  const PropStatus st = run_nodes(env, [&](PlaceholderId p, NodeId n) {
    if (p.index() >= input_sizes.size())
      throw_error(ErrorKind::BadInput, fmt::format("no sizes given for input {}", graph_.node_name(n)));
    place_input(env, p, input_sizes[p.index()]);
  });
  run_sizes_ = {};
  return st;
}

PropStatus Propagator::run_given(ShapeEnv& env, const ValueTable& src, std::span<const ValId> inputs) {
  std::vector<StorageId> storage_map;  // src storage -> storage of this run
  return run_nodes(env, [&](PlaceholderId p, NodeId n) {
    if (p.index() >= inputs.size())
      throw_error(ErrorKind::BadInput, fmt::format("no value given for input {}", graph_.node_name(n)));
    const ValId v = values_.import(src, inputs[p.index()], &storage_map);
    if (values_.kind(v) == ValKind::Tensor && values_.rank(values_.as_tensor(v)) != graph_.placeholder_rank(p))
      throw_error(ErrorKind::Shape, fmt::format("input {} has rank {} but the graph expects rank {}",
                                                graph_.node_name(n), values_.rank(values_.as_tensor(v)),
                                                graph_.placeholder_rank(p)));
    node_values_[n.index()] = v;
  });
}

}  // namespace symshape
