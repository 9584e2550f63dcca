#include "dynamism/suggest_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "batch/stream.h"
#include "core/checked_math.h"
#include "core/error.h"
#include "infer/check_at.h"
#include "infer/infer.h"
#include "infer/spec_table.h"
#include "spec/apply_spec.h"
#include "spec/dim.h"
#include "spec/spec_check.h"

namespace symshape::dynamism {
namespace {

using spec::DimRef;
using spec::DynamicShapes;
using spec::LinearFn;
using spec::RootDim;

// How a group of equal dims is written in the spec.
enum class Mode : uint8_t {
  Named,    // its own Dim with a range
  Derived,  // a*root + b of another group
  Dynamic,  // Dim.DYNAMIC: no range passes the check and holds every example
  Auto,     // Dim.AUTO: as Dynamic, but tracing specialises it (F.9 would reject DYNAMIC)
};

// Varying dims whose sizes are equal in every example.
struct Group {
  std::vector<std::pair<uint32_t, uint32_t>> members;  // (placeholder, dim), in input order
  std::vector<int64_t> values;                         // per example
  int64_t ex_min = 0, ex_max = 0;
  std::string name;
  Mode mode = Mode::Named;
  uint32_t root = 0;  // Derived: the root group
  LinearFn fn;        // Derived: value = fn(root value)
  int64_t min = 0;    // Named: the range
  std::optional<int64_t> max;
  // Dynamic/Auto: why no range is written, and the range the guards allow if there is one.
  std::string why;
  bool has_guard_range = false;
  int64_t guard_min = 0;
  std::optional<int64_t> guard_max;
  // The graph's own Dim at the first member that has one.
  std::optional<std::string> own_name;
  int64_t own_min = 0;
  std::optional<int64_t> own_max;
};

std::string position_name(const std::vector<std::string>& inputs, uint32_t p, uint32_t d) {
  return fmt::format("L['{}'].size()[{}]", inputs[p], d);
}

// fn(x), or nullopt when it overflows int64.
std::optional<int64_t> apply(LinearFn fn, int64_t x) {
  const std::optional<int64_t> m = try_mul(fn.mul, x);
  return m ? try_add(*m, fn.add) : std::nullopt;
}

// c_b == a*c_a + b on every example with an integer a >= 1.
std::optional<LinearFn> linear_relation(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  size_t i = 0, j = 1;
  for (; j < a.size(); ++j)
    if (a[j] != a[i]) break;
  if (j == a.size()) return std::nullopt;
  const int64_t da = a[j] - a[i], db = b[j] - b[i];
  if (db % da != 0 || db / da < 1) return std::nullopt;
  const std::optional<int64_t> scaled = try_mul(db / da, a[i]);
  if (!scaled) return std::nullopt;
  LinearFn fn{db / da, b[i] - *scaled};
  for (size_t e = 0; e < a.size(); ++e)
    if (apply(fn, a[e]) != b[e]) return std::nullopt;
  return fn;
}

class Suggester {
 public:
  Suggester(Graph* g, const RuleTable* rules, std::vector<std::string> inputs, const ExampleColumns& ex,
            const std::vector<uint64_t>& ids, const SuggestOptions& opt, SpecSuggestion& out)
      : gp_(g), rules_(rules), inputs_(std::move(inputs)), ex_(ex), ids_(ids), opt_(opt), out_(out) {}

  void run() {
    find_groups();
    find_relations();
    initial_ranges();
    if (!gp_) {  // the examples alone: nothing to check against
      if (!opt_.derived_dims) drop_relations("derived dims turned off");
      summarise();
      out_.spec = build_spec();
      out_.check_error = "no graph to check the spec against (give --graph GRAPH)";
      return;
    }
    rounds();
    verify();
  }

 private:
  std::string example_name(size_t e) const {
    return opt_.graph_examples ? fmt::format("example {}", ids_[e]) : fmt::format("line {}", ids_[e]);
  }

