#include "dynamism/example_json.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "batch/ndjson_lines.h"

namespace symshape::dynamism {
namespace {

// A malformed value: where (the Python-style path below the line) and why.
struct BadValue {
  std::string where, why;
};

// Where a value is: a chain of frames on the C++ stack, turned into text (`b[0]['k']`,
// `x.module.parameters['w']`) only when a value is bad, so reading allocates nothing for it.
struct Where {
  enum Kind : uint8_t { Name, Key, Index, Attr, Raw };
  const Where* parent = nullptr;
  Kind kind = Name;
  std::string_view text;  // Name / Key / Attr: the name; Raw: literal text (".dict")
  size_t index = 0;
  std::string str() const {
    std::string out = parent ? parent->str() : std::string();
    switch (kind) {
      case Name: out += text; break;
      case Key: out += '[' + py_repr(text) + ']'; break;
      case Index: out += fmt::format("[{}]", index); break;
      case Attr: out += '.' + std::string(text); break;
      case Raw: out += text; break;
    }
    return out;
  }
  Where key(std::string_view k) const { return {this, Key, k, 0}; }
  Where at(size_t i) const { return {this, Index, {}, i}; }
  Where attr(std::string_view a) const { return {this, Attr, a, 0}; }
  Where raw(std::string_view t) const { return {this, Raw, t, 0}; }
};

class LineReader {
 public:
  explicit LineReader(ExampleSet& out) : out_(out) {}

  void top_level(simdjson::dom::object obj) {
    reject_duplicate_keys(obj, nullptr);
    for (auto kv : obj) {
      out_.set_key_name(kv.key);
      const Where where{nullptr, Where::Name, kv.key, 0};
      simdjson::dom::array arr;
      if (kv.value.get_array().get(arr) == simdjson::SUCCESS && all_ints(arr)) {
        tensor_sizes(arr, where);  // the eval form: {"x": [2, 3]}
        continue;
      }
      value(kv.value, where, 1);
    }
  }

 private:
  // JSON allows a key twice (json.loads keeps the last); an example must not: one value per key.
  void reject_duplicate_keys(simdjson::dom::object obj, const Where* where) {
    keys_.clear();
    for (auto kv : obj) keys_.push_back(kv.key);
    std::sort(keys_.begin(), keys_.end());
    for (size_t i = 1; i < keys_.size(); ++i)
      if (keys_[i] == keys_[i - 1]) {
        const Where w = where ? where->key(keys_[i]) : Where{nullptr, Where::Name, keys_[i], 0};
        throw BadValue{w.str(), "duplicate key"};
      }
  }

  static bool all_ints(simdjson::dom::array arr) {
    for (auto v : arr)
      if (!v.is_int64() && !v.is_uint64()) return false;
    return true;
  }

  void tensor_sizes(simdjson::dom::array arr, const Where& where) {
    sizes_.clear();
    for (auto v : arr) {
      int64_t x = 0;
      if (v.get_int64().get(x) || x < 0)
        throw BadValue{where.at(sizes_.size()).str(),
                       "a tensor size must be a non-negative integer (a list of ints is {\"list\": [...]})"};
      sizes_.push_back(x);
    }
    out_.tensor(sizes_);
  }

  // The tag of an object with a single key that names one, else "".
  static std::string_view tag_of(simdjson::dom::object obj) {
    if (obj.size() != 1) return {};
    const std::string_view k = (*obj.begin()).key;
    for (std::string_view t : {"tensor", "list", "dict", "attrs", "module"})
      if (k == t) return t;
    return {};
  }

