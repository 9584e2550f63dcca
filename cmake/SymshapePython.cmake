# The `symshape` Python module (python/): built when pybind11 and Python's development
# files are found, for Debian's /usr/bin/python3 unless -DPython3_EXECUTABLE says otherwise
# (the python3 first on PATH may be another interpreter without Debian's packages).
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3)
endif()
find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
if(Python3_FOUND)
  find_package(pybind11 CONFIG QUIET)
endif()
set(_symshape_python_default OFF)
if(Python3_FOUND AND pybind11_FOUND)
  set(_symshape_python_default ON)
endif()
# A sanitized extension cannot be imported by an uninstrumented interpreter (the ASan
# runtime must come first): sanitizer and fuzzing builds leave the module out.
if(SYMSHAPE_SANITIZE OR SYMSHAPE_FUZZ)
  set(_symshape_python_default OFF)
endif()
option(SYMSHAPE_PYTHON "Build the symshape Python module (pybind11)" ${_symshape_python_default})
if(SYMSHAPE_PYTHON)
  add_subdirectory(python)
endif()
