# Spec checking: check_spec per corpus graph (propagation + constraint phases + solver +
# suggested fixes), and loading a spec from JSON vs spec.fb.
symshape_bench(symshape_spec_bench
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/spec_bench.cpp
  DEPS symshape_spec_graph symshape_spec_fb)
