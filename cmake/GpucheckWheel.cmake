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
execute_process(COMMAND ${CMAKE_C_COMPILER} -O2 -fPIC -c ${CMAKE_SOURCE_DIR}/packaging/glibc_compat.c -o ${_compat}
                RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "GPUCHECK_WHEEL: cannot compile packaging/glibc_compat.c")
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

# A cold wheel build (pip from a clone: no ccache to help) parsed nlohmann/json, fmt and the standard
# library's headers again in every one of its ~300 sources: each target with several C++ sources compiles
# them once, as a precompiled header (packaging/wheel/precompiled.h), in units of 16 sources (a unity
# build), and scripts/wheel generates no debug information (the wheel's files are stripped). Only here: the
# main build keeps every source's own includes honest and its ccache hits. Measured in docs/wheel.md.
function(gpucheck_wheel_precompile_headers dir)
  get_property(_targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(_t IN LISTS _targets)
    get_target_property(_type ${_t} TYPE)
    if(NOT _type MATCHES "^(STATIC_LIBRARY|OBJECT_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|EXECUTABLE)$")
      continue()
    endif()
    get_target_property(_sources ${_t} SOURCES)
    list(FILTER _sources INCLUDE REGEX "\\.cpp$")
    list(LENGTH _sources _n)
    if(_n GREATER 2)  # the header costs about what three sources save
      target_precompile_headers(${_t} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${CMAKE_SOURCE_DIR}/packaging/wheel/precompiled.h>")
      # Sources compiled 16 to a unit: nlohmann::json's templates and the headers are compiled once per
      # unit instead of once per source. Needs file-local names unique within a library (helpers that two
      # files each defined live in core/text.h); a clash is a compile error of the wheel build only.
      set_target_properties(${_t} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE BATCH UNITY_BUILD_BATCH_SIZE 16)
    endif()
  endforeach()
  get_property(_subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(_d IN LISTS _subdirs)
    gpucheck_wheel_precompile_headers(${_d})
  endforeach()
endfunction()
