#include "render/inventory_text.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/cuda_version.h"
#include "core/text.h"
#include "render/text_blocks.h"

namespace gpucheck::render {

using inventory::Gpu;
using inventory::HostCompilerRange;
using inventory::Inventory;
using inventory::PythonEnv;

namespace {
std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }

std::string base_name_of(const std::string& p) { return p.substr(p.find_last_of('/') + 1); }

// The mapped libraries worth showing without --verbose: the CUDA stack, torch itself, the C++ runtime.
bool is_stack_library(const std::string& name) {
  for (const char* prefix : {"libcuda.", "libcudart", "libcublas", "libcudnn", "libnccl", "libnvrtc", "libnvJitLink",
                             "libcusparse", "libcufft", "libcurand", "libcusolver", "libtorch", "libc10", "libstdc++",
                             "libgomp", "libnvToolsExt"})
    if (starts_with(name, prefix)) return true;
  return false;
}

// "gcc 6 (policy) .. 15 (host_config.h)": each bound with what backs it.
std::string host_compiler_range_text(const HostCompilerRange& r) {
  auto bound = [](const std::string& v, bool enforced) {
    return v.empty() ? std::string("?") : v + (enforced ? " (host_config.h)" : " (policy)");
  };
  return r.compiler + " " + bound(r.min, r.min_enforced) + " .. " + bound(r.max, r.max_enforced);
}

std::string cuda_int(int v) { return v > 0 ? cuda_int_to_string(v) : "-"; }

// "PATH", "CMake", "torch cpp_extension": the consumers of toolkit_choices in the reader's words.
std::string consumer_name(const std::string& c) {
  if (c == "path") return "PATH";
  if (c == "cmake") return "CMake";
  if (c == "torch_cpp_extension") return "torch cpp_extension";
  return c;
}

std::string yes_no(const std::optional<bool>& b) { return b ? (*b ? "yes" : "no") : "-"; }

// "8 x NVIDIA H200 (sm_90, 139.8 GiB)": GPUs of one model and memory counted together.
std::string gpu_summary(const std::vector<Gpu>& gpus) {
  std::vector<std::pair<std::string, int>> kinds;
  for (const auto& g : gpus) {
    std::string k = fmt::format("{} (sm_{}{}, {:.0f} GiB)", g.name, g.cc_major, g.cc_minor, g.memory_total_bytes / 1073741824.0);
    auto it = std::find_if(kinds.begin(), kinds.end(), [&](const auto& e) { return e.first == k; });
    if (it == kinds.end()) kinds.emplace_back(k, 1);
    else ++it->second;
  }
  std::vector<std::string> out;
  for (const auto& [k, n] : kinds) out.push_back(fmt::format("{} x {}", n, k));
  return join(out, ", ");
}
}  // namespace

