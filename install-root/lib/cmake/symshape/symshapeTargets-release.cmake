#----------------------------------------------------------------
# Generated CMake target import file for configuration "Release".
#----------------------------------------------------------------

# Commands may need to know the format version.
set(CMAKE_IMPORT_FILE_VERSION 1)

# Import target "symshape::symshape_core" for configuration "Release"
set_property(TARGET symshape::symshape_core APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(symshape::symshape_core PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "CXX"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libsymshape_core.a"
  )

list(APPEND _cmake_import_check_targets symshape::symshape_core )
list(APPEND _cmake_import_check_files_for_symshape::symshape_core "${_IMPORT_PREFIX}/lib/libsymshape_core.a" )

# Import target "symshape::symshape_expr" for configuration "Release"
set_property(TARGET symshape::symshape_expr APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(symshape::symshape_expr PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "CXX"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libsymshape_expr.a"
  )

list(APPEND _cmake_import_check_targets symshape::symshape_expr )
list(APPEND _cmake_import_check_files_for_symshape::symshape_expr "${_IMPORT_PREFIX}/lib/libsymshape_expr.a" )

# Import target "symshape::symshape_shape_env" for configuration "Release"
set_property(TARGET symshape::symshape_shape_env APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(symshape::symshape_shape_env PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "CXX"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libsymshape_shape_env.a"
  )

list(APPEND _cmake_import_check_targets symshape::symshape_shape_env )
list(APPEND _cmake_import_check_files_for_symshape::symshape_shape_env "${_IMPORT_PREFIX}/lib/libsymshape_shape_env.a" )

# Import target "symshape::symshape_graph" for configuration "Release"
set_property(TARGET symshape::symshape_graph APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(symshape::symshape_graph PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "CXX"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libsymshape_graph.a"
  )

list(APPEND _cmake_import_check_targets symshape::symshape_graph )
list(APPEND _cmake_import_check_files_for_symshape::symshape_graph "${_IMPORT_PREFIX}/lib/libsymshape_graph.a" )

# Import target "symshape::symshape_prop" for configuration "Release"
set_property(TARGET symshape::symshape_prop APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(symshape::symshape_prop PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "CXX"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libsymshape_prop.a"
  )

list(APPEND _cmake_import_check_targets symshape::symshape_prop )
list(APPEND _cmake_import_check_files_for_symshape::symshape_prop "${_IMPORT_PREFIX}/lib/libsymshape_prop.a" )

# Import target "symshape::symshape_conform" for configuration "Release"
set_property(TARGET symshape::symshape_conform APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(symshape::symshape_conform PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "CXX"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libsymshape_conform.a"
  )

list(APPEND _cmake_import_check_targets symshape::symshape_conform )
list(APPEND _cmake_import_check_files_for_symshape::symshape_conform "${_IMPORT_PREFIX}/lib/libsymshape_conform.a" )

# Import target "symshape::symshape_batch" for configuration "Release"
set_property(TARGET symshape::symshape_batch APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(symshape::symshape_batch PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "CXX"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libsymshape_batch.a"
  )

list(APPEND _cmake_import_check_targets symshape::symshape_batch )
list(APPEND _cmake_import_check_files_for_symshape::symshape_batch "${_IMPORT_PREFIX}/lib/libsymshape_batch.a" )

# Import target "symshape::symshape_corpus" for configuration "Release"
set_property(TARGET symshape::symshape_corpus APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(symshape::symshape_corpus PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "CXX"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libsymshape_corpus.a"
  )

list(APPEND _cmake_import_check_targets symshape::symshape_corpus )
list(APPEND _cmake_import_check_files_for_symshape::symshape_corpus "${_IMPORT_PREFIX}/lib/libsymshape_corpus.a" )

# Import target "symshape::symshape_api" for configuration "Release"
set_property(TARGET symshape::symshape_api APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(symshape::symshape_api PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "CXX"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libsymshape_api.a"
  )

list(APPEND _cmake_import_check_targets symshape::symshape_api )
list(APPEND _cmake_import_check_files_for_symshape::symshape_api "${_IMPORT_PREFIX}/lib/libsymshape_api.a" )

# Import target "symshape::symshape_formats" for configuration "Release"
set_property(TARGET symshape::symshape_formats APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(symshape::symshape_formats PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "CXX"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libsymshape_formats.a"
  )

list(APPEND _cmake_import_check_targets symshape::symshape_formats )
list(APPEND _cmake_import_check_files_for_symshape::symshape_formats "${_IMPORT_PREFIX}/lib/libsymshape_formats.a" )

# Commands beyond this point should not need to know the version.
set(CMAKE_IMPORT_FILE_VERSION)
