# Guard-program evaluation: clause evaluations per second and examples per second for the
# visible corpus graphs' guard sets, per instruction set and at 1 vs 2 threads.
symshape_bench(symshape_batch_bench
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/batch_bench.cpp
  DEPS symshape_batch symshape_conform TBB::tbb)
