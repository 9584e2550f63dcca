#include "conform/specialization.h"

#include <string>
#include <vector>

#include <fmt/format.h>

namespace symshape {

std::optional<std::string> exported_input_check(const Graph& graph, std::span<const std::span<const int64_t>> sizes,
                                                bool every_bound, uint32_t* input) {
  // torch/_export/utils.py: _check_input_constraints_for_graph / _check_symint, in input order;
  // a root symbol takes its value from its first use (the unification map)
  std::vector<std::optional<int64_t>> unified(graph.num_syms());
  for (uint32_t p = 0; p < graph.num_placeholders() && p < sizes.size(); ++p) {
    const PlaceholderId ph(p);
    if (!graph.spec_has(ph)) continue;
    const std::span<const SpecDim> spec = graph.spec_dims(ph);
    for (uint32_t d = 0; d < spec.size() && d < sizes[p].size(); ++d) {
      const int64_t arg = sizes[p][d];
      const std::string path = fmt::format("*args[{}].shape[{}]", p, d);
      if (input) *input = p;
      if (!spec[d].sym.valid()) {
        if (!spec[d].any_size && spec[d].size != arg)
          return fmt::format("Expected input at {} to be equal to {}, but got {}. If you meant for this dimension to be "
                             "dynamic, please re-export and specify dynamic_shapes (e.g. with Dim.DYNAMIC)",
                             path, spec[d].size, arg);
        continue;
      }
      const SymId sym = spec[d].sym;
      const SpecDimFn fn = graph.spec_dim_fn(ph, d);
      const std::string_view name = graph.sym_name(sym);
      std::optional<int64_t>& root = unified[sym.index()];
      if (root) {
        const int64_t existing = fn.mul * *root + fn.add;
        if (arg != existing) return fmt::format("Expected input at {} to be equal to {}, but got {}", path, existing, arg);
        continue;
      }
      if (!fn.identity()) {
        if ((arg - fn.add) % fn.mul != 0) {
          const std::string form = fn.mul == 1 ? std::string(name)
                                   : fmt::format("{}*{}", fn.mul, name);
          const std::string expr = fn.add == 0 ? form
                                   : fn.add > 0 ? fmt::format("{} + {}", form, fn.add)
                                                : fmt::format("{} - {}", form, -fn.add);
          return fmt::format("Expected input {} = {} to be of the form {}, where {} is an integer", path, arg, expr,
                             name);
        }
        root = (arg - fn.add) / fn.mul;
        if (!every_bound) continue;  // the derived expression itself has no range constraint
      } else {
        root = arg;
      }
      const int64_t lo = fn.mul * graph.sym_min(sym) + fn.add;
      const std::optional<int64_t> max = graph.sym_max(sym);
      const std::optional<int64_t> hi = max ? std::optional<int64_t>(fn.mul * *max + fn.add) : std::nullopt;
      // "we allow dimensions to be 0/1 at runtime": the lower bound is checked above 2 only
      if ((lo > 2 || every_bound) && arg < lo)
        return fmt::format("Expected input at {} to be >= {}, but got {}", path, lo, arg);
      if (hi && arg > *hi) return fmt::format("Expected input at {} to be <= {}, but got {}", path, *hi, arg);
    }
  }
  return std::nullopt;
}

void concrete_rejection(const Graph& graph, const RuleTable& rules, const ShapeEnvSettings& settings,
                        const ReferenceHost& host, InputPolicy policy, std::span<const std::span<const int64_t>> sizes,
                        PropStatus& status) {
  if (status.ok || policy == InputPolicy::Static) return;
  if (status.kind != ErrorKind::Shape && status.kind != ErrorKind::ConstraintViolation) return;
  // the op that fails at the example's own sizes, in PyTorch's words and numbers
  ShapeEnv env(settings);
  Propagator prop(graph, rules);
  prop.set_input_policy(InputPolicy::Static);
  prop.set_any_input_rank(true);
  prop.set_reference_host(host);
  PropStatus concrete = prop.run(env, sizes);
  uint32_t input = 0;
  std::optional<std::string> input_check =
      policy == InputPolicy::Spec ? exported_input_check(graph, sizes, false, &input) : std::nullopt;
  if (!concrete.ok && concrete.kind == ErrorKind::Shape) {
    if (input_check) concrete.message += "; the exported program rejects it first: " + *input_check;
    status = std::move(concrete);
    return;
  }
  // Runs at its own sizes: outside the spec. The exported program's check, or, for a bound
  // it lets through at runtime (0/1, a derived dim's range), the same wording for that bound.
  if (!input_check && policy == InputPolicy::Spec && status.kind == ErrorKind::ConstraintViolation)
    input_check = exported_input_check(graph, sizes, true, &input);
  if (input_check) {
    status.kind = ErrorKind::ConstraintViolation;
    status.node = graph.placeholder_node(PlaceholderId(input));
    const std::string_view name = graph.node_name(status.node);
    status.message = fmt::format("{} ({}): {}", name, name, *input_check);
  }
}

std::optional<int64_t> input_source_value(const InputSource& src, std::span<const std::span<const int64_t>> sizes) {
  if (src.placeholder >= sizes.size()) return std::nullopt;
  std::span<const int64_t> s = sizes[src.placeholder];
  switch (src.kind) {
    case SourceKind::Size:
      if (src.dim >= s.size()) return std::nullopt;
      return s[src.dim];
    case SourceKind::Stride: {
      if (src.dim >= s.size()) return std::nullopt;
      // inputs are contiguous: product of max(size, 1) to the right
      int64_t stride = 1;
      for (size_t d = s.size(); d-- > src.dim + 1;) {
        if (__builtin_mul_overflow(stride, std::max<int64_t>(s[d], 1), &stride)) return std::nullopt;
      }
      return stride;
    }
    case SourceKind::StorageOffset: return 0;
    case SourceKind::Constant: {  // a phantom root: solved from the derived size
      int64_t num;
      if (src.dim >= s.size() || src.mul < 1 || __builtin_sub_overflow(s[src.dim], src.add, &num)) return std::nullopt;
      return num >= 0 ? num / src.mul : -((-num + src.mul - 1) / src.mul);  // floor
    }
    default: return std::nullopt;
  }
}

SpecializationCache::SpecializationCache(const Graph& graph, const RuleTable& rules, ShapeEnvSettings settings)
    : graph_(graph), rules_(rules), settings_(settings) {}

bool SpecializationCache::bind(const Specialization& s, std::span<const std::span<const int64_t>> sizes,
                               Bindings& out) const {
  out.value.clear();
  out.bound.clear();
  auto sources = s.prop->input_sources();
  for (size_t i = 0; i < s.guards.bound_symbols.size(); ++i) {
    const SourceId src = s.guards.bound_sources[i];
    std::optional<int64_t> v;
    for (const InputSource& in : sources)
      if (in.source == src) {
        v = input_source_value(in, sizes);
        break;
      }
    if (!v) return false;
    out.set(s.env->arena().symbol_id(s.guards.bound_symbols[i]), *v);
  }
  return true;
}

bool SpecializationCache::accepts(const Specialization& s, std::span<const std::span<const int64_t>> sizes) const {
  // the rank of every input must match what was traced
  for (uint32_t p = 0; p < graph_.num_placeholders(); ++p)
    if (p >= sizes.size() || sizes[p].size() != graph_.placeholder_rank(PlaceholderId(p))) return false;
  Bindings b;
  if (!bind(s, sizes, b)) return false;
  const ExprArena& ar = s.env->arena();
  try {
    for (auto& [src, expr] : s.guards.source_equalities) {
      std::optional<int64_t> v;
      for (const InputSource& in : s.prop->input_sources())
        if (in.source == src) {
          v = input_source_value(in, sizes);
          break;
        }
      if (!v || evaluate_int(ar, expr, b) != *v) return false;
    }
    for (ExprId g : s.guards.exprs)
      if (g.valid() && !evaluate_bool(ar, g, b)) return false;
  } catch (const Error&) {
    return false;  // overflow or division by zero at these sizes: not this specialisation
  }
  return true;
}

std::optional<uint32_t> SpecializationCache::find(std::span<const std::span<const int64_t>> sizes) {
  for (uint32_t i = 0; i < specs_.size(); ++i)
    if (accepts(specs_[i], sizes)) return i;
  return std::nullopt;
}

std::optional<uint32_t> SpecializationCache::add(std::span<const std::span<const int64_t>> sizes, uint32_t example,
                                                 PropStatus& status) {
  Specialization s;
  s.env = std::make_unique<ShapeEnv>(settings_);
  s.prop = std::make_unique<Propagator>(graph_, rules_);
  s.prop->set_input_policy(policy_);
  s.prop->set_reference_host(host_);
  if (policy_ == InputPolicy::Automatic) s.prop->set_dynamic_mask(dynamic_mask_);
  s.first_example = example;
  status = s.prop->run(*s.env, sizes);
  if (!status.ok) {
    concrete_rejection(graph_, rules_, settings_, host_, policy_, sizes, status);
    return std::nullopt;
  }
  try {
    ProduceGuardsOptions opts;
    opts.ignore_static = false;  // the spec's static dims are part of every specialisation
    s.guards = s.env->produce_guards(s.prop->tracked_inputs(), opts);
  } catch (const Error& e) {
    status.ok = false;
    status.kind = e.kind();
    status.message = std::string("produce_guards: ") + e.what();
    return std::nullopt;
  }
  specs_.push_back(std::move(s));
  return static_cast<uint32_t>(specs_.size() - 1);
}

}  // namespace symshape
