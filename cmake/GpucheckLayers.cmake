# The layering of src/ (docs/architecture.md), checked from the sources themselves: a file may include
# headers of its own layer and of layers ranked below it, never above or beside. Run at configure time by
# src/CMakeLists.txt, so a back-edge stops the build before anything compiles, and as a script by the
# layering test:  cmake -DSRC_DIR=<dir> -P cmake/GpucheckLayers.cmake
#
# Namespaces follow folders: a file in src/<layer>/ opens only gpucheck::<layer> (and namespaces nested in
# it); in src/checks/<family>/ only gpucheck::<family>; core/ is the root namespace gpucheck itself (and its
# nested helpers, gpucheck::measured), so every layer names core's vocabulary unqualified.
#
# Rank of each layer folder; equal ranks are siblings that must not include each other.
set(GPUCHECK_LAYER_RANKS
  core=0
  platform=1 probe=1 collectives=1 model=1
  knowledge=2
  inventory=3
  checks=4
  runner=5 envtools=5
  report=6
  render=7 commands=7
  cli=8)

# Layers that may include only the layers named here (and their own), whatever their rank: render shows a
# report and reads nothing but the model (and the inventory's own types, knowledge's version type), so
# `render -> checks`, `render -> report` (the builders) or `render -> runner` stops the configure.
set(GPUCHECK_LAYER_ONLY
  "render=core,model,inventory,knowledge")

function(_gpucheck_layer_rank layer out)
  set(rank "")
  foreach(pair ${GPUCHECK_LAYER_RANKS})
    string(REPLACE "=" ";" kv ${pair})
    list(GET kv 0 k)
    list(GET kv 1 v)
    if(k STREQUAL layer)
      set(rank ${v})
    endif()
  endforeach()
  set(${out} "${rank}" PARENT_SCOPE)
endfunction()

function(_gpucheck_layer_only layer out)
  set(only "")
  foreach(pair ${GPUCHECK_LAYER_ONLY})
    string(REPLACE "=" ";" kv ${pair})
    list(GET kv 0 k)
    list(GET kv 1 v)
    if(k STREQUAL layer)
      string(REPLACE "," ";" only "${v}")
    endif()
  endforeach()
  set(${out} "${only}" PARENT_SCOPE)
endfunction()

function(gpucheck_check_layers src_dir)
  get_filename_component(src_dir "${src_dir}" ABSOLUTE)
  file(GLOB_RECURSE files RELATIVE ${src_dir} ${src_dir}/*.h ${src_dir}/*.cpp ${src_dir}/*.cu ${src_dir}/*.c)
  set(violations "")
  foreach(rel ${files})
    string(REGEX MATCH "^[^/]+" layer "${rel}")
    _gpucheck_layer_rank(${layer} rank)
    if(rank STREQUAL "")
      list(APPEND violations "${rel}: folder '${layer}' is not a layer (add it to cmake/GpucheckLayers.cmake)")
      continue()
    endif()
    set(home ${layer})
    if(layer STREQUAL "checks")
      string(REGEX MATCH "^checks/([^/]+)/" _m "${rel}")
      set(home "${CMAKE_MATCH_1}")
    endif()
    file(STRINGS ${src_dir}/${rel} opened REGEX "^namespace gpucheck[ :{]")
    foreach(line ${opened})
      set(top "")
      if(line MATCHES "^namespace gpucheck::([A-Za-z0-9_]+)")
        set(top "${CMAKE_MATCH_1}")
      endif()
      if(layer STREQUAL "core")
        if(NOT top STREQUAL "" AND NOT top STREQUAL "measured")
          list(APPEND violations "${rel} opens namespace gpucheck::${top}: core/ is namespace gpucheck")
        endif()
      elseif(NOT top STREQUAL home)
        list(APPEND violations "${rel} opens namespace gpucheck::${top}: files in its folder are namespace gpucheck::${home}")
      endif()
    endforeach()
    file(STRINGS ${src_dir}/${rel} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line ${lines})
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\".*" "\\1" inc "${line}")
      if(NOT inc MATCHES "/")
        continue()  # a header beside the file
      endif()
      string(REGEX MATCH "^[^/]+" target "${inc}")
      if(target STREQUAL "gpucheck")
        set(target core)  # gpucheck/build_info.h, generated from core/build_info.h.in
      endif()
      _gpucheck_layer_rank(${target} target_rank)
      if(target_rank STREQUAL "" OR target STREQUAL layer)
        continue()  # not a layer header (a kernel's own folder), or the file's own layer
      endif()
      _gpucheck_layer_only(${layer} only)
      list(FIND only ${target} allowed)
      if(NOT target_rank LESS rank)
        list(APPEND violations "${rel} includes \"${inc}\": layer '${layer}' may not depend on '${target}'")
      elseif(only AND allowed EQUAL -1)
        list(APPEND violations "${rel} includes \"${inc}\": layer '${layer}' may depend only on ${only}")
      endif()
    endforeach()
  endforeach()
  if(violations)
    list(JOIN violations "\n  " text)
    message(FATAL_ERROR "layering of src/ broken (see docs/architecture.md):\n  ${text}")
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED SRC_DIR)
  gpucheck_check_layers(${SRC_DIR})
  message(STATUS "layering of ${SRC_DIR}: ok")
endif()
