# Configures tests/probes/project (one probe added by the real gpucheck_add_probe) with one manifest and
# checks the outcome:
#   EXPECT=refused: configure fails, and its error names the manifest and matches MESSAGE (a regex);
#   EXPECT=built:   configure, build and run succeed, the target is probe_<id with _>, and the executable
#                   prints the manifest's id and title exactly (what GPUCHECK_PROBE_ID/TITLE carried).
# cmake -DGPUCHECK_SOURCE_DIR=... -DWORK_DIR=... -DMANIFEST=... -DEXPECT=... [-DMESSAGE=...]
#       -DGENERATOR=... -DCXX_COMPILER=... -P check_probe_fixture.cmake
cmake_minimum_required(VERSION 3.25)
foreach(v GPUCHECK_SOURCE_DIR WORK_DIR MANIFEST EXPECT GENERATOR CXX_COMPILER)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "check_probe_fixture.cmake: -D${v}=... missing")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR}/project -B ${WORK_DIR} -G ${GENERATOR}
          -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DGPUCHECK_SOURCE_DIR=${GPUCHECK_SOURCE_DIR} -DMANIFEST=${MANIFEST}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)

if(EXPECT STREQUAL "refused")
  if(rc EQUAL 0)
    message(FATAL_ERROR "configure accepted ${MANIFEST}:\n${out}")
  endif()
  string(FIND "${err}" "probe manifest ${MANIFEST}:" at)
  if(at EQUAL -1 OR NOT err MATCHES "${MESSAGE}")
    message(FATAL_ERROR "configure failed without naming ${MANIFEST} or saying '${MESSAGE}':\n${err}")
  endif()
  message(STATUS "configure refused ${MANIFEST} as expected")
  return()
endif()

if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configure failed for ${MANIFEST}:\n${out}\n${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "build failed for ${MANIFEST}:\n${out}\n${err}")
endif()
file(STRINGS ${WORK_DIR}/probe_target.txt target_and_file)
list(GET target_and_file 0 target)
list(GET target_and_file 1 executable)
file(READ ${MANIFEST} json)
string(JSON id GET "${json}" id)
string(JSON title GET "${json}" title)
string(REPLACE "." "_" want_target "probe_${id}")
if(NOT target STREQUAL want_target)
  message(FATAL_ERROR "target ${target}, expected ${want_target}")
endif()
get_filename_component(name ${executable} NAME)
if(NOT name STREQUAL id)
  message(FATAL_ERROR "executable ${executable} is not named after the id ${id}")
endif()
execute_process(COMMAND ${executable} RESULT_VARIABLE rc OUTPUT_VARIABLE printed)
if(NOT rc EQUAL 0 OR NOT printed STREQUAL "${id}\n${title}\n")
  message(FATAL_ERROR "${executable} printed (rc ${rc}):\n${printed}\nexpected:\n${id}\n${title}")
endif()
message(STATUS "built ${target} (${executable}): id and title as in ${MANIFEST}")
