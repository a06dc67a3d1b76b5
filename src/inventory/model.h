#pragma once
// The inventory document: what `gpucheck env` finds and what `doctor`, `abi` and `explain` consume.
// Every item records where its value came from (`source`: a path, a command, a function) so a reader can
// check it. Serialised as JSON (schema: reports/schema/inventory.schema.json); unknown fields are kept out,
// missing ones take their defaults, so documents from older versions still load.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpucheck::inventory {

/// What nvidia-smi prints when the driver's kernel module does not answer; a Driver::error that begins with it
/// (a pasted nvidia-smi) means the driver is installed but not loaded.
inline constexpr const char* kNvidiaSmiNoDriver =
    "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver";

/// The driver's kernel module and its user-space libraries at different versions (a driver upgraded without a
/// reboot, or a partial install): NVML's "Driver/library version mismatch" (nvidia-smi prints "Failed to
/// initialize NVML: ..."), and CUDA error 803 (cudaErrorSystemDriverMismatch) as torch prints it. A
/// Driver::error holding either means the driver is installed but nothing CUDA starts.
inline constexpr const char* kNvmlDriverLibraryMismatch = "Driver/library version mismatch";
inline constexpr const char* kCudaSystemDriverMismatch = "system has unsupported display driver / cuda driver combination";
inline bool says_driver_library_mismatch(const std::string& error) {
  // NVML's code for it (NVML_ERROR_LIB_RM_VERSION_MISMATCH) and pynvml's wording of it count too.
  // XLA's cuda_diagnostics: "kernel version 470.182.3 does not match DSO version 520.61.5".
  for (const char* said : {kNvmlDriverLibraryMismatch, kCudaSystemDriverMismatch, "NVML_ERROR_LIB_RM_VERSION_MISMATCH",
                           "NVML/RM version mismatch", "does not match DSO version"})
    if (error.find(said) != std::string::npos) return true;
  return false;
}

/// torch's reason for torch.cuda.is_available() being False when the driver is installed but CUDA cannot use
/// it (the CUDA runtime's error codes: 802 a daemon such as the fabric manager not running, 804 a forward-
/// compatibility libcuda on a GPU without it, 34 the toolkit's stub libcuda, cuInit failing, 999 at start-up).
/// A paste holding one states the driver as unusable, not absent; "Found no NVIDIA driver" states its absence.
inline constexpr const char* kTorchFoundNoDriver = "Found no NVIDIA driver on your system";
inline bool says_driver_unusable(const std::string& cuda_error) {
  for (const char* said : {"Error 802", "Error 804", "Error 34:", "CUDA driver initialization failed", "CUDA unknown error"})
    if (cuda_error.find(said) != std::string::npos) return true;
  return false;
}

struct Driver {
  bool present = false;
  std::string version;            // "550.54.15"
  int cuda_version = 0;           // cuDriverGetVersion: 12040 means CUDA 12.4
  std::string source;             // "libcuda.so.1 cuDriverGetVersion", "/proc/driver/nvidia/version"
  std::string error;              // why it is absent, e.g. "libcuda.so.1: cannot open shared object file"
  std::string kernel_module_version;  // from /proc/driver/nvidia/version ("" when not loaded)
  std::string library_path;       // the libcuda.so.1 that was (or would be) loaded
  std::string refused_by;         // a pasted program's own verdict: torch's "driver ... too old (found ...)"
};

/// NVIDIA GPUs seen without the driver (inventory/gpu_presence.h): PCI functions of vendor 0x10de with a
/// display/3D class, and /dev/nvidiaN nodes. `checked` false: the machine could not be looked at (a saved
/// inventory from before this field, a pasted report, a --root image without /sys).
struct GpuPresence {
  bool checked = false;
  std::vector<std::string> pci_devices;   // "0000:01:00.0 (device 0x2330, class 0x030200)"
  std::vector<std::string> device_nodes;  // "/dev/nvidia0"
  std::string source;                     // "/sys/bus/pci/devices"
  /// An NVIDIA GPU is known to be here (by PCI or a device node).
  bool any() const { return !pci_devices.empty() || !device_nodes.empty(); }
};