  void find_groups() {
    const size_t n = ex_.num_examples();
    std::vector<int64_t> col(n);
    for (uint32_t p = 0; p < ex_.num_placeholders(); ++p) {
      const std::span<const SpecDim> own = gp_ ? gp_->spec_dims(PlaceholderId(p)) : std::span<const SpecDim>();
      for (uint32_t d = 0; d < ex_.rank(p); ++d) {
        const int64_t* c = ex_.column(p, d);
        col.assign(c, c + n);
        const bool varies = std::any_of(col.begin(), col.end(), [&](int64_t v) { return v != col[0]; });
        if (!varies) continue;
        auto it = std::find_if(groups_.begin(), groups_.end(), [&](const Group& gr) { return gr.values == col; });
        if (it == groups_.end()) {
          groups_.emplace_back();
          it = groups_.end() - 1;
          it->values = col;
          it->ex_min = *std::min_element(col.begin(), col.end());
          it->ex_max = *std::max_element(col.begin(), col.end());
        }
        it->members.emplace_back(p, d);
        // a derived dim (`b + 1`) is not its root: the root's name goes to a dim that uses it directly
        if (!it->own_name && d < own.size() && own[d].sym.valid() && !gp_->sym_name(own[d].sym).empty() &&
            gp_->spec_dim_fn(PlaceholderId(p), d).identity()) {
          it->own_name = std::string(gp_->sym_name(own[d].sym));
          it->own_min = gp_->sym_min(own[d].sym);
          it->own_max = gp_->sym_max(own[d].sym);
        }
      }
    }
    // Names: the graph's own where it has one, else `x_dim0`; unique.
    std::vector<std::string> taken;
    for (Group& gr : groups_) {
      const auto [p, d] = gr.members[0];
      std::string base = gr.own_name ? *gr.own_name
                                     : fmt::format("{}_dim{}", inputs_[p], d);
      std::string name = base;
      for (int k = 2; std::find(taken.begin(), taken.end(), name) != taken.end(); ++k) name = fmt::format("{}_{}", base, k);
      if (gr.own_name && name != *gr.own_name) gr.own_name.reset();  // its name went to another group
      taken.push_back(name);
      gr.name = name;
    }
  }

  // Roots first by spread (a*x + b with a >= 2 spreads wider than x), then input order; each
  // group is derived from the first chosen root it is a linear function of (smallest a).
  void find_relations() {
    std::vector<uint32_t> order(groups_.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return groups_[a].ex_max - groups_[a].ex_min < groups_[b].ex_max - groups_[b].ex_min;
    });
    std::vector<uint32_t> roots;
    for (uint32_t gi : order) {
      Group& gr = groups_[gi];
      std::optional<LinearFn> best;
      uint32_t best_root = 0;
      for (uint32_t r : roots) {
        auto fn = linear_relation(groups_[r].values, gr.values);
        if (fn && (!best || fn->mul < best->mul)) best = fn, best_root = r;
      }
      if (!best) {
        roots.push_back(gi);
        continue;
      }
      gr.mode = Mode::Derived;
      gr.root = best_root;
      gr.fn = *best;
      out_.relations.push_back({gr.name, spec::derived_name(groups_[best_root].name, *best), true, ""});
    }
  }

  // Examples' span, widened to the graph's own range for that Dim; min 2 when the graph has
  // no Dim there (export's own lower end) unless an example is 0/1.
  void initial_ranges() {
    for (Group& gr : groups_) {
      const int64_t own_min = gr.own_name ? gr.own_min : 2;
      gr.min = std::min(gr.ex_min, own_min);
      gr.max.reset();
      if (gr.own_name && gr.own_max) gr.max = std::max(*gr.own_max, gr.ex_max);
      if (gr.own_name && gr.own_max && *gr.own_max < gr.ex_max) {
        gr.max = gr.ex_max;
        out_.notes.push_back(fmt::format("{}: an example has {} > the graph's own max {}; max set to the examples' {}",
                                         gr.name, gr.ex_max, *gr.own_max, gr.ex_max));
      }
    }
    // A derived dim's min must stay >= 0 (Dim's assertion): raise its root's min.
    for (Group& gr : groups_) {
      if (gr.mode != Mode::Derived) continue;
      Group& root = groups_[gr.root];
      if (gr.fn.add < 0) root.min = std::max(root.min, (-gr.fn.add + gr.fn.mul - 1) / gr.fn.mul);  // ceil(-b/a)
    }
  }

  RootDim root_dim(const Group& gr) const { return spec::make_dim(gr.name, gr.min, gr.max); }

