// prettify_results and refine_dynamic_shapes_from_suggested_fixes over DynamicShapes.
#include "spec/suggested_fixes.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>

#include "spec/spec_error.h"

namespace symshape::spec {
namespace {

constexpr int64_t kIntOo = INT64_MAX;  // PyTorch's int_oo inside a result

// Every Dim of the spec by name: roots, derived dims, and the roots of derived dims.
std::map<std::string, DimRef> dim_name_mapping(const DynamicShapes& spec) {
  std::map<std::string, DimRef> out;
  for (const SpecNode& n : spec.nodes) {
    if (n.kind != NodeKind::Dim) continue;
    const DimRef d = spec.dim(n);
    out[dim_name(d)] = d;
    if (!d.fn.identity()) out[d.root.name] = DimRef{d.root, {}};
  }
  return out;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<int64_t> to_int(std::string_view s) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// `dy`, `dy + 1`, `2*_dx - 1`, `3*dx`: one symbol with an integer linear function (sympy's
// printing of what _is_supported_equivalence accepts).
struct LinearOf {
  std::string root;
  LinearFn fn;
};
std::optional<LinearOf> parse_linear(std::string_view text) {
  std::string s;
  for (char c : text)
    if (c != ' ') s += c;
  auto ident = [](char c, bool first) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9');
  };
  // Terms separated by + / -: one `name`, `k*name` or `name*k` term and at most one int.
  LinearOf out;
  bool have_name = false, have_int = false;
  size_t i = 0;
  while (i < s.size()) {
    int64_t sign = 1;
    if (s[i] == '+' || s[i] == '-') sign = s[i++] == '-' ? -1 : 1;
    const size_t end = s.find_first_of("+-", i);
    const std::string term = s.substr(i, end == std::string::npos ? std::string::npos : end - i);
    i = end == std::string::npos ? s.size() : end;
    if (term.empty()) return std::nullopt;
    const size_t star = term.find('*');
    const std::string a = term.substr(0, star), b = star == std::string::npos ? "" : term.substr(star + 1);
    if (star == std::string::npos && to_int(a)) {
      if (have_int) return std::nullopt;
      have_int = true;
      out.fn.add = sign * *to_int(a);
      continue;
    }
    std::string name = star == std::string::npos ? a : to_int(a) ? b : a;
    const std::optional<int64_t> k = star == std::string::npos ? std::optional<int64_t>(1) : to_int(a) ? to_int(a) : to_int(b);
    if (have_name || !k || name.empty() || !ident(name[0], true) ||
        !std::all_of(name.begin(), name.end(), [&](char c) { return ident(c, false); }))
      return std::nullopt;
    if (sign * *k <= 0) return std::nullopt;  // only increasing functions are Dims
    have_name = true;
    out.root = name;
    out.fn.mul = sign * *k;
  }
  if (!have_name) return std::nullopt;
  return out;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  return s;
}

struct Result {
  std::optional<int64_t> min, max;
  bool max_oo = false;  // max is sympy's `oo` (a new root's unbounded max), printed as `max=oo`
  enum class Eq : uint8_t { None, Int, Linear, Other } eq = Eq::None;
  int64_t eq_int = 0;
  LinearOf eq_linear;
  bool has_range() const { return min || max || max_oo; }
};
using Results = std::vector<std::pair<std::string, Result>>;

Result& at(Results& r, const std::string& k) {
  for (auto& [key, v] : r)
    if (key == k) return v;
  r.emplace_back(k, Result{});
  return r.back().second;
}
Result* find(Results& r, const std::string& k) {
  for (auto& [key, v] : r)
    if (key == k) return &v;
  return nullptr;
}

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t dim_max_or_oo(const DimRef& d) { return d.root.has_max ? d.root.max : kIntOo; }

// The spec's range and the result's are the same (a spec min of 0/1 equals an inferred 2).
bool same_range(const Result& c, const DimRef& dim) {
  if (!dim.fn.identity() || !c.has_range()) return false;
  const int64_t cmin = c.min.value_or(2);
  return ((dim.root.min < 2 && cmin == 2) || dim.root.min == cmin) && dim_max_or_oo(dim) == c.max.value_or(kIntOo);
}

// _process_derived_dim_roots: roots introduced by congruences and swapped roots.
void process_derived_dim_roots(Results& results, std::map<std::string, DimRef>& name_to_dim) {
  std::vector<std::pair<std::string, std::string>> introduced;  // new root -> old root
  const size_t n = results.size();
  for (size_t i = 0; i < n; ++i) {
    Result c = results[i].second;
    if (c.eq != Result::Eq::Linear || name_to_dim.count(c.eq_linear.root)) continue;
    const std::string root = c.eq_linear.root, k = results[i].first;
    introduced.emplace_back(root, k);
    const int64_t mod = c.eq_linear.fn.mul, rem = c.eq_linear.fn.add;
    Result nr;
    nr.min = -floor_div(-(c.min.value_or(2) - rem), mod);
    // floor((int_oo - rem) / mod) is sympy's `oo`, which PyTorch prints: `max=oo`.
    if (c.max && *c.max != kIntOo) nr.max = floor_div(*c.max - rem, mod);
    else nr.max_oo = true;
    RootDim rd{root, *nr.min, nr.max.value_or(0), nr.max.has_value()};
    name_to_dim[root] = DimRef{rd, {}};
    results[i].second.min.reset();
    results[i].second.max.reset();
    at(results, root) = nr;
  }
  for (const auto& [new_root, old_root] : introduced) {
    const Result* old = find(results, old_root);
    if (!old) continue;
    const LinearFn base = old->eq_linear.fn;
    const std::string base_root = old->eq_linear.root;
    for (auto& [k, c] : results)
      if (c.eq == Result::Eq::Linear && c.eq_linear.root == old_root) {
        c.eq_linear = {base_root, {c.eq_linear.fn.mul * base.mul, c.eq_linear.fn.mul * base.add + c.eq_linear.fn.add}};
      }
  }
  std::vector<std::string> modified_roots;
  auto add_root = [&](const std::string& r) {
    if (std::find(modified_roots.begin(), modified_roots.end(), r) == modified_roots.end()) modified_roots.push_back(r);
  };
  for (auto& [k, c] : results) {
    auto it = name_to_dim.find(k);
    if (it == name_to_dim.end()) continue;
    if (it->second.fn.identity() && c.has_range()) add_root(k);
    else if (c.eq == Result::Eq::Linear) add_root(c.eq_linear.root);
  }
  std::erase_if(modified_roots, [&](const std::string& r) {
    return std::any_of(introduced.begin(), introduced.end(), [&](auto& p) { return p.first == r; });
  });
  Results modified_values;
  for (const std::string& mroot : modified_roots) {
    bool swapped = true;
    if (const Result* c = find(results, mroot); c && (c->has_range() || c->eq == Result::Eq::Int)) {
      auto it = name_to_dim.find(mroot);
      if (it != name_to_dim.end() && !same_range(*c, it->second)) at(modified_values, mroot) = *c;
      swapped = false;
    }
    if (!swapped) continue;
    for (auto& [k, c] : results) {
      auto it = name_to_dim.find(k);
      if (it == name_to_dim.end() || it->second.fn.identity() || it->second.root.name != mroot) continue;
      if (!c.min || !c.max) continue;
      const LinearFn fn = it->second.fn;  // k = mul*root + add: root = (k - add) / mul
      Result r;
      r.min = (*c.min - fn.add) / fn.mul;
      r.max = *c.max == kIntOo ? kIntOo : (*c.max - fn.add) / fn.mul;
      auto root_it = name_to_dim.find(mroot);
      if (root_it != name_to_dim.end() && !same_range(r, root_it->second)) {
        at(modified_values, mroot) = r;
        break;
      }
    }
  }
  std::erase_if(results, [&](const auto& kv) {
    auto it = name_to_dim.find(kv.first);
    if (it == name_to_dim.end()) return false;
    return !it->second.fn.identity() ||
           std::find(modified_roots.begin(), modified_roots.end(), kv.first) != modified_roots.end();
  });
  for (auto& [k, v] : modified_values) at(results, k) = v;
}

}  // namespace

std::string prettify_results(const SolverResults& r, const DynamicShapes& spec) {
  if (r.source_to_debug.empty()) return "";
  auto transform = [&](std::string s, bool inverse) {
    for (const auto& [src, dbg] : r.source_to_debug) s = inverse ? replace_all(s, dbg, src) : replace_all(s, src, dbg);
    return s;
  };
  std::map<std::string, DimRef> name_to_dim = dim_name_mapping(spec);
  Results results;
  std::vector<std::string> all = r.static_results;
  for (const std::string& s : r.dynamic_results)
    if (std::find(all.begin(), all.end(), s) == all.end()) all.push_back(s);
  static const char* const kOps[] = {" == ", " <= ", " >= ", " < ", " > "};
  for (const std::string& s : all) {
    const std::string t = transform(s, false);
    if (t == s) continue;
    size_t pos = std::string::npos, len = 0;
    std::string op;
    for (const char* o : kOps) {
      const size_t p = t.find(o);
      if (p != std::string::npos && p < pos) pos = p, len = std::string_view(o).size(), op = std::string(o).substr(1, len - 2);
    }
    if (pos == std::string::npos) continue;
    std::string left = t.substr(0, pos), right = t.substr(pos + len);
    if (op == "==" && left == right) continue;
    auto with_digit = [&](const std::string& e, const std::string& o, int64_t v) {
      Result& c = at(results, e);
      if (o == "<=") c.max = v;
      else if (o == "<") c.max = v - 1;
      else if (o == ">=") c.min = v;
      else if (o == ">") c.min = v + 1;
      else c.eq = Result::Eq::Int, c.eq_int = v;
    };
    auto flip = [](const std::string& o) {
      return o == "<=" ? ">=" : o == ">=" ? "<=" : o == "<" ? ">" : o == ">" ? "<" : o;
    };
    if (all_digits(right)) with_digit(left, op, *to_int(right));
    else if (all_digits(left)) with_digit(right, flip(op), *to_int(left));
    else if (op == "==") {
      Result& c = at(results, left);
      if (std::optional<LinearOf> lin = parse_linear(right)) c.eq = Result::Eq::Linear, c.eq_linear = *lin;
      else c.eq = Result::Eq::Other;
    }
  }
  std::string buf;
  if (!r.forced.empty()) {
    std::vector<std::pair<std::string, int64_t>> forced = r.forced;
    auto source_of = [](const std::string& k) {
      const size_t p = k.find(" = ");
      return p == std::string::npos ? k : k.substr(p + 3);
    };
    std::stable_sort(forced.begin(), forced.end(), [&](auto& a, auto& b) { return source_of(a.first) < source_of(b.first); });
    std::vector<std::string> names;
    for (const auto& [k, v] : forced) {
      const std::string name = k.substr(0, k.find(" = "));
      auto it = name_to_dim.find(name);
      const std::string dbg = it != name_to_dim.end() && !it->second.fn.identity() ? it->second.root.name : name;
      if (std::find(names.begin(), names.end(), dbg) == names.end()) names.push_back(dbg);
    }
    std::sort(names.begin(), names.end());
    std::string joined;
    for (const std::string& nm : names) joined += (joined.empty() ? "" : ", ") + nm;
    buf += fmt::format(
        "Specializations unexpectedly required ({})! For more information, run with TORCH_LOGS=\"+dynamic\".\n", joined);
    for (const auto& [k, v] : forced)
      buf += fmt::format("  - solving the guards generated for {} resulted in a specialized value of {}.\n", k, v);
  }
  process_derived_dim_roots(results, name_to_dim);
  std::stable_sort(results.begin(), results.end(),
                   [&](auto& a, auto& b) { return transform(a.first, true) < transform(b.first, true); });
  std::vector<std::string> dims, others;
  for (const auto& [k, c] : results) {
    if (c.eq == Result::Eq::Int) others.push_back(fmt::format("{} = {}", k, c.eq_int));
    else if (c.eq == Result::Eq::Linear)
      others.push_back(fmt::format("{} = {}", k, derived_name(c.eq_linear.root, c.eq_linear.fn)));
    else if (c.eq == Result::Eq::None) {
      // `min=`/`max=` parts; a min of 2 is the solver's default and not printed
      std::string range;
      if (c.min && *c.min != 2) range += fmt::format(", min={}", *c.min);
      if (c.max_oo) range += ", max=oo";
      else if (c.max) range += *c.max == kIntOo ? std::string(", max=int_oo") : fmt::format(", max={}", *c.max);
      dims.push_back(fmt::format("{} = Dim('{}'{})", k, k, range));
    }
  }
  if (!dims.empty() || !others.empty()) {
    buf += "\nSuggested fixes:\n  ";
    std::string lines;
    for (const std::string& l : dims) lines += (lines.empty() ? "" : "\n  ") + l;
    for (const std::string& l : others) lines += (lines.empty() ? "" : "\n  ") + l;
    buf += lines;
  }
  return buf;
}

namespace {

// One parsed fix: a Dim, a static value, or a linear expression of another name.
struct Fix {
  enum class Kind : uint8_t { Dim, Int, Linear } kind = Kind::Int;
  RootDim dim;
  int64_t value = 0;
  LinearOf linear;
};
Fix fix_of(RootDim d) {
  Fix f;
  f.kind = Fix::Kind::Dim;
  f.dim = std::move(d);
  return f;
}
Fix fix_of(int64_t v) {
  Fix f;
  f.value = v;
  return f;
}
Fix fix_of(LinearOf l) {
  Fix f;
  f.kind = Fix::Kind::Linear;
  f.linear = std::move(l);
  return f;
}

class Refiner {
 public:
  Refiner(const DynamicShapes& spec, std::map<std::string, Fix> fixes)
      : spec_(spec), fixes_(std::move(fixes)), name_to_dim_(dim_name_mapping(spec)) {}

