#include "render/environment_paste.h"

#include <fmt/format.h>

#include "core/cuda_version.h"
#include "core/text.h"

namespace gpucheck::render {
namespace {

constexpr int kLabel = 30;  // collect_env's longest label, "GPU models and configuration:", and a space

std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }

std::string version_of(const inventory::Inventory& inv, const std::string& tool) {
  for (const auto& c : inv.compilers)
    if (c.name == tool) return or_dash(c.version) + " (" + c.path + ")";
  return "-";
}

std::string consumer_name(const std::string& c) {
  if (c == "path") return "nvcc on PATH";
  if (c == "cmake") return "CMake FindCUDAToolkit";
  if (c == "torch_cpp_extension") return "torch cpp_extension";
  return c;
}

}  // namespace

std::vector<std::string> environment_paste(const inventory::Inventory& inv) {
  std::vector<std::string> out;
  auto row = [&](const std::string& label, const std::string& value) {
    out.push_back(fmt::format("{:<{}}{}", label + ":", kLabel, value));
  };
  auto rows = [&](const std::string& label, const std::vector<std::string>& values) {
    if (values.empty()) return row(label, "none");
    for (std::size_t i = 0; i < values.size(); ++i) row(i == 0 ? label : std::string(), values[i]);
  };
  // Continuation rows print an empty label followed by ":"; keep the column, drop the colon.
  auto tidy = [&] {
    for (auto& l : out)
      if (!l.empty() && l[0] == ':') l[0] = ' ';
  };
  const auto& s = inv.system;
  row("OS", or_dash(s.os_pretty));
  row("Kernel", or_dash(s.kernel));
  row("GLIBC version", or_dash(s.glibc));
  row("libstdc++ (GLIBCXX)", or_dash(s.glibcxx_max) + (s.libstdcxx_path.empty() ? "" : " (" + s.libstdcxx_path + ")"));
  row("CPU", fmt::format("{} x{}", or_dash(s.cpu_model), s.cpu_count));
  row("GCC version", version_of(inv, "gcc"));
  row("Clang version", version_of(inv, "clang"));
  row("CMake version", version_of(inv, "cmake"));
  row("nvcc host compiler", or_dash(inv.nvcc_host_compiler) +
                                (inv.nvcc_host_compiler_source.empty() ? "" : " (" + inv.nvcc_host_compiler_source + ")"));

  row("Nvidia driver version", inv.driver.present ? or_dash(inv.driver.version) : "none: " + or_dash(inv.driver.error));
  if (inv.driver.present && inv.driver.cuda_version > 0)
    row("CUDA (driver supports)", cuda_int_to_string(inv.driver.cuda_version));
  std::vector<std::string> gpus;
  for (const auto& g : inv.gpus)
    gpus.push_back(fmt::format("GPU {}: {} (sm_{}{}, {:.0f} GiB, ECC {}, MIG {})", g.index, g.name, g.cc_major,
                               g.cc_minor, g.memory_total_bytes / 1073741824.0, or_dash(g.ecc_mode), or_dash(g.mig_mode)));
  rows("GPU models and configuration", gpus);

  std::vector<std::string> toolkits, picks, libraries;
  for (const auto& t : inv.toolkits)
    toolkits.push_back(or_dash(t.version) + " at " + t.root + (t.nvcc.empty() ? " (no nvcc)" : "") +
                       (t.is_usr_local_cuda ? " (= /usr/local/cuda)" : ""));
  rows("CUDA toolkits", toolkits);
  for (const auto& c : inv.toolkit_choices)
    picks.push_back(consumer_name(c.consumer) + " -> " + (c.root.empty() ? "none" : c.version + " at " + c.root) +
                    (c.reason.empty() ? "" : " (" + c.reason + ")"));
  rows("Toolkit each build picks", picks);
  for (const auto& l : inv.libraries)
    libraries.push_back(std::string(l.loader_pick ? "* " : "  ") + l.name + " " + or_dash(l.version) + " " + l.path);
  rows("CUDA libraries (* loader)", libraries);

  const inventory::PythonEnv* judged = inventory::primary_python(inv);
  for (const auto& p : inv.pythons) {
    const bool main = &p == judged;
    row(main ? "Python version" : "Other Python", or_dash(p.version) + " (" + p.interpreter + ", " + or_dash(p.kind) + ")");
    if (!p.error.empty()) {
      row("", "error: " + p.error);
      continue;
    }
    if (!main) {  // the judged environment in full, the others in one line each
      if (p.torch_installed) row("", "torch " + p.torch_version);
      continue;
    }
    if (!p.torch_import_error.empty()) row("PyTorch version", "import torch FAILED: " + p.torch_import_error);
    else if (!p.torch_installed) row("PyTorch version", "not installed");
    else {
      row("PyTorch version", p.torch_version);
      row("CUDA used to build PyTorch", or_dash(p.torch_cuda));
      row("cuDNN version (torch)", or_dash(p.torch_cudnn));
      row("NCCL version (torch)", or_dash(p.torch_nccl));
      row("CXX11 ABI", p.torch_cxx11_abi ? (*p.torch_cxx11_abi ? "yes" : "no") : "-");
      row("Is CUDA available", std::string(p.cuda_available ? (*p.cuda_available ? "yes" : "no") : "-") +
                                   (p.cuda_error.empty() ? "" : " (" + p.cuda_error + ")"));
      row("Arch list", p.torch_arch_list.empty() ? "-" : join(p.torch_arch_list, " "));
      std::vector<std::string> loaded;
      for (const auto& m : p.mapped_libraries) {
        const std::string base = m.substr(m.find_last_of('/') + 1);
        for (const char* prefix : {"libcuda.", "libcudart", "libcublas", "libcudnn", "libnccl", "libnvrtc",
                                   "libnvJitLink", "libtorch_cuda", "libc10_cuda", "libstdc++"})
          if (starts_with(base, prefix)) {
            auto v = p.mapped_library_versions.find(m);
            loaded.push_back(m + (v == p.mapped_library_versions.end() ? "" : " (" + v->second + ")"));
            break;
          }
      }
      rows("Loaded by import torch", loaded);
    }
    std::vector<std::string> pk;
    for (const auto& [n, v] : p.packages) pk.push_back(n + "==" + v);
    rows("Versions of relevant libs", pk);
  }
  if (inv.pythons.empty()) row("Python version", "none probed");
  tidy();
  return out;
}

}  // namespace gpucheck::render