std::string render_brief(const Inventory& inv, const std::map<std::string, std::string>& host_compiler_fits) {
  std::string o;
  auto line = [&](const std::string& label, const std::string& value) {
    o += fmt::format("{:<10}{}\n", label, value);
  };
  o += fmt::format("gpucheck env  {}  (what decides compatibility; every detail: -v)\n", inv.hostname);
  const auto& s = inv.system;
  line("system", fmt::format("{}, kernel {}, glibc {}", or_dash(s.os_pretty), or_dash(s.kernel), or_dash(s.glibc)));
  if (inv.driver.present)
    line("driver", fmt::format("{} (supports CUDA {})", or_dash(inv.driver.version), cuda_int(inv.driver.cuda_version)));
  else if (inv.driver.error.find("libcuda.so.1: cannot open shared object file") != std::string::npos)
    line("driver", "none (libcuda.so.1 is not installed: no NVIDIA driver here)");
  else
    line("driver", "none: " + or_dash(inv.driver.error));
  line("GPUs", inv.gpus.empty() ? "none listed" : gpu_summary(inv.gpus));

  if (inv.toolkits.empty()) line("toolkits", "none found");
  for (std::size_t i = 0; i < inv.toolkits.size(); ++i) {
    const auto& t = inv.toolkits[i];
    std::string fit;
    if (auto f = host_compiler_fits.find(t.root); f != host_compiler_fits.end()) fit = "; nvcc's host compiler: " + f->second;
    line(i == 0 ? "toolkits" : "", fmt::format("{} at {}{}{}", or_dash(t.version), t.root,
                                               t.nvcc.empty() ? " (no nvcc)" : "", fit));
  }
  // Who builds with which toolkit: one line when they agree, else one per consumer.
  std::vector<std::string> consumers;
  bool agree = !inv.toolkit_choices.empty();
  for (const auto& c : inv.toolkit_choices) {
    consumers.push_back(consumer_name(c.consumer));
    agree = agree && c.root == inv.toolkit_choices.front().root;
  }
  if (agree) {
    const auto& c = inv.toolkit_choices.front();
    line("picks", join(consumers, ", ") + " -> " + (c.root.empty() ? "none" : c.version + " at " + c.root));
  } else {
    for (std::size_t i = 0; i < inv.toolkit_choices.size(); ++i) {
      const auto& c = inv.toolkit_choices[i];
      line(i == 0 ? "picks" : "", consumer_name(c.consumer) + " -> " + (c.root.empty() ? "none" : c.version + " at " + c.root) +
                                      " (" + c.reason + ")");
    }
  }
  std::vector<std::string> tools;
  for (const auto& c : inv.compilers)
    if (c.name == "gcc" || c.name == "clang" || c.name == "cmake") tools.push_back(c.name + " " + or_dash(c.version));
  line("tools", tools.empty() ? "no gcc, clang or cmake on PATH" : join(tools, ", "));

  const PythonEnv* judged = primary_python(inv);
  if (!judged) line("python", inv.pythons.empty() ? "none probed" : "none judged");
  if (judged) {
    const auto& p = *judged;
    line("python", fmt::format("{} {} ({})", or_dash(p.version), p.interpreter, or_dash(p.kind)));
    if (!p.error.empty()) line("", "error: " + p.error);
    else if (!p.torch_import_error.empty()) line("torch", "import torch FAILED: " + p.torch_import_error);
    else if (!p.torch_installed) line("torch", "not installed");
    else {
      line("torch", fmt::format("{} (CUDA {}, cuDNN {}, NCCL {})", p.torch_version, or_dash(p.torch_cuda),
                                or_dash(p.torch_cudnn), or_dash(p.torch_nccl)));
      line("", "CUDA available: " + yes_no(p.cuda_available) + (p.cuda_error.empty() ? "" : " (" + p.cuda_error + ")"));
    }
    std::vector<std::string> pk;
    int nvidia = 0;
    for (const auto& [n, v] : p.packages) {
      if (n == "torch") continue;  // said above
      if (starts_with(n, "nvidia-")) ++nvidia;
      else pk.push_back(n + " " + v);
    }
    if (nvidia) pk.push_back(fmt::format("{} nvidia-* wheels", nvidia));
    if (!pk.empty()) line("packages", join(pk, ", "));
    if (inv.pythons.size() > 1) line("", fmt::format("and {} other Python environment(s): -v", inv.pythons.size() - 1));
  }
  if (!inv.notes.empty()) line("notes", fmt::format("{} lookup(s) failed: -v", inv.notes.size()));
  return o;
}

