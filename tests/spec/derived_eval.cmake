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
expect("specialization 0: first example 0 \\(line 1\\), accepted 3 example\\(s\\)")
expect("L\\['y'\\]\\.size\\(\\)\\[0\\] == 1 \\+ L\\['x'\\]\\.size\\(\\)\\[0\\]")
# messages at the example's sizes (docs/torchref.md, "Rejection messages"): the op eager fails at,
# then the exported program's input check (torch/_export/utils.py) that 2.x raises first
expect("rejected: example 2 \\(line 3\\): a: a \\(aten.add.Tensor\\): The size of tensor a \\(4\\) must match the size of tensor b \\(5\\) at non-singleton dimension 0; the exported program rejects it first: Expected input at \\*args\\[1\\]\\.shape\\[0\\] to be equal to 5, but got 6")
expect("rejected: example 4 \\(line 5\\): x: x \\(x\\): Expected input at \\*args\\[0\\]\\.shape\\[0\\] to be <= 64, but got 65")
expect("eval: examples=5 specializations=1 rejected=2")

# the scalar and SSE2 kernels (any x86-64): the phantom root is loaded as (size - 0) // 2 by the vector programs too
foreach(isa scalar sse2)
  run(0 eval ${DATA}/derived_view.graph.json --examples ${DATA}/derived_view.ndjson --spec ${DATA}/derived_view.spec.json --isa ${isa})
  expect("specialization 0: first example 0 \\(line 1\\), accepted 3 example\\(s\\)")
  expect("L\\['z'\\]\\.size\\(\\)\\[0\\] == 2\\*r")
  expect("rejected: example 2 \\(line 3\\): v: v \\(aten.view.default\\): shape '\\[-1, 2\\]' is invalid for input of size 7; the exported program rejects it first: Expected input \\*args\\[0\\]\\.shape\\[0\\] = 7 to be of the form 2\\*r, where r is an integer")
  expect("rejected: example 4 \\(line 5\\): z: z \\(z\\): Expected input at \\*args\\[0\\]\\.shape\\[0\\] to be >= 4, but got 2")
  expect("eval: examples=5 specializations=1 rejected=2")
endforeach()

