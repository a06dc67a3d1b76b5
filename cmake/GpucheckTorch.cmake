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
    message(STATUS "gpucheck: LibTorch ${Torch_VERSION} found at ${Torch_DIR}")
  else()
    message(STATUS "gpucheck: LibTorch not found; torch probes will report skip")
  endif()
endif()

# A translation unit that includes LibTorch: its headers, libraries and language standard. LibTorch 2.x
# headers build as C++20 (current releases refuse anything older: "C++20 or later compatible compiler is
# required"); 1.x (Debian's 1.13) stays C++17. Only these TUs change standard; the rest of gpucheck is C++17.
function(gpucheck_torch_target target)
  target_include_directories(${target} PRIVATE ${TORCH_INCLUDE_DIRS})
  target_link_libraries(${target} PRIVATE ${TORCH_LIBRARIES})
  # LibTorch's headers are noisy under -Wextra; our own code is checked in the other libraries.
  target_compile_options(${target} PRIVATE -Wno-unused-parameter)
  if(Torch_VERSION VERSION_GREATER_EQUAL 2.0)
    set_target_properties(${target} PROPERTIES CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON)
  endif()
endfunction()
