# The build tree has the same shape as the install tree, so `build/bin/gpucheck` finds its probes in
# `../libexec/gpucheck` and its data in `../share/gpucheck` exactly as an installed copy does.
set(GPUCHECK_PROBE_DIR ${CMAKE_INSTALL_LIBEXECDIR}/gpucheck)
set(GPUCHECK_DATA_DIR ${CMAKE_INSTALL_DATADIR}/gpucheck)
set(GPUCHECK_STAGE ${CMAKE_BINARY_DIR}/stage)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${GPUCHECK_STAGE}/bin)
set(GPUCHECK_STAGE_PROBES ${GPUCHECK_STAGE}/${GPUCHECK_PROBE_DIR})
set(GPUCHECK_STAGE_DATA ${GPUCHECK_STAGE}/${GPUCHECK_DATA_DIR})

# gpucheck_add_probe(<id> SOURCES ... [LIBS ...] [CUDA])
# Builds one isolated probe executable named <id> into libexec/gpucheck and registers its manifest
# (probes/<dir>/probe.json) so `gpucheck list` and `gpucheck run` know it.
function(gpucheck_add_probe id)
  cmake_parse_arguments(P "" "MANIFEST" "SOURCES;LIBS" ${ARGN})
  set(target probe_${id})
  string(REPLACE "." "_" target ${target})
  add_executable(${target} ${P_SOURCES})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${id}
                        RUNTIME_OUTPUT_DIRECTORY ${GPUCHECK_STAGE_PROBES}
                        INSTALL_RPATH "$ORIGIN/../../${CMAKE_INSTALL_LIBDIR}")
  target_link_libraries(${target} PRIVATE gpucheck_probe ${P_LIBS})
  if(NOT P_MANIFEST)
    set(P_MANIFEST ${CMAKE_CURRENT_SOURCE_DIR}/probe.json)
  endif()
  configure_file(${P_MANIFEST} ${GPUCHECK_STAGE_DATA}/probes/${id}.json COPYONLY)
  install(TARGETS ${target} RUNTIME DESTINATION ${GPUCHECK_PROBE_DIR})
  install(FILES ${P_MANIFEST} DESTINATION ${GPUCHECK_DATA_DIR}/probes RENAME ${id}.json)
endfunction()

# Copies data/ and the report schemas into the staged share/gpucheck on every build.
function(gpucheck_stage_data)
  add_custom_target(gpucheck_data ALL
    COMMAND ${CMAKE_COMMAND} -E copy_directory ${CMAKE_SOURCE_DIR}/data ${GPUCHECK_STAGE_DATA}
    COMMAND ${CMAKE_COMMAND} -E copy_directory ${CMAKE_SOURCE_DIR}/reports/schema ${GPUCHECK_STAGE_DATA}/schema
    COMMENT "Staging data into ${GPUCHECK_STAGE_DATA}")
endfunction()
