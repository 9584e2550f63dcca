// Python text of JSON values (strings use single quotes unless they contain one, like repr).
#include "spec/py_text.h"

#include "spec/dim.h"

namespace symshape::spec {
namespace {

constexpr size_t kMaxText = 200;  // error messages quote values, never whole files

std::string py_repr_string(std::string_view s) {
  const char q = s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos ? '"' : '\'';
  std::string out(1, q);
  for (char c : s) {
    if (c == q || c == '\\') out += '\\';
    if (c == '\n') out += "\\n";
    else out += c;
  }
  return out + q;
}

void append(std::string& out, simdjson::dom::element e, bool repr) {
  if (out.size() > kMaxText) return;
  using T = simdjson::dom::element_type;
  switch (e.type()) {
    case T::NULL_VALUE: out += "None"; return;
    case T::BOOL: out += e.get_bool().value_unsafe() ? "True" : "False"; return;
    case T::INT64: out += std::to_string(e.get_int64().value_unsafe()); return;
    case T::UINT64: out += std::to_string(e.get_uint64().value_unsafe()); return;
    case T::DOUBLE: out += py_str(PyNumber(e.get_double().value_unsafe())); return;
    case T::STRING: {
      std::string_view s = e.get_string().value_unsafe();
      out += repr ? py_repr_string(s) : std::string(s);
      return;
    }
    case T::ARRAY: {
      out += '[';
      bool first = true;
      simdjson::dom::array a;
      if (e.get_array().get(a)) return;
      for (auto x : a) {
        if (!first) out += ", ";
        first = false;
        append(out, x, true);
      }
      out += ']';
      return;
    }
    case T::OBJECT: {
      out += '{';
      bool first = true;
      simdjson::dom::object o;
      if (e.get_object().get(o)) return;
      for (auto kv : o) {
        if (!first) out += ", ";
        first = false;
        out += py_repr_string(kv.key) + ": ";
        append(out, kv.value, true);
      }
      out += '}';
      return;
    }
  }
}

}  // namespace

std::string py_text(simdjson::dom::element e, bool repr) {
  std::string out;
  append(out, e, repr);
  if (out.size() > kMaxText) out = out.substr(0, kMaxText) + "...";
  return out;
}

std::string py_type(simdjson::dom::element e) {
  using T = simdjson::dom::element_type;
  switch (e.type()) {
    case T::NULL_VALUE: return "<class 'NoneType'>";
    case T::BOOL: return "<class 'bool'>";
    case T::INT64:
    case T::UINT64: return "<class 'int'>";
    case T::DOUBLE: return "<class 'float'>";
    case T::STRING: return "<class 'str'>";
    case T::ARRAY: return "<class 'list'>";
    case T::OBJECT: return "<class 'dict'>";
  }
  return "<class 'object'>";
}

std::string py_dict_keys(simdjson::dom::object o) {
  std::string out = "dict_keys([";
  bool first = true;
  for (auto kv : o) {
    if (!first) out += ", ";
    first = false;
    out += py_repr_string(kv.key);
  }
  return out + "])";
}

}  // namespace symshape::spec
