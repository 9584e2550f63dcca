// dump/load of spec.fb, and spec files in either form.
#include "formats/spec_fb.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "spec/spec_error.h"
#include "spec/spec_json.h"
#include "spec_generated.h"

namespace symshape {
namespace {

using spec::NodeKind;
using spec::throw_invalid_input;

constexpr size_t kMaxDepth = 32;

class FbReader {
 public:
  explicit FbReader(const fb::DynamicShapesSpec& s) : s_(s) {}

  spec::DynamicShapes run() {
    if (s_.version() != 1) throw_invalid_input(fmt::format("spec.fb: `version` is {}, this reader accepts 1", s_.version()));
    const size_t n = s_.kinds() ? s_.kinds()->size() : 0;
    auto check_len = [&](size_t len, const char* field) {
      if (len != n) throw_invalid_input(fmt::format("spec.fb: `{}` has {} entries for {} nodes", field, len, n));
    };
    check_len(s_.children() ? s_.children()->size() : 0, "children");
    check_len(s_.values() ? s_.values()->size() : 0, "values");
    check_len(s_.key_index() ? s_.key_index()->size() : 0, "key_index");
    if (!s_.present()) {
      if (n != 0) throw_invalid_input("spec.fb: `present` is false but the spec has nodes");
      return {};
    }
    if (n == 0) throw_invalid_input("spec.fb: `present` is true but `kinds` is empty");
    spec::SpecBuilder b;
    size_t i = 0;
    walk(b, i, 0, false);
    if (i != n) throw_invalid_input(fmt::format("spec.fb: {} nodes after the end of the tree", n - i));
    return b.build();
  }

 private:
  std::string key_of(size_t i, bool in_dict) const {
    const int32_t k = s_.key_index()->Get(uint32_t(i));
    if (!in_dict) {
      if (k != -1) throw_invalid_input(fmt::format("spec.fb: `key_index[{}]` is {} outside a dict", i, k));
      return {};
    }
    const uint32_t nkeys = s_.keys() ? s_.keys()->size() : 0;
    if (k < 0 || uint32_t(k) >= nkeys)
      throw_invalid_input(fmt::format("spec.fb: `key_index[{}]` = {} is not a key (there are {})", i, k, nkeys));
    const flatbuffers::String* key = s_.keys()->Get(uint32_t(k));
    return key ? key->str() : std::string();
  }

  spec::DimRef dim(size_t i) const {
    const int64_t u = s_.values()->Get(uint32_t(i));
    const uint32_t nuses = s_.uses() ? s_.uses()->size() : 0;
    if (u < 0 || uint64_t(u) >= nuses)
      throw_invalid_input(fmt::format("spec.fb: `values[{}]` = {} is not a Dim use (there are {})", i, u, nuses));
    const fb::SpecDimUse* use = s_.uses()->Get(uint32_t(u));
    const uint32_t nroots = s_.roots() ? s_.roots()->size() : 0;
    if (use->root() >= nroots)
      throw_invalid_input(fmt::format("spec.fb: `uses[{}].root` = {} is not a root (there are {})", u, use->root(), nroots));
    const fb::SpecRootDim* r = s_.roots()->Get(use->root());
    if (!r->name()) throw_invalid_input(fmt::format("spec.fb: `roots[{}].name` is missing", use->root()));
    spec::DimRef d{spec::make_dim(r->name()->str(), r->min(), r->has_max() ? std::optional<int64_t>(r->max()) : std::nullopt), {}};
    if (use->mul() < 1) throw_invalid_input(fmt::format("spec.fb: `uses[{}].mul` = {} is not a positive int", u, use->mul()));
    if (use->mul() != 1) d = d * spec::PyNumber(use->mul());
    if (use->add() != 0) d = d + spec::PyNumber(use->add());
    return d;
  }