  DynamicShapes build_spec() const {
    spec::SpecBuilder b;
    b.begin_dict();
    for (uint32_t p = 0; p < ex_.num_placeholders(); ++p) {
      const std::string& name = inputs_[p];
      if (ex_.rank(p) == 0) {
        b.none(name);
        continue;
      }
      b.begin_list(name);
      for (uint32_t d = 0; d < ex_.rank(p); ++d) {
        const int32_t gi = group_of(p, d);
        if (gi < 0) {
          b.size(ex_.column(p, d)[0]);
          continue;
        }
        const Group& gr = groups_[size_t(gi)];
        switch (gr.mode) {
          case Mode::Named: b.dim(DimRef{root_dim(gr), {}}); break;
          case Mode::Derived: b.dim(DimRef{root_dim(groups_[gr.root]), gr.fn}); break;
          case Mode::Dynamic: b.hint(spec::HintKind::Dynamic); break;
          case Mode::Auto: b.hint(spec::HintKind::Auto); break;
        }
      }
      b.end();
    }
    b.end();
    return b.build();
  }

  int32_t group_of(uint32_t p, uint32_t d) const {
    for (size_t i = 0; i < groups_.size(); ++i)
      for (const auto& m : groups_[i].members)
        if (m.first == p && m.second == d) return int32_t(i);
    return -1;
  }

  // The group a Dim name of the check's report means: a root's name, or a derived dim as the
  // spec writes it (`x_dim0 - 1`).
  int32_t group_named(std::string_view name) const {
    for (size_t i = 0; i < groups_.size(); ++i) {
      const Group& gr = groups_[i];
      if (gr.mode != Mode::Derived && gr.name == name) return int32_t(i);
      if (gr.mode == Mode::Derived && spec::derived_name(groups_[gr.root].name, gr.fn) == name) return int32_t(i);
    }
    return -1;
  }

  // The check as `spec check` runs it (graph examples), or at the first given example whose
  // dynamic dims are all >= 2 (a 0/1 size is specialised by the example, C.4).
  spec::SpecCheckResult check(const DynamicShapes& s) {
    ++out_.rounds;
    if (opt_.graph_examples) return spec::check_spec(*gp_, *rules_, &s);
    auto dims_ge2 = [&](size_t e) {
      for (uint32_t p = 0; p < ex_.num_placeholders(); ++p) {
        const std::span<const SpecDim> dims = gp_->spec_dims(PlaceholderId(p));
        for (uint32_t d = 0; d < dims.size() && d < ex_.rank(p); ++d)
          if (dims[d].sym.valid() && ex_.column(p, d)[e] < 2) return false;
      }
      return true;
    };
    std::vector<size_t> order;
    for (size_t e = 0; e < ex_.num_examples(); ++e)
      if (dims_ge2(e)) order.push_back(e);
    for (size_t e = 0; e < ex_.num_examples(); ++e)
      if (!dims_ge2(e)) order.push_back(e);
    spec::SpecCheckResult first;
    std::vector<std::vector<int64_t>> sizes;
    for (size_t e : order) {
      ex_.sizes_of(e, sizes);
      std::vector<std::span<const int64_t>> spans(sizes.begin(), sizes.end());
      spec::SpecCheckResult r = spec::check_spec_at(*gp_, *rules_, &s, spans);
      r.example = uint32_t(e);
      if (r.checked) return r;
      if (first.error.empty()) first.error = fmt::format("{}: {}", example_name(e), r.error);
    }
    if (first.error.empty()) first.error = "no example to propagate";
    return first;
  }

  // Group `gi` (and the groups derived from it) become Dim.DYNAMIC (or AUTO).
  void give_up_range(uint32_t gi, Mode mode, const std::string& why) {
    Group& gr = groups_[gi];
    if (gr.mode == Mode::Derived) {  // a derived dim's root carries the range
      give_up_range(gr.root, mode, why);
      return;
    }
    if (gr.mode == mode) return;
    gr.mode = mode;
    gr.why = why;
    const char* hint = mode == Mode::Auto ? "Dim.AUTO" : "Dim.DYNAMIC";
    out_.notes.push_back(fmt::format("{}: {} ({})", gr.name, hint, why));
    for (Group& other : groups_)
      if (other.mode == Mode::Derived && &groups_[other.root] == &gr) {
        other.mode = mode;
        for (DimRelation& rel : out_.relations)
          if (rel.dim == other.name) {
            rel.in_spec = false;
            rel.note = fmt::format("its root {} became {}", gr.name, hint);
          }
      }
  }

