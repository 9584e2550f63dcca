#include "dynamism/py_json.h"

namespace symshape::dynamism {
namespace {

void dump(const nlohmann::ordered_json& v, std::string& out) {
  if (v.is_object()) {
    out += '{';
    bool first = true;
    for (const auto& [k, x] : v.items()) {
      if (!first) out += ", ";
      first = false;
      out += nlohmann::ordered_json(k).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      out += ": ";
      dump(x, out);
    }
    out += '}';
  } else if (v.is_array()) {
    out += '[';
    bool first = true;
    for (const auto& x : v) {
      if (!first) out += ", ";
      first = false;
      dump(x, out);
    }
    out += ']';
  } else {
    out += v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
}

}  // namespace

std::string py_dumps(const nlohmann::ordered_json& v) {
  std::string out;
  dump(v, out);
  return out;
}

std::string py_dumps_lines(const nlohmann::ordered_json& object) {
  std::string out = "{";
  bool first = true;
  for (const auto& [k, x] : object.items()) {
    out += first ? "\n  " : ",\n  ";
    first = false;
    out += nlohmann::ordered_json(k).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out += ": ";
    dump(x, out);
  }
  out += first ? "}" : "\n}";
  return out;
}

}  // namespace symshape::dynamism
