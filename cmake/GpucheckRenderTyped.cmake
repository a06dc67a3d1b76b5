# render/ shows a report by the type of its details (model/details.h), never by its command's name, and
# reads a command's own fields only through model/'s typed structs, never by key from the untyped JSON.
# This script refuses, in every file of <SRC_DIR>/render (comment lines left out):
#   - a comparison with a command name: `== "doctor"`, `!= "compare"`, `meta.command ==`, or the name
#     copied into a variable to compare later (`= r.meta.command;`);
#   - a keyed read of details: `details.value(`, `.find(`, `.contains(`, `.at(`, `.count(`, `details[`,
#     or a helper given details and a key (`text_at(f.details, "x")`).
# Run by the test layers.render_reads_typed_*:  cmake -DSRC_DIR=<dir> -P cmake/GpucheckRenderTyped.cmake
set(_commands "run|doctor|explain|abi|env|list|version|use-cuda|modulefiles|fleet|compare|diff|bench|completion|man|selftest|report")
set(_by_name "[!=]=[ \t]*\"(${_commands})\"|meta\\.command[ \t]*[!=]=|=[ \t]*[A-Za-z_.>-]*meta\\.command[ \t]*;")
set(_by_key "details[ \t]*(\\.|->)[ \t]*(value|find|contains|at|count)[ \t]*\\(|details[ \t]*\\[|details[ \t]*,[ \t]*\"")

file(GLOB _files ${SRC_DIR}/render/*.cpp ${SRC_DIR}/render/*.h)
set(_refused 0)
set(_names 0)
set(_keys 0)
foreach(_f ${_files})
  file(STRINGS ${_f} _lines)
  file(RELATIVE_PATH _rel ${SRC_DIR} ${_f})
  set(_n 0)
  foreach(_line IN LISTS _lines)
    math(EXPR _n "${_n} + 1")
    if(_line MATCHES "^[ \t]*//")
      continue()
    endif()
    if(_line MATCHES "${_by_name}")
      message(STATUS "${_rel}:${_n}: picks by the command's name (${CMAKE_MATCH_0}): read model::details_of()'s type")
      math(EXPR _names "${_names} + 1")
    endif()
    if(_line MATCHES "${_by_key}")
      message(STATUS "${_rel}:${_n}: reads details by key (${CMAKE_MATCH_0}): read model/'s typed struct")
      math(EXPR _keys "${_keys} + 1")
    endif()
  endforeach()
endforeach()
if(_names OR _keys)
  message(FATAL_ERROR "render/ of ${SRC_DIR}: ${_names} comparison(s) with a command name, ${_keys} keyed read(s) of details")
endif()
message(STATUS "render/ of ${SRC_DIR} reads typed details: ok")