  // Derived dims refused by apply_spec: every relation becomes a Dim of its own.
  void drop_relations(const std::string& why) {
    for (Group& gr : groups_) {
      if (gr.mode != Mode::Derived) continue;
      gr.mode = Mode::Named;
      gr.min = std::min(gr.ex_min, gr.own_name ? gr.own_min : int64_t(2));
      gr.max = gr.own_name && gr.own_max ? std::optional<int64_t>(std::max(*gr.own_max, gr.ex_max)) : std::nullopt;
      for (DimRelation& rel : out_.relations)
        if (rel.dim == gr.name) {
          rel.in_spec = false;
          rel.note = why + "; written as a Dim of its own";
        }
    }
  }

  // The range the corrected spec gives group `gi`'s Dim, if it is still a plain Dim there.
  std::optional<RootDim> corrected_range(const DynamicShapes& corrected, uint32_t gi) const {
    const Group& gr = groups_[gi];
    const auto [p, d] = gr.members[0];
    auto in = corrected.find_input(inputs_[p]);
    if (!in || corrected.nodes[*in].kind != spec::NodeKind::List) return std::nullopt;
    size_t c = *in + 1;
    for (uint32_t k = 0; k < d; ++k) c = corrected.subtree_end(c);
    const spec::SpecNode& leaf = corrected.nodes[c];
    if (leaf.kind != spec::NodeKind::Dim) return std::nullopt;
    const DimRef ref = corrected.dim(leaf);
    if (!ref.fn.identity() || ref.root.name != gr.name) return std::nullopt;
    return ref.root;
  }

  void rounds() {
    if (!opt_.derived_dims) drop_relations("derived dims turned off");
    for (uint32_t round = 0; round < opt_.max_rounds; ++round) {
      DynamicShapes s = build_spec();
      try {
        spec::apply_spec(*gp_, s);
      } catch (const Error& e) {
        const bool any_derived = std::any_of(groups_.begin(), groups_.end(), [](const Group& gr) { return gr.mode == Mode::Derived; });
        if (!any_derived) {
          out_.check_error = fmt::format("apply_spec: {}", e.what());
          final_ = std::move(s);
          last_.reset();
          return;
        }
        drop_relations(fmt::format("apply_spec refused the derived dim ({})", e.what()));
        continue;
      }
      spec::SpecCheckResult r = check(s);
      final_ = std::move(s);
      last_ = r;
      if (!r.checked || r.ok()) return;
      if (!narrowed_) {  // spec check's fixes to a fixed point at the checked example, as infer
        narrowed_ = true;
        if (narrow(r)) continue;
      }
      if (!adjust(r)) return;
    }
  }

  // The sizes of the example check() propagated (graph example or row of the columns).
  std::vector<std::span<const int64_t>> checked_sizes(const spec::SpecCheckResult& r, std::vector<std::vector<int64_t>>& rows) const {
    std::vector<std::span<const int64_t>> sizes;
    if (opt_.graph_examples) {
      for (uint32_t p = 0; p < gp_->num_placeholders(); ++p) sizes.push_back(gp_->example(r.example).input_sizes(PlaceholderId(p)));
      return sizes;
    }
    return example_sizes(r.example, rows);
  }

  // Example `e`'s sizes (a row of the columns), one span per input.
  std::vector<std::span<const int64_t>> example_sizes(size_t e, std::vector<std::vector<int64_t>>& rows) const {
    std::vector<std::span<const int64_t>> sizes;
    rows.assign(ex_.num_placeholders(), {});
    for (uint32_t p = 0; p < ex_.num_placeholders(); ++p)
      for (uint32_t d = 0; d < ex_.rank(p); ++d) rows[p].push_back(ex_.column(p, d)[e]);
    for (const auto& row : rows) sizes.emplace_back(row);
    return sizes;
  }

