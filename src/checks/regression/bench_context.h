#pragma once
// What a benchmark number was measured on: the hardware+software combination `gpucheck bench` writes into
// the Google Benchmark document's context (under "gpucheck"), its key, and how two contexts differ.
// Numbers from different combinations are not comparable; `compare` refuses them unless told otherwise.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "inventory/model.h"

namespace gpucheck::regression {

struct BenchGpu {
  std::string model;  // "NVIDIA H200"
  std::string uuid;   // "GPU-8f0c..."; identifies the card, not part of the key
};

struct BenchContext {
  std::vector<BenchGpu> gpus;
  std::string driver;        // "550.54.15"; "" without a driver
  std::string cuda;          // the CUDA runtime the benchmarks load ("12.4.131"), else the driver's CUDA
  std::string cublas, nccl;  // versions of the libraries the loader picks
  std::string torch;         // the default Python's torch ("2.3.1+cu121"); "" without one
  std::string tool_version;  // gpucheck's version
  std::string tool_build;    // how it was built: "cuda 12.4 archs 80;90 nccl torch"
  std::string cpu;           // CPU model
  int cpu_count = 0;
  std::string key;           // names the combination above (without UUIDs): equal keys, comparable numbers
};

/// The fields the key is made of, in order: {name, value}. GPU models are joined with "+".
std::vector<std::pair<std::string, std::string>> key_fields(const BenchContext& c);
/// A readable, file-name-safe key: "<gpu>-drv<driver>-cuda<cuda>-<12 hex digits of a hash of every key
/// field>", e.g. "nvidia-h200x8-drv550.54.15-cuda12.4.131-3f2a9c0d11e4"; "nogpu" without a GPU.
std::string make_key(const BenchContext& c);

/// The context of this machine from its inventory; tool_version/tool_build as given. The key is filled.
BenchContext context_from_inventory(const inventory::Inventory& inv, const std::string& tool_version,
                                    const std::string& tool_build);

nlohmann::json to_json(const BenchContext& c);
/// Reads the "gpucheck" object of a benchmark document's context; found = false when it has none
/// (a document written by a benchmark run by hand).
BenchContext context_from_json(const nlohmann::json& gpucheck_context, bool& found);

struct ContextDifference {
  std::string field;  // "driver", "gpu", "cublas", ...
  std::string base, current;
  bool in_key = true;  // false: noted (a different card of the same model), never a refusal by itself
};

/// Every field in which the two contexts differ, key fields first.
std::vector<ContextDifference> context_differences(const BenchContext& base, const BenchContext& current);

}  // namespace gpucheck::regression
