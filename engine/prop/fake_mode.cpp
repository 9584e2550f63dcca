#include "prop/fake_mode.h"

namespace symshape {

FakeMode::FakeMode() : constants_(std::make_unique<ShapeEnv>()) {}
FakeMode::FakeMode(ShapeEnv& env) : env_(&env) {}
FakeMode::~FakeMode() = default;

}  // namespace symshape