  // `symshape infer`'s narrowing (infer/export_spec.cpp): spec check's corrected spec at the
  // checked example to a fixed point, sizes it pinned widened back to the widest range spec
  // check accepts (export_widen.cpp). Each Dim takes its narrowed range; a Dim left static
  // becomes Dim.DYNAMIC. Examples outside a narrowed range are reported (verify). false: the
  // narrowing found no spec (adjust() then works on the check's report).
  bool narrow(const spec::SpecCheckResult& r) {
    std::vector<std::vector<int64_t>> rows;
    const auto sizes = checked_sizes(r, rows);
    infer::ExportSpec exported = infer::narrow_to_export(*gp_, *rules_, *final_, sizes);
    if (!exported.spec) {
      out_.notes.push_back(fmt::format("spec check's fixes at {}: {}", example_name(r.example), exported.note));
      return false;
    }
    const DynamicShapes narrowed = infer::widen_pinned_sizes(*gp_, *rules_, *exported.spec, *final_, sizes);
    bool changed = false;
    for (uint32_t gi = 0; gi < groups_.size(); ++gi) {
      Group& gr = groups_[gi];
      if (gr.mode != Mode::Named) continue;
      const std::optional<RootDim> range = corrected_range(narrowed, gi);
      if (!range) {
        give_up_range(gi, Mode::Dynamic,
                      fmt::format("spec check's fixes at {} leave it no range of its own: {}", example_name(r.example),
                                  violation_text(r, gi)));
        changed = true;
        continue;
      }
      int64_t new_min = range->min;
      if (new_min <= 2 && gr.min < 2) new_min = gr.min;  // an example's 0/1 stays inside (C.4)
      const std::optional<int64_t> new_max = range->has_max ? std::optional<int64_t>(range->max) : std::nullopt;
      if (new_min == gr.min && new_max == gr.max) continue;
      out_.notes.push_back(fmt::format("{}: range {} -> {} ({})", gr.name, range_text(gr.min, gr.max), range_text(new_min, new_max),
                                       violation_text(r, gi)));
      gr.min = new_min;
      gr.max = new_max;
      changed = true;
    }
    return changed;
  }

  // One correction step from a failed check; false when nothing could change.
  bool adjust(const spec::SpecCheckResult& r) {
    bool changed = false;
    std::optional<DynamicShapes> corrected;
    try {
      corrected = spec::corrected_spec(*gp_, *final_, r);
    } catch (const Error& e) {
      out_.notes.push_back(fmt::format("round {}: the suggested fixes do not make a spec: {}", out_.rounds, e.what()));
    }
    std::vector<uint32_t> touched;
    for (const spec::Violation& v : r.violations) {
      const int32_t gi = group_named(v.dim);
      if (gi < 0) {
        changed = hinted_violation(v) || changed;
        continue;
      }
      if (std::find(touched.begin(), touched.end(), uint32_t(gi)) == touched.end()) touched.push_back(uint32_t(gi));
    }
    for (const auto& [text, value] : r.forced) {  // "dx = L['x'].size()[0]" -> 8
      const int32_t gi = group_named(text.substr(0, text.find(" = ")));
      if (gi >= 0) give_up_range(uint32_t(gi), Mode::Dynamic, fmt::format("the graph specialises it to {}", value)), changed = true;
    }
    for (const spec::HintConflict& h : r.hint_conflicts) {
      const int32_t gi = group_of(h.placeholder, h.dim);
      if (gi >= 0 && groups_[size_t(gi)].mode == Mode::Dynamic) {
        give_up_range(uint32_t(gi), Mode::Auto, "tracing specialises it, so Dim.DYNAMIC conflicts");
        changed = true;
      }
    }
    for (uint32_t gi : touched) {
      Group& gr = groups_[gi];
      const uint32_t root = gr.mode == Mode::Derived ? gr.root : gi;
      Group& rg = groups_[root];
      if (rg.mode != Mode::Named) continue;
      const std::string why = violation_text(r, gi);
      std::optional<RootDim> range = corrected ? corrected_range(*corrected, root) : std::nullopt;
      if (!range) {
        give_up_range(root, Mode::Dynamic, "no range fixes it: " + why);
        changed = true;
        continue;
      }
      // 0/1 sizes are the example's specialisation, not the graph's: a corrected min of 2
      // keeps an example's 0/1 inside the range.
      int64_t new_min = range->min;
      if (new_min <= 2 && rg.min < 2) new_min = rg.min;
      std::optional<int64_t> new_max = range->has_max ? std::optional<int64_t>(range->max) : std::nullopt;
      if (new_min != rg.min || new_max != rg.max) {
        out_.notes.push_back(fmt::format("{}: range {} -> {} ({})", rg.name, range_text(rg.min, rg.max),
                                         range_text(new_min, new_max), why));
        rg.min = new_min;
        rg.max = new_max;
        changed = true;
      } else {
        give_up_range(root, Mode::Dynamic, "its range cannot be narrowed further: " + why);
        changed = true;
      }
    }
    return changed;
  }

