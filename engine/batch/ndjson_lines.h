#pragma once
// Walking NDJSON text one example object per line, for the readers of example streams
// (ExampleColumns::from_ndjson, the dynamism examples reader): blank lines are skipped, a
// line that is not JSON or not a JSON object is reported and skipped, the others are handed
// on in order with their 1-based line number.
#include <fmt/core.h>
#include <simdjson.h>

#include <cstdint>
#include <string_view>

namespace symshape {

// on_object(line_no, simdjson::dom::object) for each object line; on_problem(line_no,
// message) for a line that is not one (`expected` ends "expected an object of ...").
template <class OnObject, class OnProblem>
void for_each_ndjson_object(std::string_view text, std::string_view expected, OnObject&& on_object,
                            OnProblem&& on_problem) {
  simdjson::dom::parser parser;
  uint64_t line_no = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    simdjson::dom::element doc;
    if (auto err = parser.parse(line.data(), line.size()).get(doc)) {
      on_problem(line_no, fmt::format("invalid JSON: {}", simdjson::error_message(err)));
      continue;
    }
    simdjson::dom::object obj;
    if (doc.get_object().get(obj)) {
      on_problem(line_no, fmt::format("expected an object of {}", expected));
      continue;
    }
    on_object(line_no, obj);
  }
}

}  // namespace symshape
