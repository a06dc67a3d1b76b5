#pragma once
// The compatibility knowledge base: typed, read-only access to data/compat/*.json. Every fact carries the
// URL it was taken from (`source`), and loading rejects a fact without one (see kb_schema.h).
//
//   auto kb = compat::KnowledgeBase::load();            // data_path("compat")
//   kb.driver_minimum("11.8")->min_driver               // "520.61.05"
//   kb.torch_build("2.0.1+cu118", "11.8")->index_url    // "https://download.pytorch.org/whl/cu118"
//
// This API is shared with `explain` (fix commands); keep it stable, extend it only by adding members.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "knowledge/pypi_index.h"
#include "platform/dist_info.h"

namespace gpucheck::knowledge {

struct DriverMinimum {
  std::string cuda;        // "11.8"
  std::string min_driver;  // "520.61.05" (Linux x86_64, GA release)
  std::string source;
};

struct MinorCompatFloor {
  int cuda_major = 0;
  std::string min_driver;  // "450.80.02": oldest driver that runs any 11.x application (no JIT of newer PTX)
  std::string note, source;
};

/// NVIDIA's host compiler support policy for one toolkit release (data/compat/host_compilers.json). The
/// per-toolkit range nvcc really takes, bound by bound with its provenance, is inventory::HostCompilerRange;
/// this row fills the bounds a toolkit's own host_config.h does not enforce.
struct HostCompilerPolicy {
  std::string cuda;  // "11.8"
  int gcc_min = 0, gcc_max = 0, clang_min = 0, clang_max = 0;  // majors, inclusive
  std::string note, source;
};

struct ArchInfo {
  std::string cc;          // "9.0"
  std::string family;      // "Hopper"
  std::string examples;    // "H100, H200"
  std::string first_cuda;  // first toolkit that builds SASS for it
  std::string last_cuda;   // last toolkit that still does; "" = still supported
  std::string source;
};

struct TorchBuild {
  std::string tag;        // "cu118"
  std::string cuda;       // "11.8"
  std::string index_url;  // "https://download.pytorch.org/whl/cu118"
  std::string cudnn, nccl;  // bundled versions, "" when not recorded
  bool cxx11_abi = false;
  std::vector<std::string> archs;  // "sm_80" (SASS) / "sm_90a"; empty when not recorded
  std::string note;
};

struct TorchRelease {
  std::string version;       // release series "2.0"
  std::string latest_patch;  // "2.0.1"
  std::string python_min, python_max;  // "3.8", "3.11"
  int cxx_standard = 0;
  std::string pypi_default_cuda;  // CUDA of plain `pip install torch` on Linux; "" when not recorded
  std::vector<TorchBuild> builds;
  std::string note, source;

  /// The build for "11.8" or "cu118"; nullptr when this release has none.
  const TorchBuild* build_for_cuda(const std::string& cuda) const;
  /// `pip install torch==2.0.1 --index-url https://download.pytorch.org/whl/cu118` (exact, copy-pasteable).
  std::string install_command(const TorchBuild& build) const;
  bool supports_python(const std::string& python_version) const;
};

/// torch.utils.cpp_extension's nvcc-vs-torch.version.cuda rule for one torch range.
struct CudaCheckRule {
  std::string torch;  // specifier ">=1.10,<2.1"
  std::string check;  // "none" | "major_fatal_minor_warn"
  bool old_setuptools_all_fatal = false;  // setuptools < 49.4 turns a minor mismatch fatal too
  std::string text, minor_text;           // messages with {nvcc} and {torch_cuda}
  std::string note, source;
};

struct ExtensionRelease {
  std::string versions;      // specifier of the releases this row covers: "<=0.2.2"
  std::string distribution;  // "wheel" (prebuilt on PyPI), "sdist", "source"
  bool setup_imports_torch = false;  // an isolated (PEP 517) build fails: needs --no-build-isolation after torch
  std::string build;                 // "torch_cpp_extension", "cmake", "jit_ops"
  bool needs_nvcc = false;
  bool torch_abi_coupled = false;    // the binary links libtorch: must match the torch it runs with
  bool strict_minor = false;         // nvcc major.minor must equal torch.version.cuda (apex)
  bool imports_with_other_torch = false;  // with another torch `import NAME` works; only its compiled ops fail
  std::string torch;                 // specifier of supported torch, "" = any
  std::string cuda_min;              // minimum nvcc, "" = none recorded
  int cxx_std = 0;                   // the -std=c++N its build passes (fixed in its setup.py); 0 = torch's default
  std::string cxx_std_source;        // where that flag is read
  std::string min_cc;                // minimum compute capability "8.0", "" = none recorded
  std::vector<std::string> archs;    // compute capabilities built as SASS ("8.6+PTX" marks PTX too)
  // The variable its setup.py reads for its own -gencode flags (flash-attn >= 2.7.3: FLASH_ATTN_CUDA_ARCHS);
  // with those flags cpp_extension ignores TORCH_CUDA_ARCH_LIST. "" = TORCH_CUDA_ARCH_LIST decides.
  std::string arch_env;
  bool own_gencode = false;          // its setup.py passes -gencode flags itself: TORCH_CUDA_ARCH_LIST changes nothing
  std::vector<std::string> arch_env_values;  // the SASS targets it accepts: "80", "90", "100"
  std::string arch_env_source;
  std::vector<std::string> ptx;      // capabilities shipped as PTX
  std::vector<std::string> wheel_pythons;  // Python versions with a prebuilt wheel on PyPI
  std::vector<std::string> requires_dist;
  std::string wheel_pattern, note, source;
  std::string recommended;           // the release of this row to pin when recommending it ("0.2.3.post2")
  std::vector<std::string> install;  // how to install when not `pip install NAME` (apex: from its git tree)
  // With these torch releases the built package imports only when torch is loaded RTLD_GLOBAL (one of its
  // modules calls a library torch loads RTLD_LOCAL without linking it): "" = never. Why, and its source.
  std::string rtld_global_torch, rtld_global_why, rtld_global_source;
  /// Whether, built against torch `torch_version`, it imports only with torch loaded RTLD_GLOBAL.
  bool needs_rtld_global(const std::string& torch_version) const;
  /// A TORCH_CUDA_ARCH_LIST ("8.6;9.0+PTX") in the terms of `arch_env`: for each capability the newest
  /// accepted target of the same major not above it (SASS for 8.0 runs on 8.6 and 8.9), in order, once
  /// each ("80;90"). "" when none maps (the package then builds its own default).
  std::string arch_env_value(const std::string& torch_arch_list) const;
};

struct ExtensionInfo {
  std::string name;  // normalized: "flash-attn"
  std::vector<ExtensionRelease> releases;
  /// The row whose `versions` covers `version`; nullptr when none does.
  const ExtensionRelease* release_for(const std::string& version) const;
};

/// Distributions that install the same importable package (shared_packages.json): onnxruntime and
/// onnxruntime-gpu both write onnxruntime/, so the one installed last owns its files.
struct SharedPackageGroup {
  std::vector<std::string> distributions;  // normalized names
  std::vector<std::string> packages;       // the top-level names every member installs
  std::string gpu_choice;                  // the member an NVIDIA GPU machine wants; "" when none is better
  std::vector<std::string> sources;        // the wheels the file lists were read from
};

class KnowledgeBase {
 public:
  /// Loads data/compat/*.json from `dir` (default: data_path("compat")). Throws InputError naming the file
  /// and the fact when a file is missing, malformed, or a fact lacks its source.
  static KnowledgeBase load(const std::string& dir = "");

