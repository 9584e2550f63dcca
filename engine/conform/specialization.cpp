#include "conform/specialization.h"

#include <vector>

namespace symshape {

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
  if (!status.ok) return std::nullopt;
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