struct Gpu {
  int index = 0;                  // after CUDA_VISIBLE_DEVICES
  int nvml_index = 0;             // NVML's own numbering (all GPUs, PCI order)
  std::string name, uuid, pci_bus_id, pci_device_id;
  int cc_major = 0, cc_minor = 0; // compute capability
  std::uint64_t memory_total_bytes = 0;
  std::string ecc_mode, persistence_mode, mig_mode;
  int sm_clock_max_mhz = 0, mem_clock_max_mhz = 0;
  int pcie_gen_current = 0, pcie_gen_max = 0, pcie_width_current = 0, pcie_width_max = 0;
  std::string source;
};

/// The versions of one host compiler family this toolkit's nvcc takes. Each bound says where it came from
/// and whether nvcc enforces it: an enforced bound is a `#error` in the toolkit's own
/// include/crt/host_config.h (nvcc stops unless -allow-unsupported-compiler); the others are NVIDIA's
/// support policy (data/compat/host_compilers.json): outside them nvcc still runs, untested.
struct HostCompilerRange {
  std::string compiler;           // "gcc" or "clang"
  std::string min, max;           // inclusive; a major ("6", "15") or major.minor where the guard needs it ("3.3"); "" = unknown
  std::string min_source, max_source;  // ".../include/crt/host_config.h" or "data/compat/host_compilers.json (CUDA 13.0: <url>)"
  bool min_enforced = false, max_enforced = false;
};

struct Toolkit {
  std::string root;               // real path
  std::string version;            // "12.1.105" or "12.1"
  std::string version_source;     // "version.json", "version.txt", "cuda.h CUDA_VERSION", "nvcc --version", "dist-info"
  std::string nvcc;               // path of nvcc, empty when the toolkit has none
  std::vector<std::string> found_via;  // "CUDA_HOME", "PATH", "/usr/local/cuda symlink", "conda:env", "pip:nvidia-cuda-nvcc-cu12"
  bool is_usr_local_cuda = false; // /usr/local/cuda points here
  std::vector<HostCompilerRange> host_compilers;  // gcc and clang: what this nvcc takes (see HostCompilerRange)
  std::vector<std::string> aliases;      // other paths that lead here (/usr/local/cuda, a CUDA_HOME symlink)
};

/// Which toolkit a consumer would pick: "path" (nvcc on PATH), "cmake" (FindCUDAToolkit),
/// "torch_cpp_extension" (CUDA_HOME, CUDA_PATH, which nvcc, /usr/local/cuda).
struct ToolkitChoice {
  std::string consumer;
  std::string root;               // empty: none found
  std::string version;
  std::string reason;             // "CUDA_HOME=/usr/local/cuda-11.8"
};

struct Library {
  std::string name;               // cudart, cublas, cublasLt, cudnn, nccl, nvrtc, nvjitlink
  std::string path;
  std::string soname;
  std::string version;            // "12.1.105" / "8.9.2" / "2.18.1"
  std::string version_source;     // "cudaRuntimeGetVersion via dlopen", "file name", "SONAME"
  std::vector<std::string> found_via;  // "toolkit:/usr/local/cuda-12.1", "LD_LIBRARY_PATH", "ld.so.cache", "pip:nvidia-cudnn-cu12", "torch/lib"
  bool loader_pick = false;       // what the dynamic loader would load for a plain dlopen(soname)
  std::vector<std::string> links; // symlinks found pointing at this file (libcudart.so -> libcudart.so.12)
  std::string package;            // the pip wheel or toolkit dist-info that shipped it ("nvidia-cuda-runtime-cu12")
  std::string package_version;    // that package's version ("12.1.105"): more precise than the API's
  std::string version_error;      // why the dlopen read failed (then `version` comes from the file name)
};

