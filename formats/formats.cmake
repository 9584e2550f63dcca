# FlatBuffers schemas -> ${PROJECT_BINARY_DIR}/generated/*_generated.h (flatc --cpp), and
# symshape_formats: mmap + verified loaders/writers for graph, corpus, example-set and
# results files.
find_program(FLATC_EXECUTABLE flatc REQUIRED)
set(_fb_out ${PROJECT_BINARY_DIR}/generated)
set(_fb_schemas graph_data graph corpus examples results spec)
set(_fb_headers)
foreach(schema ${_fb_schemas})
  set(_src ${CMAKE_CURRENT_SOURCE_DIR}/${schema}.fbs)
  set(_hdr ${_fb_out}/${schema}_generated.h)
  add_custom_command(
    OUTPUT ${_hdr}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${_fb_out}
    COMMAND ${FLATC_EXECUTABLE} --cpp --scoped-enums -I ${CMAKE_CURRENT_SOURCE_DIR} -o ${_fb_out} ${_src}
    DEPENDS ${_src} ${CMAKE_CURRENT_SOURCE_DIR}/graph_data.fbs
    COMMENT "flatc --cpp ${schema}.fbs"
    VERBATIM)
  list(APPEND _fb_headers ${_hdr})
endforeach()
add_custom_target(symshape_fb_headers DEPENDS ${_fb_headers})

symshape_library(symshape_formats
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/mapped_file.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/fb_kind.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/graph_fb_writer.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/graph_fb_reader.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/graph_io.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/example_set.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/results_fb.cpp
    ${_fb_headers}
  DEPS symshape_graph flatbuffers::flatbuffers simdjson::simdjson fmt::fmt TBB::tbb)
add_dependencies(symshape_formats symshape_fb_headers)
# Headers of this library are included as "formats/...".
target_include_directories(symshape_formats PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>)

# Dynamic-shape specs as spec.fb (spec.fbs), and spec files in JSON or FlatBuffers form.
symshape_library(symshape_spec_fb
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/spec_fb.cpp ${_fb_out}/spec_generated.h
  DEPS symshape_spec flatbuffers::flatbuffers fmt::fmt)
add_dependencies(symshape_spec_fb symshape_fb_headers)
target_include_directories(symshape_spec_fb PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>)
