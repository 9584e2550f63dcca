# Corpus benchmark: `symshape corpus` work over 2,200 graphs (the visible corpus packed
# and loaded repeatedly), at 1 and 2 threads.
symshape_bench(symshape_corpus_bench
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/corpus_bench.cpp
  DEPS symshape_corpus symshape_formats symshape_graph)