  /// Minimum Linux driver for a toolkit "11.8" / "11.8.89"; nullopt when the release is not recorded.
  std::optional<DriverMinimum> driver_minimum(const std::string& cuda) const;
  /// Every recorded toolkit release with its minimum driver, oldest first.
  const std::vector<DriverMinimum>& driver_minimums() const { return drivers_; }
  /// Oldest driver that runs applications of this CUDA major under minor-version compatibility.
  std::optional<MinorCompatFloor> minor_compat_floor(int cuda_major) const;
  /// Host compilers nvcc of this version accepts; falls back to the newest recorded release of the same
  /// major that is older (e.g. 12.7 -> 12.6); nullopt when none.
  std::optional<HostCompilerPolicy> host_compilers(const std::string& cuda) const;
  std::optional<ArchInfo> arch(const std::string& cc) const;
  /// Architectures a toolkit can compile SASS for, oldest first (front = first, back = last).
  std::vector<ArchInfo> archs_for_cuda(const std::string& cuda) const;
  bool cuda_can_build(const std::string& cuda, const std::string& cc) const;

  const std::vector<TorchRelease>& torch_releases() const { return torch_; }
  /// The release series of "2.0.1+cu118" ("2.0"); nullptr when not recorded.
  const TorchRelease* torch_release(const std::string& torch_version) const;
  const TorchBuild* torch_build(const std::string& torch_version, const std::string& cuda) const;
  /// Releases that offer a build for this CUDA major.minor, newest first.
  std::vector<const TorchRelease*> torch_releases_with_cuda(const std::string& cuda) const;
  std::optional<CudaCheckRule> cuda_check_rule(const std::string& torch_version) const;
  /// TORCH_CUDA_ARCH_LIST values this torch's cpp_extension accepts ("8.6", "9.0a").
  std::vector<std::string> torch_known_archs(const std::string& torch_version) const;
  /// How cpp_extension picks CUDA_HOME, in order.
  const std::vector<std::string>& cuda_home_order() const { return cuda_home_order_; }

  /// "flash_attn", "Flash-Attn" and "flash-attn" are the same package; nullptr when unknown.
  const ExtensionInfo* extension(const std::string& name) const;
  const std::vector<ExtensionInfo>& extensions() const { return extensions_; }
  const std::vector<SharedPackageGroup>& shared_package_groups() const { return shared_packages_; }

  /// What PyPI publishes (pypi.json), read on first use: most commands never need it. Throws InputError
  /// when the file is missing or malformed.
  const PypiIndex& pypi() const;

  const std::string& directory() const { return dir_; }

 private:
  struct LazyPypi {
    std::once_flag once;
    std::unique_ptr<PypiIndex> index;
  };
  std::shared_ptr<LazyPypi> pypi_ = std::make_shared<LazyPypi>();
  std::string dir_;
  std::vector<DriverMinimum> drivers_;
  std::vector<MinorCompatFloor> minor_compat_;
  std::vector<HostCompilerPolicy> compilers_;
  std::vector<ArchInfo> archs_;
  std::vector<TorchRelease> torch_;
  std::vector<CudaCheckRule> cuda_checks_;
  std::vector<std::pair<std::string, std::vector<std::string>>> torch_arch_lists_;  // specifier -> known
  std::vector<std::string> cuda_home_order_;
  std::vector<ExtensionInfo> extensions_;
  std::vector<SharedPackageGroup> shared_packages_;
};

/// PEP 503 normalisation (inventory's dist-info reader owns it; the knowledge base keys packages the same way).
using platform::normalize_package_name;

}  // namespace gpucheck::knowledge
