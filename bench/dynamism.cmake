# Dynamism across examples: reading NDJSON examples, tracking them, and the spec suggestion
# (rounds of spec check + the verifying example stream) per corpus graph.
symshape_bench(symshape_dynamism_bench
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/dynamism_bench.cpp
  DEPS symshape_dynamism)
