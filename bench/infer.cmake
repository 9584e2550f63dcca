# Shape inference: the trace/solve loop alone and with the derived spec (spec check + probing).
symshape_bench(symshape_infer_bench
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/infer_bench.cpp
  DEPS symshape_infer)
