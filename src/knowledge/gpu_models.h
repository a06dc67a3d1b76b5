#pragma once
// GPU model names and their compute capabilities (the `gpu_models` table of data/compat/cuda_archs.json,
// from NVIDIA's CUDA GPUs pages): what a GPU name in a pasted report means when the report states no
// compute capability. Kept beside the knowledge base rather than in it: only pasted reports need it.
#include <optional>
#include <string>
#include <vector>

namespace gpucheck::knowledge {

struct GpuModel {
  std::string name;  // "RTX 3090", "A100": the model as NVIDIA's table names it
  std::string cc;    // "8.6"
  std::string source;
};

/// The table from `compat_dir`/cuda_archs.json (validated like every knowledge-base file); throws
/// InputError when the file is missing or malformed.
std::vector<GpuModel> load_gpu_models(const std::string& compat_dir);

/// The model a GPU name as nvidia-smi or torch prints it ("NVIDIA GeForce RTX 3090", "Tesla V100-SXM2-16GB")
/// names: the longest table name found in it as whole words; nullopt when none (or a truncated name).
std::optional<GpuModel> gpu_model(const std::vector<GpuModel>& table, const std::string& gpu_name);

}  // namespace gpucheck::knowledge
