// After narrowing to what export accepts, a size spec check's fixes pinned (PyTorch's solver
// turns an equality through `//`, such as vgg's `(w // 32) == 1` at 40, into `width = 40`)
// often has a whole interval around it on which the same trace holds (32..63 there). Each
// such size gets back its validity Dim, with the widest range around it that spec check
// still accepts: searched outwards, then checked once more as a whole.
#include <fmt/format.h>

#include <map>

#include "infer/check_at.h"
#include "infer/infer.h"
#include "infer/spec_table.h"

namespace symshape::infer {
namespace {

// Upper end of the search when validity is unbounded but the trace is not: as widen's probe.
int64_t search_limit(int64_t size) { return size + std::clamp<int64_t>(size, 256, 1024); }

// The extreme of `from` towards `to` (exclusive search by doubling, then bisection) at which
// `ok` still holds; ok(from) is assumed.
template <class Ok>
int64_t extend(int64_t from, int64_t to, Ok ok) {
  const int64_t dir = to > from ? 1 : -1;
  int64_t good = from, step = 1;
  while (good != to) {
    const int64_t next = dir > 0 ? std::min(to, good + step) : std::max(to, good - step);
    if (!ok(next)) {
      int64_t bad = next;  // bisect between good and bad
      while ((bad - good) * dir > 1) {
        const int64_t mid = good + (bad - good) / 2;
        (ok(mid) ? good : bad) = mid;
      }
      return good;
    }
    good = next;
    step *= 2;
  }
  return good;
}

}  // namespace

spec::DynamicShapes widen_pinned_sizes(const Graph& graph, const RuleTable& rules, const spec::DynamicShapes& exported,
                                       const spec::DynamicShapes& validity, std::span<const std::span<const int64_t>> sizes) {
  Table table = table_of(exported, sizes);
  const Table wide = table_of(validity, sizes);
  // validity roots (identity leaves only) whose every leaf the export spec made static
  std::map<std::string, std::vector<std::pair<uint32_t, uint32_t>>> pinned;
  std::map<std::string, bool> all_static;
  for (uint32_t p = 0; p < wide.size(); ++p)
    for (uint32_t d = 0; d < wide[p].size(); ++d) {
      const auto& ref = wide[p][d].ref;
      if (!ref || !ref->fn.identity()) continue;
      pinned[ref->root.name].emplace_back(p, d);
      auto [it, fresh] = all_static.emplace(ref->root.name, true);
      it->second = it->second && !table[p][d].ref;
    }
  std::string note;
  for (const auto& entry : pinned) {
    // plain references, not structured bindings: the lambda below captures them (clang 14)
    const std::string& name = entry.first;
    const auto& leaves = entry.second;
    if (!all_static[name]) continue;
    const auto [p0, d0] = leaves.front();
    const spec::RootDim& valid = wide[p0][d0].ref->root;
    const int64_t size = sizes[p0][d0];
    auto clean = [&](int64_t lo, std::optional<int64_t> hi) {
      if (hi && *hi <= lo) return true;  // one value: the static size itself
      Table t = table;
      for (auto [p, d] : leaves) t[p][d].ref = spec::DimRef{spec::make_dim(name, lo, hi), {}};
      const auto r = check_at(graph, rules, build_spec(graph, t), sizes, note);
      return r && r->ok();
    };
    std::optional<int64_t> hi;
    if (valid.has_max || !clean(size, std::nullopt)) {
      const int64_t cap = valid.has_max ? valid.max : search_limit(size);
      hi = extend(size, cap, [&](int64_t h) { return clean(size, h); });
      if (!valid.has_max && *hi == cap) hi.reset();  // as widen: valid up to the limit counts as unbounded
    }
    const int64_t lo = extend(size, std::max<int64_t>(2, valid.min), [&](int64_t l) { return clean(l, hi); });
    if (hi && *hi <= lo) continue;
    if (!clean(lo, hi)) continue;
    for (auto [p, d] : leaves) table[p][d].ref = spec::DimRef{spec::make_dim(name, lo, hi), {}};
  }
  return build_spec(graph, table);
}

}  // namespace symshape::infer
