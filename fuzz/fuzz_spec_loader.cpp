// libFuzzer target: the dynamic_shapes spec loaders (DynamicShapesSpec JSON, spec.fb) and
// the dynamism NDJSON examples reader on untrusted bytes. The first byte picks the reader,
// so mutations explore each. An accepted spec must dump to JSON and to spec.fb and read
// back equal, with the same JSON text (identical specs give identical text).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "dynamism/example_json.h"
#include "formats/spec_fb.h"
#include "fuzz_check.h"
#include "spec/spec_json.h"

using namespace symshape;

namespace {

void roundtrip(const spec::DynamicShapes& s) {
  const std::string text = spec::dump_spec_json(s);
  spec::DynamicShapes from_json;
  try {
    from_json = spec::load_spec_json(text);
  } catch (const Error& e) {
    fuzz::violation("dumped spec JSON does not load", std::string(e.what()) + "\n" + text);
  }
  if (!(from_json == s) || spec::dump_spec_json(from_json) != text) fuzz::violation("spec JSON round trip", text);
  const std::vector<uint8_t> fb = dump_spec_fb(s);
  spec::DynamicShapes from_fb;
  try {
    from_fb = load_spec_fb(fb.data(), fb.size());
  } catch (const Error& e) {
    fuzz::violation("dumped spec.fb does not load", e.what());
  }
  if (!(from_fb == s)) fuzz::violation("spec.fb round trip", text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0] % 3;
  ++data, --size;
  if (mode == 2) {
    dynamism::ExampleSet set;
    Diagnostics problems;
    dynamism::read_examples_ndjson(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.ndjson", set,
                                   problems);
    return 0;
  }
  try {
    if (mode == 1) {
      // aligned copy: FlatBuffers' verifier checks alignment
      std::vector<uint64_t> aligned((size + 7) / 8 + 1);
      std::memcpy(aligned.data(), data, size);
      roundtrip(load_spec_fb(reinterpret_cast<const uint8_t*>(aligned.data()), size));
    } else {
      roundtrip(spec::load_spec_json(std::string_view(reinterpret_cast<const char*>(data), size)));
    }
  } catch (const Error&) {
    // a rejected input: what the loaders must do with bad bytes
  }
  return 0;
}
