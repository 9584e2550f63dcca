#pragma once
// An ExprArena that can be copied, so a ShapeEnv can be (PyTorch deep-copies ShapeEnvs to
// checkpoint and replay them). The arena itself keeps its nodes in blocks that never move
// and is not copyable; a copy replays the source's nodes in id order into a fresh arena.
// Ids are a topological order and every node is interned once, so the replay gives every
// node the same id and every symbol the same SymbolId: expressions held by the caller
// mean the same thing in both environments.
#include "expr/expr.h"

namespace symshape {

class CopyableArena : public ExprArena {
 public:
  CopyableArena() = default;
  CopyableArena(const CopyableArena& other) : ExprArena() { replay(other); }
  CopyableArena& operator=(const CopyableArena& other) {
    if (this != &other) {
      clear();
      replay(other);
    }
    return *this;
  }
  CopyableArena(CopyableArena&&) = default;
  CopyableArena& operator=(CopyableArena&&) = default;

 private:
  void replay(const ExprArena& other);
};

}  // namespace symshape
