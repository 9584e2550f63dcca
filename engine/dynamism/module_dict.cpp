#include "dynamism/module_dict.h"

#include <algorithm>
#include <string_view>

namespace symshape::dynamism {
namespace {

// Copies subtrees of `src` into `dst`, converting the "self" modules.
class Converter {
 public:
  Converter(const ExampleSet& src, ExampleSet& dst) : src_(src), dst_(dst) {}

  // Copies the subtree at `i` (its key set by the caller); returns one past its end.
  size_t copy(size_t i) {
    const ValueNode& n = src_.nodes[i];
    switch (n.kind) {
      case ValueKind::Dict:
      case ValueKind::List:
      case ValueKind::Object:
      case ValueKind::Module: {
        dst_.begin(n.kind);
        size_t c = i + 1;
        for (uint32_t k = 0; k < n.children; ++k) {
          key_from(src_.nodes[c]);
          c = copy(c);
        }
        dst_.end();
        return c;
      }
      case ValueKind::Tensor: dst_.tensor(src_.tensor_sizes(n)); break;
      case ValueKind::Int: dst_.integer(n.payload); break;
      case ValueKind::Bool: dst_.boolean(n.payload != 0); break;
      case ValueKind::Float: dst_.floating(n.number); break;
      case ValueKind::Str: dst_.string(src_.name(n.payload)); break;
      case ValueKind::None: dst_.none(); break;
    }
    return i + 1;
  }

  // The nested dict of the Module node at `m`; returns one past its subtree.
  size_t convert(size_t m) {
    struct Section {
      size_t first = 0;  // first entry node, 0: absent
      uint32_t count = 0;
    };
    Section parameters, buffers, attributes, modules;
    size_t c = m + 1;
    for (uint32_t k = 0; k < src_.nodes[m].children; ++k) {
      const ValueNode& sec = src_.nodes[c];
      const std::string_view name = src_.name(sec.key);
      Section s{c + 1, sec.children};
      if (name == "parameters") parameters = s;
      else if (name == "buffers") buffers = s;
      else if (name == "attributes") attributes = s;
      else modules = s;
      c = src_.subtree_end(c);
    }
    const size_t end = c;

    dst_.begin(ValueKind::Dict);
    dst_.set_key_name("_parameters");
    dst_.begin(ValueKind::Dict);
    for (const Section& s : {parameters, buffers})
      for_each_entry(s.first, s.count, [&](size_t e) {
        if (src_.nodes[e].kind == ValueKind::None) return;  // named_parameters skips None
        key_from(src_.nodes[e]);
        copy(e);
      });
    dst_.end();
    dst_.set_key_name("_modules");
    dst_.begin(ValueKind::Dict);
    for_each_entry(modules.first, modules.count, [&](size_t e) {
      key_from(src_.nodes[e]);
      convert(e);
    });
    dst_.end();
    // dir(): every attribute name sorted; keep the public int/float/tensor ones.
    std::vector<size_t> attrs;
    for (const Section& s : {parameters, buffers, attributes})
      for_each_entry(s.first, s.count, [&](size_t e) {
        const ValueNode& v = src_.nodes[e];
        const std::string_view name = src_.name(v.key);
        const bool wanted = v.kind == ValueKind::Int || v.kind == ValueKind::Float || v.kind == ValueKind::Tensor;
        if (wanted && !name.starts_with('_')) attrs.push_back(e);
      });
    std::stable_sort(attrs.begin(), attrs.end(),
                     [&](size_t a, size_t b) { return src_.name(src_.nodes[a].key) < src_.name(src_.nodes[b].key); });
    for (size_t e : attrs) {
      key_from(src_.nodes[e]);
      copy(e);
    }
    dst_.end();
    return end;
  }

 private:
  template <class F>
  void for_each_entry(size_t first, uint32_t count, F&& f) {
    size_t e = first;
    for (uint32_t k = 0; k < count; ++k) {
      f(e);
      e = src_.subtree_end(e);
    }
  }

  void key_from(const ValueNode& n) {
    switch (n.key_kind) {
      case KeyKind::Name: dst_.set_key_name(src_.name(n.key)); break;
      case KeyKind::Int: dst_.set_key_int(n.key); break;
      case KeyKind::Attr: dst_.set_key_attr(src_.name(n.key)); break;
      case KeyKind::Index:
      case KeyKind::Root: break;  // lists number their children themselves
    }
  }

  const ExampleSet& src_;
  ExampleSet& dst_;
};

}  // namespace

size_t replace_self_modules(ExampleSet& set) {
  bool any = false;
  for (size_t e = 0; e < set.num_examples() && !any; ++e) {
    const size_t root = set.roots[e];
    size_t c = root + 1;
    for (uint32_t k = 0; k < set.nodes[root].children; ++k, c = set.subtree_end(c))
      any |= set.nodes[c].kind == ValueKind::Module && set.nodes[c].key_kind == KeyKind::Name && set.name(set.nodes[c].key) == "self";
  }
  if (!any) return 0;
  ExampleSet out;
  Converter conv(set, out);
  size_t converted = 0;
  for (size_t e = 0; e < set.num_examples(); ++e) {
    const size_t root = set.roots[e];
    out.begin_example(set.source[e]);
    size_t c = root + 1;
    for (uint32_t k = 0; k < set.nodes[root].children; ++k) {
      const ValueNode& n = set.nodes[c];
      out.set_key_name(set.name(n.key));
      if (n.kind == ValueKind::Module && set.name(n.key) == "self") {
        c = conv.convert(c);
        ++converted;
      } else {
        c = conv.copy(c);
      }
    }
    out.end_example();
  }
  set = std::move(out);
  return converted;
}

}  // namespace symshape::dynamism
