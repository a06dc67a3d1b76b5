#include "render/inventory_text.h"

#include <fmt/format.h>

#include "core/cuda_version.h"
#include "core/text.h"
#include "render/text_blocks.h"

namespace gpucheck::inventory {

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
}  // namespace

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

}  // namespace gpucheck::inventory

namespace gpucheck::render::text {

// `env`: the inventory summary, each toolkit with the host compiler verdict of the report's
// "host_compiler" section; then the report's notes.
void env(const report::Report& r, std::ostream& out, const RenderOptions& o) {
  const std::map<std::string, std::string> fits = model::host_compiler_fits(r);
  if (!r.inventory.is_null()) {
    inventory::Inventory inv;
    inventory::from_json(r.inventory, inv);
    out << inventory::render_summary(inv, o.verbose, fits);
  }
  for (const auto& n : r.notes) out << "note: " << n << "\n";
}

}  // namespace gpucheck::render::text
