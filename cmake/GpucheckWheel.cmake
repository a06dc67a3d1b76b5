# The wheel build (scripts/wheel, GPUCHECK_WHEEL=ON): files that load on glibc 2.28 (manylinux_2_28).
# GCC compiles as in every build (one ccache); packaging/wheel/link links every executable and module with
# zig against glibc 2.28's symbol versions, with libstdc++ and the unwinder linked in statically, and the
# libraries a manylinux system lacks (libelf, zlib, libcrypto, RE2, fmt, CUDA's runtime) are static too
# (src/CMakeLists.txt, probes/collectives_nccl). NCCL stays the node's (libnccl.so.2, as in the bundle).
if(NOT GPUCHECK_WHEEL_ZIG OR NOT EXISTS "${GPUCHECK_WHEEL_ZIG}")
  message(FATAL_ERROR "GPUCHECK_WHEEL=ON needs GPUCHECK_WHEEL_ZIG, the zig executable (scripts/wheel installs "
                      "the ziglang wheel and passes it)")
endif()
execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libstdc++.a OUTPUT_VARIABLE _libstdcxx
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT IS_ABSOLUTE "${_libstdcxx}" OR NOT EXISTS "${_libstdcxx}")
  message(FATAL_ERROR "GPUCHECK_WHEEL: ${CMAKE_CXX_COMPILER} has no libstdc++.a (Debian: libstdc++-12-dev)")
endif()
set(_compat ${CMAKE_BINARY_DIR}/wheel/glibc_compat.o)
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/wheel)
execute_process(COMMAND ${CMAKE_C_COMPILER} -O2 -fPIC -c ${CMAKE_SOURCE_DIR}/packaging/wheel/glibc_compat.c -o ${_compat}
                RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "GPUCHECK_WHEEL: cannot compile packaging/wheel/glibc_compat.c")
endif()
set(_link "${CMAKE_SOURCE_DIR}/packaging/wheel/link ${GPUCHECK_WHEEL_ZIG} ${_compat} ${_libstdcxx} --")

foreach(lang C CXX)
  set(CMAKE_${lang}_LINK_EXECUTABLE
      "${_link} <FLAGS> <CMAKE_${lang}_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
  set(CMAKE_${lang}_CREATE_SHARED_MODULE
      "${_link} <CMAKE_SHARED_MODULE_${lang}_FLAGS> <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> <CMAKE_SHARED_MODULE_CREATE_${lang}_FLAGS> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
  set(CMAKE_${lang}_CREATE_SHARED_LIBRARY
      "${_link} <CMAKE_SHARED_LIBRARY_${lang}_FLAGS> <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> <CMAKE_SHARED_LIBRARY_CREATE_${lang}_FLAGS> <SONAME_FLAG><TARGET_SONAME> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
endforeach()
if(CMAKE_CUDA_COMPILER)
  # CUDA executables are linked by the host compiler driver (CMake's CUDA rule keeps its implicit cudart).
  set(CMAKE_CUDA_HOST_LINK_LAUNCHER "${_link}")
endif()
message(STATUS "gpucheck: wheel build, linked for glibc 2.28 by ${GPUCHECK_WHEEL_ZIG}")