/// One installed distribution as its dist-info says (what `pip check` reads).
struct Distribution {
  std::string name;                   // PEP 503 normalised
  std::string version;
  std::vector<std::string> requires_dist;  // the METADATA's Requires-Dist lines, as written
  std::string location;               // the .dist-info / .egg-info directory
};

/// A file two or more distributions list in their RECORD; the bytes on disk belong to at most one of them.
struct SharedFile {
  std::string path;                   // absolute
  std::vector<std::string> owners;    // distributions whose RECORD lists it
  std::string content_of;             // the owner whose RECORD the file matches ("" none)
  std::string matched_by;             // "sha256" (of the owners whose RECORD size fits); "" no match
};

struct PythonEnv {
  std::string interpreter;        // path
  std::string version;            // "3.10.12"
  std::string prefix;             // sys.prefix
  std::string kind;               // "system", "venv", "conda", "pyenv"
  std::vector<std::string> found_via;  // "PATH", "--python", "VIRTUAL_ENV", "CONDA_PREFIX"
  std::vector<std::string> site_packages;
  std::string error;              // the interpreter could not be run / probed

  bool torch_installed = false;
  std::string torch_version;      // "2.0.1+cu118"
  std::string torch_path;         // .../site-packages/torch
  std::string torch_cuda;         // torch.version.cuda, "" for CPU builds
  std::string torch_cudnn;        // "8700"
  std::string torch_nccl;         // "2.14.3"
  std::optional<bool> torch_cxx11_abi;
  std::vector<std::string> torch_arch_list;  // torch.cuda.get_arch_list(): sm_50 ... compute_90
  // torch's own warning that a GPU here is not supported, when a pasted report holds it without the arch list
  // ("... with CUDA capability sm_120 is not compatible with the current PyTorch installation.")
  std::string torch_gpu_refusal;
  std::optional<bool> cuda_available;
  std::string cuda_error;         // why torch.cuda.is_available() is False, when it says
  std::string torch_import_error; // import torch raised this
  std::vector<std::string> mapped_libraries;  // from /proc/self/maps after import torch
  // Of those, the CUDA libraries' versions as their own function answered in that process (path -> "13.1.0").
  std::map<std::string, std::string> mapped_library_versions;
  std::map<std::string, std::string> packages;  // dist-info name -> version (torch, flash-attn, nvidia-*, ...)
  std::string executable;         // sys.executable (the real interpreter behind a shim)
  std::string torch_git_version;  // torch.version.git_version
  double probe_seconds = 0;       // wall time of the probe child
  std::map<std::string, std::string> import_errors;  // extension module -> what importing it raised ("undefined symbol: ...")
  std::string torch_numpy_error;  // torch.from_numpy() raised this (numpy built for another ABI), "" when it works
  // An extension's own report of the GPU code in its binary (detectron2's collect_env "detectron2 arch flags
  // 7.5", read from its _C.so with cuobjdump): name -> architectures ("7.5", "sm_37"). Pasted reports only.
  // An empty list: built with no CUDA compiler at all ("Detectron2 CUDA Compiler  not available").
  std::map<std::string, std::vector<std::string>> extension_archs;
  // A compiled library refusing the GPU at run time, pasted beside the report: "no kernel image is available for
  // execution on the device", "FlashAttention only supports Ampere GPUs or newer". Pasted reports only.
  std::string kernel_refusal;
  // pip's resolver pasted beside the report, on torch: "torchvision 0.7.0 requires torch==1.6.0, but you have
  // torch 1.6.1 which is incompatible" as name -> "torch==1.6.0", the specifier as pip printed it. Pasted
  // reports only: on a machine each distribution's METADATA states it.
  std::map<std::string, std::string> stated_torch_requirements;
  // A build's own check refusing nvcc against torch's CUDA, pasted (torch.utils.cpp_extension's "The detected
  // CUDA version (12.1) mismatches ...", DeepSpeed's op builder's, apex's setup.py's): the paste is of a source
  // build that stopped, so that build is the goal it is judged for. Pasted reports only.
  std::string build_refusal;
  std::vector<Distribution> distributions;  // every distribution in its site-packages (dist-info metadata)
  std::vector<SharedFile> shared_files;     // files more than one distribution's RECORD lists

