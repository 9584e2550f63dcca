#pragma once
// The FlatBuffers form of a dynamic_shapes spec (formats/spec.fbs) and reading a spec file in
// either form. Loading runs FlatBuffers' verifier, then checks the tree (child counts, key and
// Dim indices, Dim bounds) and rebuilds the spec through SpecBuilder, so a bad file is a
// UserError(INVALID_INPUT) naming the field, never a crash.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spec/dynamic_shapes.h"

namespace symshape {

std::vector<uint8_t> dump_spec_fb(const spec::DynamicShapes& spec);
spec::DynamicShapes load_spec_fb(const uint8_t* data, size_t size);
// A file holding the JSON form or the FlatBuffers form (told apart by the "SSPC" identifier).
spec::DynamicShapes load_spec_file(const std::string& path);
bool is_spec_fb(std::string_view bytes);

}  // namespace symshape
