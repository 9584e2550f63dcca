#include "corpus/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace symshape {

bool write_file_atomically(const std::string& path, const void* data, size_t size, std::string& error) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  // mkstemp in the target's folder: rename() is atomic only within one file system
  fs::path tmp_path = target.parent_path();
  tmp_path /= target.filename();
  tmp_path += ".tmpXXXXXX";
  std::string tmp = tmp_path.string();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) {
    error = std::string("cannot create a temporary file next to it: ") + std::strerror(errno);
    return false;
  }
  ::fchmod(fd, 0644);
  const auto* p = static_cast<const uint8_t*>(data);
  size_t left = size;
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = std::string("write failed: ") + std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      return false;
    }
    p += n;
    left -= size_t(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    error = std::string("write failed: ") + std::strerror(errno);
    ::unlink(tmp.c_str());
    return false;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    error = std::string("cannot rename the temporary file into place: ") + std::strerror(errno);
    ::unlink(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace symshape
