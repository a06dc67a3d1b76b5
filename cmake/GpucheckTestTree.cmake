# tests/ mirrors the tree it tests: tests/<x> tests src/<x> (tests/checks/<c> tests src/checks/<c>) or a
# top-level folder (kernels/, probes/); the other folders are lanes that cross folders, named below. A test
# source is <subject>_test.cpp. Run at configure time (tests/CMakeLists.txt), so the mirror cannot drift again,
# and as a script over fixture trees (tests/layers):  cmake -DSOURCE_DIR=<root> -P GpucheckTestTree.cmake
if(CMAKE_SCRIPT_MODE_FILE)
  cmake_policy(VERSION 3.25)  # IN_LIST when run as a script; a configure run has the project's policies
endif()
set(GPUCHECK_TEST_LANES bundle data fuzz hardening hostsim layers slurm support training wheel)

function(gpucheck_check_test_tree root)
  set(tests ${root}/tests)
  file(GLOB entries LIST_DIRECTORIES true RELATIVE ${tests} ${tests}/*)
  foreach(name ${entries})
    if(NOT IS_DIRECTORY ${tests}/${name} OR name IN_LIST GPUCHECK_TEST_LANES)
      continue()
    endif()
    if(NOT IS_DIRECTORY ${root}/src/${name} AND NOT IS_DIRECTORY ${root}/${name})
      message(FATAL_ERROR "tests/${name}: no src/${name} or ${name}/ to mirror; move it under the folder it "
                          "tests, or name it as a lane in cmake/GpucheckTestTree.cmake")
    endif()
  endforeach()
  file(GLOB checks LIST_DIRECTORIES true RELATIVE ${tests}/checks ${tests}/checks/*)
  foreach(name ${checks})
    if(IS_DIRECTORY ${tests}/checks/${name} AND NOT IS_DIRECTORY ${root}/src/checks/${name})
      message(FATAL_ERROR "tests/checks/${name}: no src/checks/${name} to mirror")
    endif()
  endforeach()
  file(GLOB_RECURSE old_style RELATIVE ${root} ${tests}/test_*.cpp)
  list(FILTER old_style EXCLUDE REGEX "^tests/layers/")  # the fixtures of this very check
  if(old_style)
    list(JOIN old_style ", " old_style)
    message(FATAL_ERROR "test sources are named <subject>_test.cpp: ${old_style}")
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  gpucheck_check_test_tree(${SOURCE_DIR})
  message(STATUS "tests/ of ${SOURCE_DIR} mirrors its tree: ok")
endif()