  DynamicShapes run() {
    std::vector<std::string> roots;
    for (const auto& [k, f] : fixes_)
      if (f.kind == Fix::Kind::Linear) roots.push_back(f.linear.root);
    for (const auto& [k, f] : fixes_)
      if (!name_to_dim_.count(k) && std::find(roots.begin(), roots.end(), k) == roots.end())
        throw_spec(PyException::AssertionError,
                   fmt::format("suggested fix for {}, which is neither a dim of the spec nor a new root", k));
    SpecBuilder b;
    if (!spec_.present) return spec_;
    walk(b, 0, {});
    return b.build();
  }

 private:
  // A fix's value as a spec leaf: an int, or a Dim (with `fn` applied on top).
  struct Leaf {
    bool is_int = false;
    int64_t value = 0;
    DimRef dim;
  };
  Leaf apply(const Leaf& base, LinearFn fn) const {
    Leaf out = base;
    if (base.is_int) {
      out.value = base.value * fn.mul + fn.add;
      return out;
    }
    if (fn.mul != 1) out.dim = out.dim * PyNumber(fn.mul);
    if (fn.add != 0) out.dim = out.dim + PyNumber(fn.add);
    return out;
  }
  Leaf resolve(const Fix& f, int depth = 0) const {
    if (depth > 8) throw_spec(PyException::AssertionError, "suggested fixes refer to each other in a cycle");
    if (f.kind == Fix::Kind::Int) return {true, f.value, {}};
    if (f.kind == Fix::Kind::Dim) return {false, 0, DimRef{f.dim, {}}};
    Leaf root;
    if (auto it = fixes_.find(f.linear.root); it != fixes_.end()) root = resolve(it->second, depth + 1);
    else if (auto d = name_to_dim_.find(f.linear.root); d != name_to_dim_.end()) root = {false, 0, d->second};
    else throw_spec(PyException::AssertionError, fmt::format("unknown root {} in a suggested fix", f.linear.root));
    return apply(root, f.linear.fn);
  }
  void leaf(SpecBuilder& b, const SpecNode& n, std::string_view key) {
    const DimRef d = spec_.dim(n);
    Leaf out{false, 0, d};
    if (auto it = fixes_.find(dim_name(d)); it != fixes_.end()) out = resolve(it->second);
    else if (!d.fn.identity())
      if (auto r = fixes_.find(d.root.name); r != fixes_.end()) out = apply(resolve(r->second), d.fn);
    if (out.is_int) b.size(out.value, key);
    else b.dim(out.dim, key);
  }
  size_t walk(SpecBuilder& b, size_t i, std::string_view key) {
    const SpecNode& n = spec_.nodes[i];
    switch (n.kind) {
      case NodeKind::None: b.none(key); return i + 1;
      case NodeKind::Int: b.size(n.value, key); return i + 1;
      case NodeKind::Hint: b.hint(HintKind(n.value), key); return i + 1;
      case NodeKind::Dim: leaf(b, n, key); return i + 1;
      case NodeKind::List:
      case NodeKind::Dict: {
        n.kind == NodeKind::Dict ? b.begin_dict(key) : b.begin_list(key);
        size_t j = i + 1;
        for (uint32_t c = 0; c < n.children; ++c) {
          const SpecNode& child = spec_.nodes[j];
          j = walk(b, j, n.kind == NodeKind::Dict ? std::string_view(spec_.keys[size_t(child.key)]) : std::string_view());
        }
        b.end();
        return j;
      }
    }
    return i + 1;
  }

