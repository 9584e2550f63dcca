# Shared by the CLI ctest scripts (cmake -P): `run(EXPECTED_EXIT ARGS...)` runs
# ${SYMSHAPE} ARGS, fails the test unless it exits EXPECTED_EXIT, and leaves its stdout and
# stderr in `out` and `err` for the caller's checks.
function(run expect_rc)
  execute_process(COMMAND ${SYMSHAPE} ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL expect_rc)
    message(FATAL_ERROR "symshape ${ARGN}: exit ${rc}, expected ${expect_rc}\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()