  void value(simdjson::dom::element v, const Where& where, int depth) {
    if (depth > kMaxValueDepth) throw BadValue{where.str(), fmt::format("nested deeper than {} levels", kMaxValueDepth)};
    switch (v.type()) {
      case simdjson::dom::element_type::INT64: out_.integer(int64_t(v)); return;
      case simdjson::dom::element_type::UINT64: throw BadValue{where.str(), "integer outside int64"};
      case simdjson::dom::element_type::DOUBLE: out_.floating(double(v)); return;
      case simdjson::dom::element_type::BOOL: out_.boolean(bool(v)); return;
      case simdjson::dom::element_type::STRING: out_.string(std::string_view(v)); return;
      case simdjson::dom::element_type::NULL_VALUE: out_.none(); return;
      case simdjson::dom::element_type::ARRAY: list(simdjson::dom::array(v), where, depth); return;
      case simdjson::dom::element_type::OBJECT: break;
    }
    const simdjson::dom::object obj(v);
    const std::string_view tag = tag_of(obj);
    const simdjson::dom::element body = (*obj.begin()).value;
    const std::string tag_text = fmt::format(".{}", tag);
    const Where inner = where.raw(tag_text);
    if (tag.empty()) {
      reject_duplicate_keys(obj, &where);
      out_.begin(ValueKind::Dict);
      for (auto kv : obj) {
        out_.set_key_name(kv.key);
        value(kv.value, where.key(kv.key), depth + 1);
      }
      out_.end();
    } else if (tag == "tensor") {
      simdjson::dom::array arr;
      if (body.get_array().get(arr) || !all_ints(arr)) throw BadValue{inner.str(), "expected a list of integer sizes"};
      tensor_sizes(arr, where);
    } else if (tag == "list") {
      simdjson::dom::array arr;
      if (body.get_array().get(arr)) throw BadValue{inner.str(), "expected a list"};
      list(arr, where, depth);
    } else if (tag == "dict") {
      pairs(body, where, depth);
    } else if (tag == "attrs") {
      simdjson::dom::object attrs;
      if (body.get_object().get(attrs)) throw BadValue{inner.str(), "expected an object of attribute values"};
      out_.begin(ValueKind::Object);
      for (auto kv : attrs) {
        out_.set_key_attr(kv.key);
        value(kv.value, where.attr(kv.key), depth + 1);
      }
      out_.end();
    } else {
      module(body, where, depth);
    }
  }

  void list(simdjson::dom::array arr, const Where& where, int depth) {
    out_.begin(ValueKind::List);
    size_t i = 0;
    for (auto item : arr) value(item, where.at(i++), depth + 1);
    out_.end();
  }

  // {"dict": [[key, value], ...]}: keys are ints or strings, each at most once.
  void pairs(simdjson::dom::element body, const Where& where, int depth) {
    const std::string inner = where.str() + ".dict";
    simdjson::dom::array arr;
    if (body.get_array().get(arr)) throw BadValue{inner, "expected a list of [key, value] pairs"};
    out_.begin(ValueKind::Dict);
    std::vector<std::string> seen;
    size_t i = 0;
    for (auto pair : arr) {
      simdjson::dom::array kv;
      if (pair.get_array().get(kv) || kv.size() != 2)
        throw BadValue{fmt::format("{}[{}]", inner, i), "expected a [key, value] pair"};
      const simdjson::dom::element key = kv.at(0).value_unsafe();
      std::string rendered;
      if (key.is_int64()) {
        out_.set_key_int(int64_t(key));
        rendered = fmt::format("[{}]", int64_t(key));
      } else if (key.is_string()) {
        out_.set_key_name(std::string_view(key));
        rendered = fmt::format("[{}]", py_repr(std::string_view(key)));
      } else {
        throw BadValue{fmt::format("{}[{}][0]", inner, i), "a dict key must be an int or a string"};
      }
      for (const std::string& s : seen)
        if (s == rendered) throw BadValue{fmt::format("{}[{}][0]", inner, i), fmt::format("duplicate key {}", rendered)};
      seen.push_back(rendered);
      value(kv.at(1).value_unsafe(), where.raw(rendered), depth + 1);
      ++i;
    }
    out_.end();
  }