  const DynamicShapes& spec_;
  std::map<std::string, Fix> fixes_;
  std::map<std::string, DimRef> name_to_dim_;
};

}  // namespace

DynamicShapes refine_from_suggested_fixes(const std::string& message, const DynamicShapes& spec) {
  static const std::string kMarker = "Suggested fixes:";
  const size_t at_marker = message.find(kMarker);
  if (at_marker == std::string::npos)
    throw_invalid_input(
        "Suggested fixes not found in error message given to refine_dynamic_shapes_from_suggested_fixes()");
  std::string block = message.substr(at_marker + kMarker.size());
  // The text up to the next "Suggested fixes:" (PyTorch takes split(...)[1]).
  if (const size_t next = block.find(kMarker); next != std::string::npos) block.resize(next);
  std::map<std::string, Fix> fixes;
  size_t start = 0;
  while (start <= block.size()) {
    size_t end = block.find('\n', start);
    if (end == std::string::npos) end = block.size();
    std::string line = block.substr(start, end - start);
    start = end + 1;
    line.erase(0, line.find_first_not_of(" \t\r"));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    if (line.empty()) continue;
    // PyTorch's patterns: `(.*) = Dim\('(.*)'.*\)`, then `', min=([0-9]+)` and `max=([0-9]+)\)`.
    if (const size_t at = line.rfind(" = Dim('"); at != std::string::npos && line.back() == ')') {
      const std::string name = line.substr(0, at);
      auto digits_after = [&](const std::string& key, bool closing) -> std::optional<int64_t> {
        const size_t k = line.find(key, at);
        if (k == std::string::npos) return std::nullopt;
        size_t e = k + key.size();
        while (e < line.size() && line[e] >= '0' && line[e] <= '9') ++e;
        if (e == k + key.size() || (closing && e != line.size() - 1)) return std::nullopt;
        return to_int(std::string_view(line).substr(k + key.size(), e - k - key.size()));
      };
      std::optional<int64_t> mn = digits_after("', min=", false), mx = digits_after("max=", true);
      // A root the fixes introduce (`_dx`) gets the solver's default min 2 when the line
      // omits it, so its derived dims (`2*_dx - 1`) keep a non-negative min.
      if (!mn && !dim_name_mapping(spec).count(name)) mn = 2;
      fixes[name] = fix_of(make_dim(name, mn, mx));
      continue;
    }
    const size_t eq = line.find(" = ");
    if (eq == std::string::npos)
      throw_spec(PyException::ValueError, fmt::format("not enough values to unpack in suggested fix '{}'", line));
    const std::string name = line.substr(0, eq), expr = line.substr(eq + 3);
    if (std::optional<int64_t> v = to_int(expr)) {
      fixes[name] = fix_of(*v);
    } else if (std::optional<LinearOf> lin = parse_linear(expr)) {
      fixes[name] = fix_of(*lin);
    } else {
      throw_spec(PyException::AssertionError, fmt::format("unsupported suggested fix '{}'", line));
    }
  }
  return Refiner(spec, std::move(fixes)).run();
}

}  // namespace symshape::spec
