#pragma once
// Python's str()/repr() of JSON values as json.loads returns them, for error messages that
// quote the offending value the way PyTorch does (`got dx: None`, `dict_keys(['min'])`).
#include <simdjson.h>

#include <string>

namespace symshape::spec {

std::string py_text(simdjson::dom::element e, bool repr);  // repr: strings quoted 'x'
std::string py_type(simdjson::dom::element e);             // "<class 'list'>"
std::string py_dict_keys(simdjson::dom::object o);         // "dict_keys(['a', 'b'])"

}  // namespace symshape::spec
