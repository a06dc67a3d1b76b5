#pragma once
// Which toolkit each consumer would pick, replaying its documented search order against the files:
//  - "path": the first nvcc on PATH (what a shell, make or setup.py calling `nvcc` runs);
//  - "cmake": FindCUDAToolkit (https://cmake.org/cmake/help/v3.31/module/FindCUDAToolkit.html): CUDACXX,
//    CUDAToolkit_ROOT, CUDA_PATH, nvcc on PATH, the /usr/local/cuda symlink, then /usr/local/cuda-X.Y;
//  - "torch_cpp_extension": torch.utils.cpp_extension._find_cuda_home
//    (https://github.com/pytorch/pytorch/blob/main/torch/utils/cpp_extension.py): CUDA_HOME, CUDA_PATH,
//    `which nvcc`, /usr/local/cuda if it exists.
#include <vector>

#include "inventory/model.h"
#include "platform/root_fs.h"
#include "inventory/toolkit_scan.h"

namespace gpucheck::inventory {

std::vector<ToolkitChoice> choose_toolkits(const platform::RootFs& fs, const EnvMap& env, const std::vector<Toolkit>& toolkits);

}  // namespace gpucheck::inventory
