# Sourced by the setup, build and test scripts: Debian's toolchain first on PATH. Machines of
# the python-native kind put pyenv's shims first, whose `cmake` is pip's CMake 4.x (it refuses
# Debian pybind11 2.10's classic Python lookup) and whose `python3` lacks Debian's packages.
export PATH="/usr/bin:/bin:/usr/sbin:/sbin:$PATH"
