# gpucheck_unsanitized(<target>...): builds these targets without any sanitizer, also in the asan/tsan
# presets (scripts/sanitize). For the helpers whose job is to load foreign libraries in a process of their
# own (gpucheck-libversion and its LD_AUDIT module, gpucheck-gpuinfo), the stand-in driver libraries they load,
# and the test probe that must die by its own SIGSEGV: an instrumented audit module or driver cannot load into
# an uninstrumented process, ASan's interposition changes what dlopen of the CUDA libraries does, and ASan
# turns a SIGSEGV into exit 1. They link nothing of gpucheck, so no instrumented object reaches them.
function(gpucheck_unsanitized)
  foreach(t ${ARGN})
    target_compile_options(${t} PRIVATE -fno-sanitize=all)
    target_link_options(${t} PRIVATE -fno-sanitize=all)
  endforeach()
endfunction()
