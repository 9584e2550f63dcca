#pragma once
// JSON text in Python's json.dumps layout (", " and ": " separators, non-ASCII kept), the
// layout of the spec JSON (spec_json.h), so dynamism output and specs read alike.
#include <nlohmann/json.hpp>
#include <string>

namespace symshape::dynamism {

std::string py_dumps(const nlohmann::ordered_json& v);
// An object with one top-level key per line, each value in py_dumps' layout.
std::string py_dumps_lines(const nlohmann::ordered_json& object);

}  // namespace symshape::dynamism
