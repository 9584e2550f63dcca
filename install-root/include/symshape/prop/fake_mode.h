#pragma once
// A fake-tensor mode (semantics.md D.2): symbolic when it holds a ShapeEnv (converted
// inputs get symbolic sizes, data-dependent ops make unbacked symbols), static otherwise
// (every size concrete; data-dependent ops raise). FakeTensorProp runs graphs under one.
#include <cstdint>
#include <memory>

#include "shape_env/shape_env.h"

namespace symshape {

class FakeMode {
 public:
  FakeMode();                        // static: FakeTensorMode() without a ShapeEnv
  explicit FakeMode(ShapeEnv& env);  // symbolic over `env` (not owned)
  FakeMode(const FakeMode&) = delete;
  FakeMode& operator=(const FakeMode&) = delete;
  ~FakeMode();

  ShapeEnv* shape_env() const { return env_; }
  bool is_static() const { return env_ == nullptr; }
  // What propagation computes in: the mode's ShapeEnv, or for a static mode a private one
  // that only ever holds constants (the engine spells every size as an ExprId).
  ShapeEnv& env() { return env_ ? *env_ : *constants_; }

  // Whether nonzero & co. may return unbacked sizes / item() an unbacked scalar.
  bool dynamic_output_shapes_allowed() const {
    return env_ && env_->settings().allow_dynamic_output_shape_ops && allow_dynamic_output_shape_ops;
  }
  bool scalar_outputs_allowed() const {
    return env_ && (env_->settings().allow_scalar_outputs || allow_scalar_outputs);
  }

  // FakeTensorMode(allow_dynamic_output_shape_ops=True, allow_scalar_outputs=False).
  bool allow_dynamic_output_shape_ops = true;
  bool allow_scalar_outputs = false;
  // Bumped by every FakeTensorProp made on this mode, so data-dependent results memoised
  // in an earlier epoch are not reused (the engine's memos live in one propagation's
  // values, so they never outlive their epoch).
  uint64_t epoch = 0;

 private:
  ShapeEnv* env_ = nullptr;
  std::unique_ptr<ShapeEnv> constants_;
};

}  // namespace symshape