  // A violation about a hinted size (named by its source): export refuses a Dim.DYNAMIC the
  // trace makes constant, so it becomes Dim.AUTO; and a hint that must equal or derive from a
  // named Dim (relations unwritten) takes that Dim's range away, so both are hints.
  bool hinted_violation(const spec::Violation& v) {
    const int32_t gi = group_of(v.placeholder, v.axis);
    if (gi < 0) return false;
    if (v.kind == spec::ViolationKind::Specialized && groups_[size_t(gi)].mode == Mode::Dynamic) {
      give_up_range(uint32_t(gi), Mode::Auto, "tracing specialises it, so Dim.DYNAMIC is refused");
      return true;
    }
    const int32_t other = group_named(v.other);
    if (v.kind != spec::ViolationKind::Related || other < 0 || groups_[size_t(other)].mode != Mode::Named) return false;
    give_up_range(uint32_t(other), Mode::Dynamic,
                  fmt::format("{} is a hint related to it and the relation is not written: {}", v.dim, v.cause));
    return true;
  }

  // The cause of the first violation about group `gi`'s Dim.
  std::string violation_text(const spec::SpecCheckResult& r, uint32_t gi) const {
    const Group& gr = groups_[gi];
    const std::string& root = gr.mode == Mode::Derived ? groups_[gr.root].name : gr.name;
    for (const spec::Violation& v : r.violations)
      if (v.dim == gr.name || v.dim == root) return v.cause;
    return r.violations.empty() ? std::string() : r.violations.front().cause;
  }

  static std::string range_text(int64_t lo, std::optional<int64_t> hi) {
    return fmt::format("[{}, {}]", lo, hi ? std::to_string(*hi) : "int_oo");
  }

  // Every example's value of root `gi`, and of the groups derived from it, in range.
  bool range_holds_examples(uint32_t gi, int64_t lo, std::optional<int64_t> hi) const {
    for (int64_t v : groups_[gi].values)
      if (v < lo || (hi && v > *hi)) return false;
    return true;
  }

  std::string outside_text(uint32_t gi, int64_t lo, std::optional<int64_t> hi) const {
    std::string out;
    for (size_t e = 0; e < groups_[gi].values.size(); ++e) {
      const int64_t v = groups_[gi].values[e];
      if (v < lo || (hi && v > *hi)) out += fmt::format("{}{} ({})", out.empty() ? "" : ", ", example_name(e), v);
    }
    return out;
  }

  void summarise() {
    for (const Group& gr : groups_) {
      SuggestedDim d;
      d.name = gr.name;
      for (const auto& [p, dim] : gr.members) d.positions.push_back(position_name(inputs_, p, dim));
      d.example_min = gr.ex_min;
      d.example_max = gr.ex_max;
      const Group& rg = gr.mode == Mode::Derived ? groups_[gr.root] : gr;
      switch (gr.mode) {
        case Mode::Named:
        case Mode::Derived: {
          const DimRef ref{root_dim(rg), gr.mode == Mode::Derived ? gr.fn : LinearFn{}};
          d.written_as = spec::dim_name(ref);
          d.min = spec::dim_min(ref);
          d.max = spec::dim_max(ref);
          if (gr.mode == Mode::Named && !range_holds_examples(uint32_t(&gr - groups_.data()), gr.min, gr.max))
            d.left_out = outside_text(uint32_t(&gr - groups_.data()), gr.min, gr.max);
          break;
        }
        case Mode::Dynamic:
        case Mode::Auto:
          d.written_as = std::string(spec::hint_string(gr.mode == Mode::Auto ? spec::HintKind::Auto : spec::HintKind::Dynamic));
          d.why = rg.why;
          if (rg.has_guard_range && gr.mode == rg.mode && &rg == &gr) {
            d.guard_min = rg.guard_min;
            d.guard_max = rg.guard_max;
            d.has_guard_range = true;
          }
          break;
      }
      out_.dims.push_back(std::move(d));
    }
  }