std::string render_summary(const Inventory& inv, bool verbose, const std::map<std::string, std::string>& host_compiler_fits) {
  std::string o;
  auto line = [&](const std::string& s) { o += s + "\n"; };
  line(fmt::format("gpucheck env  {}  root {}  {}", inv.hostname, inv.root, inv.collected_at));

  line("\nSystem");
  const auto& s = inv.system;
  line(fmt::format("  OS        {} | kernel {} | glibc {} | GLIBCXX {} ({})", or_dash(s.os_pretty), or_dash(s.kernel),
                   or_dash(s.glibc), or_dash(s.glibcxx_max), or_dash(s.libstdcxx_path)));
  line(fmt::format("  CPU       {} x{} [{}]", or_dash(s.cpu_model), s.cpu_count, join(s.cpu_flags, " ")));

  line("\nDriver");
  if (inv.driver.present)
    line(fmt::format("  {} (supports CUDA {})  via {}", or_dash(inv.driver.version), cuda_int(inv.driver.cuda_version),
                     inv.driver.source));
  else
    line("  none: " + or_dash(inv.driver.error));

  line("\nGPUs");
  if (inv.gpus.empty()) line("  none listed");
  for (const auto& g : inv.gpus)
    line(fmt::format("  [{}] {} sm_{}{} {:.1f} GiB  {}  PCIe gen{}/{} x{}/{}  ECC {}  MIG {}", g.index, g.name, g.cc_major,
                     g.cc_minor, g.memory_total_bytes / 1073741824.0, g.pci_bus_id, g.pcie_gen_current, g.pcie_gen_max,
                     g.pcie_width_current, g.pcie_width_max, or_dash(g.ecc_mode), or_dash(g.mig_mode)));

  line("\nCUDA toolkits");
  if (inv.toolkits.empty()) line("  none found");
  for (const auto& t : inv.toolkits) {
    line(fmt::format("  {:<10} {}{}  [{}]  nvcc {}  via {}", or_dash(t.version), t.root,
                     t.is_usr_local_cuda ? " (= /usr/local/cuda)" : "", t.version_source, t.nvcc.empty() ? "no" : "yes",
                     join(t.found_via, ", ")));
    std::vector<std::string> ranges;
    for (const auto& r : t.host_compilers) ranges.push_back(host_compiler_range_text(r));
    if (!ranges.empty()) line("             host compilers: " + join(ranges, "; "));
    if (auto fit = host_compiler_fits.find(t.root); fit != host_compiler_fits.end())
      line("             nvcc's host compiler: " + fit->second);
  }
  for (const auto& c : inv.toolkit_choices)
    line(fmt::format("  {:<20} -> {} {}  ({})", c.consumer, c.root.empty() ? "none" : c.root, c.version, c.reason));

  line("\nLibraries (* = what the dynamic loader picks)");
  if (inv.libraries.empty()) line("  none found");
  for (const auto& l : inv.libraries)
    line(fmt::format("  {} {:<9} {:<10} {}  [{}]  via {}", l.loader_pick ? "*" : " ", l.name, or_dash(l.version), l.path,
                     l.version_source, join(l.found_via, ", ")));

  line("\nPython");
  if (inv.pythons.empty()) line("  none probed");
  for (const auto& p : inv.pythons) {
    line(fmt::format("  {} {} ({}, {})  via {}", p.interpreter, or_dash(p.version), or_dash(p.kind), or_dash(p.prefix),
                     join(p.found_via, ", ")));
    if (!p.error.empty()) {
      line("    error: " + p.error);
      continue;
    }
    if (!p.torch_import_error.empty()) line("    import torch FAILED: " + p.torch_import_error);
    else if (!p.torch_installed) line("    torch: not installed");
    else {
      line(fmt::format("    torch {} cuda {} cudnn {} nccl {} cxx11abi {}  {}", p.torch_version, or_dash(p.torch_cuda),
                       or_dash(p.torch_cudnn), or_dash(p.torch_nccl),
                       p.torch_cxx11_abi ? (*p.torch_cxx11_abi ? "1" : "0") : "-", p.torch_path));
      line(fmt::format("    cuda available: {}{}", p.cuda_available ? (*p.cuda_available ? "yes" : "no") : "-",
                       p.cuda_error.empty() ? "" : " (" + p.cuda_error + ")"));
      if (!p.torch_arch_list.empty()) line("    archs: " + join(p.torch_arch_list, " "));
      std::vector<std::string> cuda_libs;
      for (const auto& m : p.mapped_libraries)
        if (verbose || is_stack_library(base_name_of(m))) cuda_libs.push_back(m);
      if (!cuda_libs.empty()) line("    loaded: " + join(cuda_libs, "\n            "));
    }
    std::vector<std::string> pk;
    for (const auto& [n, v] : p.packages) pk.push_back(n + " " + v);
    if (!pk.empty()) line("    packages: " + join(pk, ", "));
  }

  line("\nCompilers");
  for (const auto& c : inv.compilers) line(fmt::format("  {:<11} {:<8} {}  ({})", c.name, or_dash(c.version), c.path, c.source));
  line("  nvcc host compiler: " + or_dash(inv.nvcc_host_compiler) +
       (inv.nvcc_host_compiler_source.empty() ? "" : " (" + inv.nvcc_host_compiler_source + ")"));

  if (!s.environment.empty()) {
    line("\nEnvironment");
    for (const auto& [k, v] : s.environment) line("  " + k + "=" + v);
  }
  if (!inv.notes.empty()) {
    line("\nNotes");
    for (const auto& n : inv.notes) line("  " + n);
  }
  return o;
}

}  // namespace gpucheck::render

namespace gpucheck::render::text {

// `env`: the inventory summary, each toolkit with the host compiler verdict of the report's
// "host_compiler" section; then the report's notes.
void env(const model::Report& r, std::ostream& out, const RenderOptions& o) {
  const std::map<std::string, std::string> fits = model::host_compiler_fits(r);
  std::map<std::string, std::string> brief_fits;  // "gcc 12.2.0 is within 6 .. 15" when inside, else as is
  for (const auto& [root, fit] : fits)
    brief_fits[root] = starts_with(fit, "inside (") && fit.back() == ')' ? fit.substr(8, fit.size() - 9) : fit;
  if (!r.inventory.is_null()) {
    inventory::Inventory inv;
    inventory::from_json(r.inventory, inv);
    // The first screen is the summary; -v is every toolkit, library, Python and variable.
    out << (o.verbose ? render::render_summary(inv, true, fits) : render::render_brief(inv, brief_fits));
  }
  for (const auto& n : r.notes) out << "note: " << n << "\n";
}

}  // namespace gpucheck::render::text
