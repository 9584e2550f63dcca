#pragma once
// semantics.md G.2 (`track_dynamism_across_examples`) as flat tables: one row per key path
// (its source name `L['x']`, `L['b'][0]`, `L['self']['_modules']['y']['x']`, in first-seen
// order), one row per (path, position) with the first value seen there and whether another
// value was seen since, and every observation (position, example, value) for the spec
// suggestion. Tensors contribute their sizes, ints / bools / floats the one-element tuple
// (v,); strings, None, modules that are not the top-level "self" and empty containers
// contribute nothing.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "dynamism/example_values.h"

namespace symshape::dynamism {

// A tracked value as Python's set compares it: ints and floats are equal when numerically
// equal (1 == 1.0 == True).
struct Scalar {
  int64_t i = 0;     // the value when !is_float
  double f = 0.0;    // the value when is_float
  bool is_float = false;
};
bool same_value(const Scalar& a, const Scalar& b);

struct DynamismTable {
  // Paths (first-seen order).
  std::vector<std::string> path_name;  // "L['x']"
  std::vector<uint32_t> path_arg;      // index into arg_name: the path's first key
  std::vector<uint8_t> path_tensor;    // a tensor when first seen (a number otherwise)
  std::vector<uint32_t> path_rank;     // positions seen so far (grows, never shrinks)
  std::vector<std::string> arg_name;   // first keys, in the order their first path appeared

  // Positions: one row per (path, index), appended when first seen.
  std::vector<uint32_t> pos_path, pos_index;
  std::vector<Scalar> pos_first;
  std::vector<uint8_t> pos_varies;

  // Observations, in example order.
  std::vector<uint32_t> obs_pos, obs_example;
  std::vector<Scalar> obs_value;

  uint32_t num_examples = 0;

  size_t num_paths() const { return path_name.size(); }
  // Row of (path, index), or -1.
  int64_t position(uint32_t path, uint32_t index) const;
  int64_t find_path(std::string_view name) const;
  // G.2's result for one path: one flag per position, in index order.
  std::vector<bool> varies(uint32_t path) const;

  // Building (used by track_dynamism).
  uint32_t path_id(const std::string& name, std::string_view arg, bool tensor);
  void observe(uint32_t path, uint32_t index, uint32_t example, const Scalar& v);

 private:
  std::unordered_map<std::string, uint32_t> path_ids_;
  std::unordered_map<uint64_t, uint32_t> pos_ids_;
};

// Tracks every example of `set` (G.2). The set is not modified: "self" modules are
// converted in a copy (module_dict.h).
DynamismTable track_dynamism(const ExampleSet& set);

// G.2's output as JSON: {"x": {"L['x']": [true]}, ...} (Python prints tuples; JSON has
// lists); the text is in json.dumps' layout.
nlohmann::ordered_json dynamism_object(const DynamismTable& t);
std::string dynamism_json(const DynamismTable& t);

// G.4: every `.identifier` becomes `['identifier']` (`L.self.x` -> `L['self']['x']`; method
// names too: `.size` -> `['size']`).
std::string normalize_source_name(std::string_view name);

}  // namespace symshape::dynamism