  void verify() {
    summarise();
    if (!final_) return;
    out_.spec = *final_;
    if (last_) {
      out_.checked_example = last_->checked ? int64_t(opt_.graph_examples ? last_->example : ids_[last_->example]) : -1;
      if (!last_->checked) out_.check_error = last_->error;
      for (const spec::Violation& v : last_->violations) out_.violations.push_back(v.message);
      for (const auto& [k, v] : last_->forced) out_.violations.push_back(fmt::format("{} specialised to {}", k, v));
      for (const spec::HintConflict& h : last_->hint_conflicts) out_.violations.push_back(h.message);
      if (!last_->solver_error.empty()) out_.violations.push_back(last_->solver_error);
    }
    // Every example inside the spec (static dims, shared and derived dims); one outside a
    // Dim's range (the one trace's guards leave it out) is reported, not rejected.
    std::vector<bool> left_out(ex_.num_examples(), false);
    for (size_t e = 0; e < ex_.num_examples(); ++e) {
      std::string why = outside_spec(e, false);
      if (!why.empty()) {
        out_.rejected.push_back(fmt::format("{}: {}", example_name(e), why));
        continue;
      }
      why = outside_spec(e, true);
      if (why.empty()) continue;
      // Left out by the range, not by the graph: the example still propagates at its own sizes.
      std::string note;
      std::vector<std::vector<int64_t>> rows;
      const auto sizes = example_sizes(e, rows);
      infer::Table fixed = infer::table_of(out_.spec, sizes);
      for (auto& leaves : fixed)
        for (infer::Leaf& l : leaves) l.ref.reset();
      if (!infer::check_at(*gp_, *rules_, infer::build_spec(*gp_, fixed), sizes, note)) {
        out_.rejected.push_back(fmt::format("{}: {}; at its own sizes: {}", example_name(e), why, note));
        continue;
      }
      left_out[e] = true;
      out_.outside.push_back(fmt::format("{}: {}", example_name(e), why));
    }
    // Every example propagates under the spec (the export policy's stream).
    try {
      spec::apply_spec(*gp_, out_.spec);
      const StreamResult st = run_stream(*gp_, *rules_, ex_);
      for (const StreamResult::Rejection& rej : st.rejections)
        if (!left_out[rej.example])
          out_.rejected.push_back(fmt::format("{}: {}{}{}", example_name(rej.example), rej.node, rej.node.empty() ? "" : ": ",
                                            rej.message));
    } catch (const Error& e) {
      out_.rejected.push_back(fmt::format("the spec does not apply: {}", e.what()));
    }
    out_.verified = last_ && last_->checked && last_->ok() && out_.check_error.empty() && out_.rejected.empty();
  }

  // Why example `e` is outside the final spec, or "". `ranges`: only a Dim's range, else
  // everything but the ranges (static dims, shared and derived dims).
  std::string outside_spec(size_t e, bool ranges) const {
    for (uint32_t p = 0; p < ex_.num_placeholders(); ++p)
      for (uint32_t d = 0; d < ex_.rank(p); ++d) {
        const int64_t v = ex_.column(p, d)[e];
        const int32_t gi = group_of(p, d);
        if (gi < 0) {
          if (!ranges && v != ex_.column(p, d)[0]) return fmt::format("{} is {}, the spec has {}", position_name(inputs_, p, d), v, ex_.column(p, d)[0]);
          continue;
        }
        const Group& gr = groups_[size_t(gi)];
        if (gr.mode == Mode::Dynamic || gr.mode == Mode::Auto) continue;
        const Group& rg = gr.mode == Mode::Derived ? groups_[gr.root] : gr;
        const LinearFn fn = gr.mode == Mode::Derived ? gr.fn : LinearFn{};
        const int64_t r = rg.values[e];
        if (!ranges && apply(fn, r) != v)
          return fmt::format("{} is {}, not {} at {} = {}", position_name(inputs_, p, d), v, spec::derived_name(rg.name, fn), rg.name, r);
        if (ranges && (r < rg.min || (rg.max && r > *rg.max)))
          return fmt::format("{} = {} is outside {}", rg.name, r, range_text(rg.min, rg.max));
      }
    return {};
  }

  Graph* gp_;  // null: the examples alone
  const RuleTable* rules_;
  std::vector<std::string> inputs_;  // input names, in column order
  const ExampleColumns& ex_;
  const std::vector<uint64_t>& ids_;
  const SuggestOptions& opt_;
  SpecSuggestion& out_;
  std::vector<Group> groups_;
  std::optional<DynamicShapes> final_;
  std::optional<spec::SpecCheckResult> last_;
  bool narrowed_ = false;
};

}  // namespace

