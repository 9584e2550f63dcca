#pragma once
// Interned strings of one graph: names, get_attr targets, string ARGs, error texts and
// symbol names. All bytes live in one buffer; an open-addressing table maps a string to
// its StrId, so each distinct string is stored once and compared by id afterwards.
// Not thread-safe: one pool belongs to one graph, built by one loader.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "graph/ids.h"

namespace symshape {

class StringPool {
 public:
  StrId intern(std::string_view s);
  StrId find(std::string_view s) const;  // none if absent
  std::string_view get(StrId id) const {
    return {chars_.data() + offsets_[id.index()], offsets_[id.index() + 1] - offsets_[id.index()]};
  }
  uint32_t size() const { return static_cast<uint32_t>(offsets_.size() - 1); }
  bool contains(StrId id) const { return id.valid() && id.index() < size(); }
  uint64_t byte_size() const { return chars_.size(); }
  void reserve(uint32_t strings, uint64_t bytes);
  void clear();

 private:
  static uint64_t hash(std::string_view s);
  void grow();

  std::vector<char> chars_;
  std::vector<uint32_t> offsets_{0};  // size() + 1 entries; string i is [offsets_[i], offsets_[i+1])
  std::vector<uint32_t> hashes_;      // low 32 bits of each string's hash: cheap probe rejection
  std::vector<uint32_t> slots_;       // StrId + 1, 0 = empty; power-of-two size
};

}  // namespace symshape
