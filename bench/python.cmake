# The C++ side of the Python bindings' guard-batch figures (python/bench/bench_guards.py
# times the same calls through Python): GuardBatch is plain C++, no Python needed.
symshape_bench(python_guard_bench
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/python_guard_bench.cpp ${PROJECT_SOURCE_DIR}/python/src/guard_batch.cpp
  DEPS symshape_batch symshape_conform symshape_formats fmt::fmt)
target_include_directories(python_guard_bench PRIVATE ${PROJECT_SOURCE_DIR}/python/src ${PROJECT_SOURCE_DIR}/formats)
