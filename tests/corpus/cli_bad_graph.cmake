# One truncated graph among good ones: `symshape corpus` names the bad file, still runs
# the others, exits non-zero, and writes results holding both.
file(REMOVE_RECURSE ${WORK}/mixed)
file(MAKE_DIRECTORY ${WORK}/mixed)
file(READ ${SAMPLES}/zoo_conv.graph.json good)
file(WRITE ${WORK}/mixed/a_good.graph.json "${good}")
string(SUBSTRING "${good}" 0 500 truncated)
file(WRITE ${WORK}/mixed/b_truncated.graph.json "${truncated}")
execute_process(COMMAND ${CLI} corpus ${WORK}/mixed --out ${WORK}/mixed/results.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "corpus exited 0 with a truncated file")
endif()
if(NOT err MATCHES "b_truncated.graph.json")
  message(FATAL_ERROR "the error does not name the bad file: ${err}")
endif()
if(NOT out MATCHES "corpus: graphs=2 nodes=[0-9]+ failed=1 seconds=")
  message(FATAL_ERROR "unexpected summary: ${out}")
endif()
file(READ ${WORK}/mixed/results.json results)
if(NOT results MATCHES "\"status\": \"ok\"" OR NOT results MATCHES "\"status\": \"load_error\"")
  message(FATAL_ERROR "results do not hold the good and the bad graph: ${results}")
endif()
# a results file that cannot be written is an error, and nothing is left behind
execute_process(COMMAND ${CLI} corpus ${WORK}/mixed/a_good.graph.json --out ${WORK}/mixed/no/such/dir/r.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "no/such/dir/r.json")
  message(FATAL_ERROR "an unwritable --out was not reported: ${rc} ${err}")
endif()
