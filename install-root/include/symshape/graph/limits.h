#pragma once
// Sanity limits for untrusted input. They bound memory and time so that an absurd file
// is rejected with a clear error instead of exhausting the machine; real model graphs
// are orders of magnitude below every one of them (largest visible: ~2k nodes, 1 MB).
#include <cstdint>

namespace symshape {

struct GraphLimits {
  uint64_t max_file_bytes = uint64_t(1) << 30;      // 1 GiB
  uint32_t max_json_depth = 128;                    // JSON nesting, checked by the parser
  uint32_t max_list_depth = 32;                     // nested ARG / VALUE lists
  uint32_t max_nodes = 4'000'000;
  uint32_t max_list_items = 1'000'000;              // items of one ARG/VALUE list
  uint32_t max_rank = 64;                           // tensor rank (PyTorch's own cap is 64)
  uint64_t max_attr_data = uint64_t(1) << 24;       // elements of one get_attr `data`
  uint32_t max_examples = 100'000;
  uint64_t max_golden_cells = uint64_t(1) << 25;    // examples x nodes: dense goldens and inputs
  uint32_t max_string_bytes = 1 << 20;              // one string (error texts are long)
  uint32_t max_name_bytes = 1024;                   // node/op/symbol names
};

}  // namespace symshape
