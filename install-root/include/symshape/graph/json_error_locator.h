#pragma once
// Turns a simdjson parse failure into a located Diagnostic. simdjson reports only an
// error code; on this (cold) path the text is re-read with nlohmann's SAX parser, which
// knows the line/column and lets us track the JSON path, and which also pinpoints
// what simdjson rejects without a position: integers beyond int64/uint64, floats beyond
// double, and nesting deeper than the limit.
#include <simdjson.h>

#include <string_view>

#include "graph/diagnostic.h"

namespace symshape {

Diagnostic locate_json_error(std::string_view text, std::string_view file, simdjson::error_code err,
                             uint32_t max_depth);

// Replaces bytes that are not printable ASCII by \xNN so messages stay valid UTF-8.
std::string printable(std::string_view s);

}  // namespace symshape