  // {"module": {"attributes": {...}, "parameters": {...}, "buffers": {...}, "modules": {...}}}
  void module(simdjson::dom::element body, const Where& where, int depth) {
    const std::string inner = where.str() + ".module";
    simdjson::dom::object sections;
    if (body.get_object().get(sections)) throw BadValue{inner, "expected an object of module sections"};
    out_.begin(ValueKind::Module);
    for (auto kv : sections) {
      const std::string_view name = kv.key;
      const std::string at = fmt::format("{}.{}", inner, name);
      if (name != "attributes" && name != "parameters" && name != "buffers" && name != "modules")
        throw BadValue{at, "unknown module section (expected attributes, parameters, buffers, modules)"};
      simdjson::dom::object entries;
      if (kv.value.get_object().get(entries)) throw BadValue{at, "expected an object keyed by name"};
      out_.set_key_name(name);
      out_.begin(ValueKind::Dict);
      for (auto e : entries) {
        out_.set_key_name(e.key);
        const std::string entry_text = fmt::format("{}[{}]", at, py_repr(e.key));
        const Where entry{nullptr, Where::Raw, entry_text, 0};
        if (name == "modules") {
          simdjson::dom::object child;
          if (e.value.get_object().get(child) || tag_of(child) != "module")
            throw BadValue{entry_text, "a child module must be {\"module\": {...}}"};
          module((*child.begin()).value, entry, depth + 1);
        } else if (name == "attributes") {
          value(e.value, entry, depth + 1);
        } else if (e.value.is_null()) {
          out_.none();  // a parameter registered as None (Linear(bias=False))
        } else {
          simdjson::dom::array arr;
          simdjson::dom::object t;
          if (e.value.get_object().get(t) == simdjson::SUCCESS && tag_of(t) == "tensor") {
            value(e.value, entry, depth + 1);
          } else if (e.value.get_array().get(arr) == simdjson::SUCCESS && all_ints(arr)) {
            tensor_sizes(arr, entry);
          } else {
            throw BadValue{entry_text, "a parameter or buffer must be a tensor ([sizes] or {\"tensor\": [sizes]}) or null"};
          }
        }
      }
      out_.end();
    }
    out_.end();
  }

  ExampleSet& out_;
  std::vector<int64_t> sizes_;
  std::vector<std::string_view> keys_;
};

}  // namespace

void read_examples_ndjson(std::string_view text, std::string_view file_name, ExampleSet& out, Diagnostics& problems) {
  auto problem = [&](uint64_t line, std::string field, std::string msg) {
    Diagnostic d;
    d.code = GraphErrc::BadValue;
    d.file = std::string(file_name);
    d.field = fmt::format("line {}{}{}", line, field.empty() ? "" : ": ", field);
    d.message = std::move(msg);
    problems.add(std::move(d));
  };
  for_each_ndjson_object(
      text, "named inputs, e.g. {\"x\": [2, 3], \"n\": 4}",
      [&](uint64_t line_no, simdjson::dom::object obj) {
        out.begin_example(line_no);
        try {
          LineReader(out).top_level(obj);
          out.end_example();
        } catch (const BadValue& b) {
          out.abandon_example();
          problem(line_no, b.where, b.why);
        }
      },
      [&](uint64_t line_no, std::string msg) { problem(line_no, "", std::move(msg)); });
}

bool read_examples_file(const std::string& path, ExampleSet& out, Diagnostics& problems) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    Diagnostic d;
    d.code = GraphErrc::Io;
    d.file = path;
    d.message = "cannot open file";
    problems.add(std::move(d));
    return false;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  if (f.bad()) {
    Diagnostic d;
    d.code = GraphErrc::Io;
    d.file = path;
    d.message = "cannot read file";
    problems.add(std::move(d));
    return false;
  }
  read_examples_ndjson(ss.str(), path, out, problems);
  return true;
}

}  // namespace symshape::dynamism
