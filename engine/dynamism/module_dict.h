#pragma once
// semantics.md G.3 (`module_to_nested_dict`): an nn.Module description becomes a dict
//   "_parameters": its own parameters, then its buffers, by name (None entries skipped),
//   "_modules":    each direct child converted the same way,
//   then every public attribute (name not starting with `_`) whose value is an int, a float
//   or a tensor (not a bool, not a module), parameters and buffers included, in dir()'s
//   sorted order.
// The JSON module form (example_json.h) lists the attributes that dir() would show besides
// parameters, buffers and children; callables cannot be written in JSON, so none is listed.
#include "dynamism/example_values.h"

namespace symshape::dynamism {

// G.2 step 1: in every example whose top-level "self" is a module, that module is replaced
// by its nested-dict form. PyTorch does this in the caller's dicts (behaviour 208); here it
// is this explicit in-place rewrite of the set, which track_dynamism applies to its copy.
// Modules anywhere else stay opaque leaves (pytree does not look into them).
// Returns the number of modules converted.
size_t replace_self_modules(ExampleSet& set);

}  // namespace symshape::dynamism
