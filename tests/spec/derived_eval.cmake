# `symshape eval --spec` with derived dims: the relation is a guard of the batch program, so
# an NDJSON example off the relation fails it and is rejected when traced (produce_guards'
# derived-equality message), while examples on it are served by the first specialisation.
# `dx + 1` (root used by x) and `2*r` (a phantom root: solved from z's size).
include(${CMAKE_CURRENT_LIST_DIR}/../cli_run.cmake)
function(expect pattern)
  if(NOT out MATCHES "${pattern}")
    message(FATAL_ERROR "expected /${pattern}/ in:\n${out}")
  endif()
endfunction()

run(0 eval ${DATA}/derived_cat.graph.json --examples ${DATA}/derived_cat.ndjson --spec ${DATA}/derived_cat.spec.json)
expect("specialization 0: first example 1, accepted 3 example\\(s\\)")
expect("L\\['y'\\]\\.size\\(\\)\\[0\\] == 1 \\+ L\\['x'\\]\\.size\\(\\)\\[0\\]")
expect("rejected: example 3: [^\n]*Expected input L\\['y'\\]\\.size\\(\\)\\[0\\] to be equal to dx \\+ 1, where dx = 4, but got 6")
expect("rejected: example 5: [^\n]*65 not in range \\[2, 64\\]")
expect("eval: examples=5 specializations=1 rejected=2")

# the scalar and SSE2 kernels (any x86-64): the phantom root is loaded as (size - 0) // 2 by the vector programs too
foreach(isa scalar sse2)
  run(0 eval ${DATA}/derived_view.graph.json --examples ${DATA}/derived_view.ndjson --spec ${DATA}/derived_view.spec.json --isa ${isa})
  expect("specialization 0: first example 1, accepted 3 example\\(s\\)")
  expect("L\\['z'\\]\\.size\\(\\)\\[0\\] == 2\\*r")
  expect("rejected: example 3: [^\n]*Expected input L\\['z'\\]\\.size\\(\\)\\[0\\] to be equal to 2\\*r, where r = 3, but got 7")
  expect("rejected: example 5: [^\n]*2 not in range \\[4, int_oo\\]")
  expect("eval: examples=5 specializations=1 rejected=2")
endforeach()

