#include "checks/abi/cuda_verdict.h"

#include <filesystem>

#include "core/cuda_version.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/paths.h"

namespace gpucheck::abi {

const char* to_string(KernelVerdict v) {
  switch (v) {
    case KernelVerdict::kNative: return "native";
    case KernelVerdict::kPtxJit: return "ptx_jit";
    case KernelVerdict::kPtxTooNew: return "ptx_too_new";
    case KernelVerdict::kNone: return "none";
  }
  return "?";
}

PtxIsaTable PtxIsaTable::load() {
  PtxIsaTable t;
  std::string path = data_path("abi/cuda_compat.json");
  if (!std::filesystem::exists(path)) return t;
  auto j = read_json_file(path);
  for (auto& [k, v] : j.at("ptx_isa_min_cuda").at("table").items()) t.table[k] = v.get<std::string>();
  return t;
}

int PtxIsaTable::min_cuda(unsigned major, unsigned minor) const {
  auto it = table.find(std::to_string(major) + "." + std::to_string(minor));
  if (it == table.end()) return 0;
  return cuda_string_to_int(it->second);
}

GpuTarget parse_gpu_spec(const std::string& spec) {
  std::string s = spec;
  for (const char* p : {"sm_", "compute_", "sm", "SM"})
    if (s.rfind(p, 0) == 0) {
      s = s.substr(std::string(p).size());
      break;
    }
  GpuTarget g;
  g.label = "sm_";
  try {
    std::size_t used = 0;
    if (auto dot = s.find('.'); dot != std::string::npos) {
      g.cc_major = std::stoi(s.substr(0, dot), &used);
      if (used != dot) throw std::invalid_argument(s);
      g.cc_minor = std::stoi(s.substr(dot + 1), &used);
      if (used != s.size() - dot - 1) throw std::invalid_argument(s);
    } else {
      int v = std::stoi(s, &used);
      if (used != s.size() || v < 10) throw std::invalid_argument(s);
      g.cc_major = v / 10;
      g.cc_minor = v % 10;
    }
  } catch (const std::exception&) {
    throw InputError("bad GPU '" + spec + "': expected sm_90, 90 or 9.0");
  }
  if (g.cc_major < 1 || g.cc_major > 99 || g.cc_minor < 0 || g.cc_minor > 9)
    throw InputError("bad GPU '" + spec + "': compute capability out of range");
  g.label += std::to_string(g.cc_major * 10 + g.cc_minor);
  return g;
}

namespace {

bool sass_runs(const FatbinEntry& e, int major, int minor) {
  int em = static_cast<int>(e.arch) / 10, en = static_cast<int>(e.arch) % 10;
  if (e.suffix == "a") return em == major && en == minor;
  return em == major && en <= minor;  // binary compatibility within a major only (also "f" families)
}

bool ptx_jits(const FatbinEntry& e, int major, int minor) {
  int em = static_cast<int>(e.arch) / 10, en = static_cast<int>(e.arch) % 10;
  if (e.suffix == "a") return em == major && en == minor;
  if (e.suffix == "f") return em == major && en <= minor;
  return em * 10 + en <= major * 10 + minor;
}

}  // namespace

GpuVerdict judge(const GpuTarget& gpu, const std::vector<FatbinEntry>& entries, const PtxIsaTable& ptx) {
  GpuVerdict v;
  v.gpu = gpu;
  const FatbinEntry* best_sass = nullptr;
  const FatbinEntry* best_ptx = nullptr;
  for (const auto& e : entries) {
    if (e.kind == FatbinKind::kSass && sass_runs(e, gpu.cc_major, gpu.cc_minor) && (!best_sass || e.arch > best_sass->arch))
      best_sass = &e;
    if (e.kind == FatbinKind::kPtx && ptx_jits(e, gpu.cc_major, gpu.cc_minor) && (!best_ptx || e.arch > best_ptx->arch))
      best_ptx = &e;
  }
  if (best_sass) {
    v.verdict = KernelVerdict::kNative;
    v.using_target = best_sass->target();
    v.detail = "runs native " + v.using_target + " code";
    return v;
  }
  if (best_ptx) {
    v.using_target = best_ptx->target();
    int need = ptx.min_cuda(best_ptx->ptx_major, best_ptx->ptx_minor);
    std::string isa = std::to_string(best_ptx->ptx_major) + "." + std::to_string(best_ptx->ptx_minor);
    if (gpu.driver_cuda > 0 && need > 0 && gpu.driver_cuda < need) {
      v.verdict = KernelVerdict::kPtxTooNew;
      v.detail = "only PTX " + v.using_target + " (ISA " + isa + ", needs a CUDA " + cuda_int_to_string(need) +
                 " driver) but the driver supports CUDA " + cuda_int_to_string(gpu.driver_cuda) +
                 ": predicted cudaErrorUnsupportedPtxVersion";
      return v;
    }
    v.verdict = KernelVerdict::kPtxJit;
    v.detail = "no matching SASS; the driver JIT-compiles PTX " + v.using_target + " (ISA " + isa +
               (need ? ", needs a CUDA " + cuda_int_to_string(need) + "+ driver" : "") + ") at first launch";
    return v;
  }
  v.verdict = KernelVerdict::kNone;
  v.detail = "no SASS for sm_" + std::to_string(gpu.cc_major * 10 + gpu.cc_minor) +
             " and no compatible PTX: predicted cudaErrorNoKernelImageForDevice (\"no kernel image is available "
             "for execution on the device\")";
  return v;
}

}  // namespace gpucheck::abi
