# A probe's id and title are written once, in its probe.json; this file reads them for the build
# (gpucheck_add_probe in GpucheckLayout.cmake), so a bad manifest stops the configure step with the file's
# name instead of surfacing as a mismatch at run time. Also runs as a script, for the tests:
#   cmake -DMANIFEST=<probe.json> -P cmake/GpucheckProbeManifest.cmake
#
# The id names the probe's executable and its staged manifest: dot-separated words of [a-z0-9_], at least
# two ("device.runtime").
set(GPUCHECK_PROBE_ID_REGEX "^[a-z0-9_]+(\\.[a-z0-9_]+)+$")

# Stops with the reason on an indented line of its own, which CMake prints unwrapped (one greppable line).
function(_gpucheck_manifest_error manifest)
  list(JOIN ARGN "" reason)
  message(FATAL_ERROR "a probe's id and title come from its manifest, and this one is unusable:\n"
                      "  probe manifest ${manifest}: ${reason}")
endfunction()

# gpucheck_read_probe_manifest(<manifest> <id_var> <title_var>)
# Sets <id_var> and <title_var> from the manifest's "id" and "title"; a file that cannot be read, is not
# JSON, lacks either string or has an id outside GPUCHECK_PROBE_ID_REGEX is a FATAL_ERROR naming the file.
function(gpucheck_read_probe_manifest manifest id_var title_var)
  if(NOT EXISTS "${manifest}")
    _gpucheck_manifest_error("${manifest}" "no such file")
  endif()
  file(READ "${manifest}" json)
  string(JSON members ERROR_VARIABLE err LENGTH "${json}")  # fails unless an object or array
  if(err)
    _gpucheck_manifest_error("${manifest}" "not a JSON object (${err})")
  endif()
  foreach(key id title)
    string(JSON type ERROR_VARIABLE err TYPE "${json}" ${key})
    if(err)
      _gpucheck_manifest_error("${manifest}" "no \"${key}\" (${err})")
    endif()
    if(NOT type STREQUAL "STRING")
      _gpucheck_manifest_error("${manifest}" "\"${key}\" must be a string, not ${type}")
    endif()
    string(JSON value GET "${json}" ${key})
    if(value STREQUAL "")
      _gpucheck_manifest_error("${manifest}" "\"${key}\" is empty")
    endif()
    set(${key} "${value}")
  endforeach()
  if(NOT id MATCHES "${GPUCHECK_PROBE_ID_REGEX}")
    _gpucheck_manifest_error("${manifest}" "id '${id}' does not match ${GPUCHECK_PROBE_ID_REGEX}"
                             " (lower-case words of [a-z0-9_] joined by dots, e.g. device.runtime)")
  endif()
  set(${id_var} "${id}" PARENT_SCOPE)
  set(${title_var} "${title}" PARENT_SCOPE)
endfunction()

# gpucheck_c_string(<text> <var>): <text> as the body of a C string literal, for passing a title as a
# compile definition: backslashes, quotes and newlines escaped, and ';' written as \073 because a ';' would
# split the definition in two (CMake properties are ;-lists).
function(gpucheck_c_string text var)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  string(REPLACE "\n" "\\n" text "${text}")
  string(REPLACE ";" "\\073" text "${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED MANIFEST)
  gpucheck_read_probe_manifest("${MANIFEST}" id title)
  message(STATUS "probe manifest ${MANIFEST}: id ${id}, title ${title}")
endif()