SpecSuggestion suggest_spec(Graph& graph, const RuleTable& rules, const ExampleColumns& examples,
                            const std::vector<uint64_t>& example_ids, const SuggestOptions& options) {
  SpecSuggestion out;
  if (examples.num_examples() == 0) {
    out.check_error = "no example to suggest a spec from";
    return out;
  }
  std::vector<std::string> inputs;
  for (uint32_t p = 0; p < graph.num_placeholders(); ++p) inputs.emplace_back(graph.node_name(graph.placeholder_node(PlaceholderId(p))));
  Suggester(&graph, &rules, std::move(inputs), examples, example_ids, options, out).run();
  return out;
}

SpecSuggestion suggest_spec_from_examples(const std::vector<std::string>& inputs, const ExampleColumns& examples,
                                          const std::vector<uint64_t>& example_ids, const SuggestOptions& options) {
  SpecSuggestion out;
  if (examples.num_examples() == 0) {
    out.check_error = "no example to suggest a spec from";
    return out;
  }
  Suggester(nullptr, nullptr, inputs, examples, example_ids, options, out).run();
  return out;
}

ExampleColumns tensor_inputs(const ExampleSet& set, std::vector<std::string>& names, std::vector<uint64_t>& example_ids) {
  // Candidates: the first example's top-level tensors; kept if every example has it, same rank.
  names.clear();
  std::vector<uint32_t> ranks;
  auto top_level = [&](size_t e, std::string_view name) -> const ValueNode* {
    const size_t root = set.roots[e];
    size_t c = root + 1;
    for (uint32_t k = 0; k < set.nodes[root].children; ++k, c = set.subtree_end(c))
      if (set.name(set.nodes[c].key) == name) return &set.nodes[c];
    return nullptr;
  };
  if (set.num_examples() > 0) {
    const size_t root = set.roots[0];
    size_t c = root + 1;
    for (uint32_t k = 0; k < set.nodes[root].children; ++k, c = set.subtree_end(c)) {
      const ValueNode& n = set.nodes[c];
      if (n.kind != ValueKind::Tensor) continue;
      bool everywhere = true;
      for (size_t e = 1; e < set.num_examples() && everywhere; ++e) {
        const ValueNode* v = top_level(e, set.name(n.key));
        everywhere = v && v->kind == ValueKind::Tensor && v->rank == n.rank;
      }
      if (!everywhere) continue;
      names.emplace_back(set.name(n.key));
      ranks.push_back(n.rank);
    }
  }
  std::vector<std::vector<int64_t>> columns;
  for (size_t p = 0; p < names.size(); ++p) {
    for (uint32_t d = 0; d < ranks[p]; ++d) {
      columns.emplace_back();
      for (size_t e = 0; e < set.num_examples(); ++e) columns.back().push_back(set.tensor_sizes(*top_level(e, names[p]))[d]);
    }
  }
  example_ids.assign(set.source.begin(), set.source.end());
  return ExampleColumns::from_columns(std::move(ranks), std::move(columns));
}

ExampleColumns ok_examples(const Graph& graph, std::vector<uint64_t>& example_ids) {
  std::vector<uint32_t> ranks;
  std::vector<std::vector<int64_t>> columns;
  for (uint32_t p = 0; p < graph.num_placeholders(); ++p) {
    ranks.push_back(graph.placeholder_rank(PlaceholderId(p)));
    for (uint32_t d = 0; d < ranks.back(); ++d) columns.emplace_back();
  }
  example_ids.clear();
  for (uint32_t e = 0; e < graph.num_examples(); ++e) {
    const ExampleView ex = graph.example(e);
    if (!ex.ok()) continue;
    bool regular = true;
    for (uint32_t p = 0; p < graph.num_placeholders(); ++p) regular &= ex.input_sizes(PlaceholderId(p)).size() == ranks[p];
    if (!regular) continue;
    size_t k = 0;
    for (uint32_t p = 0; p < graph.num_placeholders(); ++p)
      for (int64_t v : ex.input_sizes(PlaceholderId(p))) columns[k++].push_back(v);
    example_ids.push_back(e);
  }
  return ExampleColumns::from_columns(std::move(ranks), std::move(columns));
}

}  // namespace symshape::dynamism
