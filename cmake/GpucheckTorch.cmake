# LibTorch is optional. Found from the selected Python's torch (torch.utils.cmake_prefix_path) or from
# Debian's libtorch-dev. Without it the torch probes report `skip`.
set(GPUCHECK_HAVE_TORCH OFF)
if(GPUCHECK_WITH_TORCH)
  if(NOT Torch_DIR)
    find_package(Python3 COMPONENTS Interpreter QUIET)
    if(Python3_Interpreter_FOUND)
      execute_process(COMMAND ${Python3_EXECUTABLE} -c "import torch.utils; print(torch.utils.cmake_prefix_path)"
                      OUTPUT_VARIABLE _torch_prefix OUTPUT_STRIP_TRAILING_WHITESPACE
                      RESULT_VARIABLE _torch_rc ERROR_QUIET)
      if(_torch_rc EQUAL 0 AND _torch_prefix)
        list(APPEND CMAKE_PREFIX_PATH ${_torch_prefix})
      endif()
    endif()
  endif()
  # Torch's config enables CUDA itself when it was built with it; quiet so a CPU build is not noisy.
  find_package(Torch QUIET)
  if(Torch_FOUND)
    set(GPUCHECK_HAVE_TORCH ON)
    message(STATUS "gpucheck: LibTorch found at ${Torch_DIR}")
  else()
    message(STATUS "gpucheck: LibTorch not found; torch probes will report skip")
  endif()
endif()
