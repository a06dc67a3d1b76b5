# The build tree has the same shape as the install tree, so `build/bin/gpucheck` finds its probes in
# `../libexec/gpucheck` and its data in `../share/gpucheck` exactly as an installed copy does.
set(GPUCHECK_PROBE_DIR ${CMAKE_INSTALL_LIBEXECDIR}/gpucheck)
set(GPUCHECK_DATA_DIR ${CMAKE_INSTALL_DATADIR}/gpucheck)
set(GPUCHECK_STAGE ${CMAKE_BINARY_DIR}/stage)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${GPUCHECK_STAGE}/bin)
set(GPUCHECK_STAGE_PROBES ${GPUCHECK_STAGE}/${GPUCHECK_PROBE_DIR})
set(GPUCHECK_STAGE_DATA ${GPUCHECK_STAGE}/${GPUCHECK_DATA_DIR})

include(${CMAKE_CURRENT_LIST_DIR}/GpucheckProbeManifest.cmake)

# What the main job (`scripts/run`) needs and nothing else: the tool, its helpers, every probe and the
# staged data; not the tests or the benchmarks. Each probe adds itself in gpucheck_add_probe.
add_custom_target(gpucheck_main)

# gpucheck_add_probe(SOURCES ... [LIBS ...] [DEFINITIONS ...] [MANIFEST file])
# Builds one isolated probe executable into libexec/gpucheck and stages its manifest (default:
# probe.json beside the calling CMakeLists.txt) so `gpucheck list` and `gpucheck run` know it. The id and
# title come from the manifest alone: the executable and the staged manifest are named after the id, the
# target is probe_<id with . as _> (what tests depend on), and the sources get GPUCHECK_PROBE_ID and
# GPUCHECK_PROBE_TITLE, which probe::run() reports. DEFINITIONS are further private compile definitions.
# Sets GPUCHECK_PROBE_TARGET in the caller's scope.
function(gpucheck_add_probe)
  cmake_parse_arguments(P "" "MANIFEST" "SOURCES;LIBS;DEFINITIONS" ${ARGN})
  if(P_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "gpucheck_add_probe: unexpected arguments '${P_UNPARSED_ARGUMENTS}' (the id comes "
                        "from probe.json; see cmake/GpucheckLayout.cmake)")
  endif()
  if(NOT P_MANIFEST)
    set(P_MANIFEST ${CMAKE_CURRENT_SOURCE_DIR}/probe.json)
  endif()
  get_filename_component(P_MANIFEST "${P_MANIFEST}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${P_MANIFEST})
  gpucheck_read_probe_manifest(${P_MANIFEST} id title)
  string(REPLACE "." "_" target probe_${id})
  get_property(other GLOBAL PROPERTY GPUCHECK_PROBE_MANIFEST_${target})
  if(other)
    message(FATAL_ERROR "probe manifest ${P_MANIFEST}: id '${id}' gives target ${target}, already built "
                        "from ${other}")
  endif()
  set_property(GLOBAL PROPERTY GPUCHECK_PROBE_MANIFEST_${target} ${P_MANIFEST})
  gpucheck_c_string("${id}" id_literal)
  gpucheck_c_string("${title}" title_literal)

  add_executable(${target} ${P_SOURCES})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${id}
                        RUNTIME_OUTPUT_DIRECTORY ${GPUCHECK_STAGE_PROBES}
                        INSTALL_RPATH "$ORIGIN/../../${CMAKE_INSTALL_LIBDIR}")
  target_link_libraries(${target} PRIVATE gpucheck_probe ${P_LIBS})
  target_compile_definitions(${target} PRIVATE "GPUCHECK_PROBE_ID=\"${id_literal}\""
                             "GPUCHECK_PROBE_TITLE=\"${title_literal}\"" ${P_DEFINITIONS})
  configure_file(${P_MANIFEST} ${GPUCHECK_STAGE_DATA}/probes/${id}.json COPYONLY)
  install(TARGETS ${target} RUNTIME DESTINATION ${GPUCHECK_PROBE_DIR})
  install(FILES ${P_MANIFEST} DESTINATION ${GPUCHECK_DATA_DIR}/probes RENAME ${id}.json)
  add_dependencies(gpucheck_main ${target})
  set(GPUCHECK_PROBE_TARGET ${target} PARENT_SCOPE)
endfunction()

# Copies data/ and the report schemas into the staged share/gpucheck on every build.
function(gpucheck_stage_data)
  add_custom_target(gpucheck_data ALL
    COMMAND ${CMAKE_COMMAND} -E copy_directory ${CMAKE_SOURCE_DIR}/data ${GPUCHECK_STAGE_DATA}
    COMMAND ${CMAKE_COMMAND} -E copy_directory ${CMAKE_SOURCE_DIR}/reports/schema ${GPUCHECK_STAGE_DATA}/schema
    COMMENT "Staging data into ${GPUCHECK_STAGE_DATA}")
endfunction()
