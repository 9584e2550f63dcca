#pragma once
// Whole-or-nothing output files: the bytes go to a temporary file next to the target,
// which is then renamed over it, so a reader (or a crash) never sees half a file.
#include <cstddef>
#include <cstdint>
#include <string>

namespace symshape {

bool write_file_atomically(const std::string& path, const void* data, size_t size, std::string& error);

}  // namespace symshape
