#pragma once
// The environment as an issue asks for it: every fact `python -m torch.utils.collect_env` prints (OS,
// glibc, GCC, Clang, CMake, Python, torch and the CUDA/cuDNN/NCCL it was built with, whether CUDA is
// available, the driver and GPUs, the relevant packages), and what collect_env cannot say: every CUDA
// toolkit and which one PATH, CMake and torch's cpp_extension pick, every copy of the CUDA libraries, and
// what `import torch` really loaded. Plain "Label: value" lines for a fenced block (render/markdown.cpp).
#include <string>
#include <vector>

#include "inventory/model.h"

namespace gpucheck::render {

/// One line per fact, "Label:" padded so values line up; a list (toolkits, libraries) continues on lines
/// indented under its value. A fact the inventory lacks is "-" or left out, never guessed.
std::vector<std::string> environment_paste(const inventory::Inventory& inv);

}  // namespace gpucheck::render