  void walk(spec::SpecBuilder& b, size_t& i, size_t depth, bool in_dict) {
    if (depth > kMaxDepth) throw_invalid_input(fmt::format("spec.fb: nesting deeper than {}", kMaxDepth));
    if (i >= s_.kinds()->size()) throw_invalid_input("spec.fb: `children` counts run past the last node");
    const size_t me = i++;
    const std::string key = key_of(me, in_dict);
    const int64_t value = s_.values()->Get(uint32_t(me));
    switch (s_.kinds()->Get(uint32_t(me))) {
      case uint8_t(NodeKind::None): b.none(key); return;
      case uint8_t(NodeKind::Int): b.size(value, key); return;
      case uint8_t(NodeKind::Hint):
        if (value < 0 || value > 2) throw_invalid_input(fmt::format("spec.fb: `values[{}]` = {} is not a hint", me, value));
        b.hint(spec::HintKind(value), key);
        return;
      case uint8_t(NodeKind::Dim): b.dim(dim(me), key); return;
      case uint8_t(NodeKind::List):
      case uint8_t(NodeKind::Dict): {
        const bool dict = s_.kinds()->Get(uint32_t(me)) == uint8_t(NodeKind::Dict);
        dict ? b.begin_dict(key) : b.begin_list(key);
        const uint32_t n = s_.children()->Get(uint32_t(me));
        if (n > s_.kinds()->size() - i)
          throw_invalid_input(fmt::format("spec.fb: `children[{}]` = {} runs past the last node", me, n));
        for (uint32_t c = 0; c < n; ++c) walk(b, i, depth + 1, dict);
        b.end();
        return;
      }
      default:
        throw_invalid_input(fmt::format("spec.fb: `kinds[{}]` = {} is not a node kind", me, s_.kinds()->Get(uint32_t(me))));
    }
  }

  const fb::DynamicShapesSpec& s_;
};

}  // namespace

std::vector<uint8_t> dump_spec_fb(const spec::DynamicShapes& s) {
  flatbuffers::FlatBufferBuilder b(1024);
  std::vector<uint8_t> kinds;
  std::vector<uint32_t> children;
  std::vector<int64_t> values;
  std::vector<int32_t> key_index;
  for (const spec::SpecNode& n : s.nodes) {
    kinds.push_back(uint8_t(n.kind));
    children.push_back(n.children);
    values.push_back(n.value);
    key_index.push_back(n.key);
  }
  std::vector<flatbuffers::Offset<flatbuffers::String>> keys;
  for (const std::string& k : s.keys) keys.push_back(b.CreateString(k));
  std::vector<flatbuffers::Offset<fb::SpecRootDim>> roots;
  for (const spec::RootDim& r : s.roots) roots.push_back(fb::CreateSpecRootDim(b, b.CreateString(r.name), r.min, r.max, r.has_max));
  std::vector<fb::SpecDimUse> uses;
  for (const spec::DimUse& u : s.uses) uses.emplace_back(u.root, u.fn.mul, u.fn.add);
  const auto root = fb::CreateDynamicShapesSpec(b, 1, s.present, b.CreateVector(kinds), b.CreateVector(children),
                                                b.CreateVector(values), b.CreateVector(key_index),
                                                b.CreateVector(keys), b.CreateVector(roots), b.CreateVectorOfStructs(uses));
  fb::FinishDynamicShapesSpecBuffer(b, root);
  return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

bool is_spec_fb(std::string_view bytes) {
  return bytes.size() >= 8 && flatbuffers::BufferHasIdentifier(bytes.data(), fb::DynamicShapesSpecIdentifier());
}

spec::DynamicShapes load_spec_fb(const uint8_t* data, size_t size) {
  flatbuffers::Verifier verifier(data, size, flatbuffers::Verifier::Options{});
  if (size < 8 || !flatbuffers::BufferHasIdentifier(data, fb::DynamicShapesSpecIdentifier()) ||
      !fb::VerifyDynamicShapesSpecBuffer(verifier))
    throw_invalid_input("spec.fb: not a valid DynamicShapesSpec FlatBuffer (the verifier rejected it)");
  return FbReader(*fb::GetDynamicShapesSpec(data)).run();
}

spec::DynamicShapes load_spec_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_invalid_input(fmt::format("{}: cannot open", path));
  std::stringstream text;
  text << in.rdbuf();
  const std::string bytes = text.str();
  if (is_spec_fb(bytes)) return load_spec_fb(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  return spec::load_spec_json(bytes);
}

}  // namespace symshape