  /// The distribution of that (normalized) name, nullptr when none is installed.
  const Distribution* distribution(const std::string& name) const {
    for (const auto& d : distributions)
      if (d.name == name) return &d;
    return nullptr;
  }
};

struct Compiler {
  std::string name;               // gcc, g++, clang, clang++, cc, c++
  std::string path;
  std::string version;            // "12.2.0"
  std::string source;             // "--version", "CXX"
};

struct System {
  std::string os_id, os_version_id, os_pretty;  // from os-release
  std::string kernel;
  std::string glibc;              // "2.36"
  std::string glibcxx_max;        // "3.4.30" of the libstdc++ in use
  std::string libstdcxx_path;
  std::string cpu_model;
  std::vector<std::string> cpu_flags;  // only the ones that matter: avx2 avx512f f16c fma ...
  int cpu_count = 0;
  std::map<std::string, std::string> environment;  // allow-listed variables only
};

struct Inventory {
  std::string schema_version = "2";
  std::string collected_at;       // ISO-8601 UTC
  std::string root;               // "/" or the --root DIR that was inspected
  std::string hostname;
  Driver driver;
  GpuPresence gpu_presence;
  std::vector<Gpu> gpus;
  std::vector<Toolkit> toolkits;
  std::vector<ToolkitChoice> toolkit_choices;
  std::vector<Library> libraries;
  std::vector<PythonEnv> pythons;
  std::vector<Compiler> compilers;
  // The executable nvcc would invoke as its host compiler, and how the collector found it ("NVCC_CCBIN", or
  // "gcc on PATH, nvcc's default"); both "" when neither exists. Whether it fits a toolkit is not recorded
  // here: checks/compiler judges it (env and doctor alike).
  std::string nvcc_host_compiler;         // "/usr/bin/gcc"
  std::string nvcc_host_compiler_source;  // "gcc on PATH, nvcc's default"
  System system;
  std::vector<std::string> notes; // lookups that failed, with the reason
};

void to_json(nlohmann::json& j, const Inventory& inv);
/// Throws gpucheck::InputError when `j` is not an inventory document.
void from_json(const nlohmann::json& j, Inventory& inv);
/// Reads an inventory document, or the inventory a gpucheck report embeds (`gpucheck env --json`, a `run`
/// report). Throws InputError when the file holds neither.
Inventory load_inventory(const std::string& path);
/// The same for a document already parsed; `name` is used in error messages.
Inventory inventory_from_document(nlohmann::json doc, const std::string& name);

/// The Python environment the checks judge, by one rule (docs/env.md "The judged interpreter"): the first
/// `--python`; else the active virtualenv ($VIRTUAL_ENV), else the active conda environment ($CONDA_PREFIX);
/// else the first python3/python on PATH (what a bare `python3` / `python3 -m pip` runs); else the first
/// listed. Whether it has torch is never a criterion: a fresh venv is judged as having no torch. A pasted
/// report's environment (found via "pasted" or "collect_env") is judged by kPastedReportRule.
inline constexpr const char* kPastedReportRule = "pasted report";
struct JudgedPython {
  const PythonEnv* env = nullptr;  // null when no environment was found
  std::string rule;  // "--python", "VIRTUAL_ENV", "CONDA_PREFIX", "PATH", kPastedReportRule, "first found"
};
JudgedPython judged_python(const Inventory& inv);
/// judged_python(inv).env.
const PythonEnv* primary_python(const Inventory& inv);

}  // namespace gpucheck::inventory
