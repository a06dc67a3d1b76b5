// Libraries on LD_LIBRARY_PATH or in the ld.so cache that shadow the ones torch bundles.
#include "checks/doctor/fix_commands.h"
#include "checks/doctor/rules.h"
#include "core/text.h"
#include "inventory/library_version.h"
#include "knowledge/version.h"
#include "platform/root_fs.h"

namespace gpucheck::compat {
namespace {

/// torch.backends.cudnn.version(): 8700 -> 8.7.0, 90100 -> 9.1.0 (the inventory's cuDNN decoding); a value
/// that is already dotted stays as it is.
std::string decode_cudnn(const std::string& raw) {
  if (raw.empty() || raw.size() > 12 || raw.find_first_not_of("0123456789") != std::string::npos) return raw;
  const long long v = std::stoll(raw);
  return v > 0 ? inventory::decode_version("cudnn", {v}) : "";
}


bool has(const std::vector<std::string>& v, const std::string& s) {
  for (const auto& x : v)
    if (x == s) return true;
  return false;
}

/// What torch needs of this library: the version it bundles / was built with, and whether `found` is too old.
bool incompatible(const std::string& name, const std::string& found, const std::string& bundled) {
  auto f = Version::parse(found), b = Version::parse(bundled);
  if (!f || !b) return false;
  if (name == "cudnn") return f->major() != b->major() || f->minor() < b->minor();  // torch's own cuDNN check
  return f->major() != b->major() || f->compare(*b) < 0;
}

std::string bundled_version(const inventory::PythonEnv& py, const std::string& name) {
  if (name == "cudnn") return decode_cudnn(py.torch_cudnn);
  if (name == "nccl") return py.torch_nccl;
  const char* pkg = name == "cublas" ? "nvidia-cublas-cu" : name == "cudart" ? "nvidia-cuda-runtime-cu" : nullptr;
  if (!pkg) return "";
  for (const auto& [n, v] : py.packages)
    if (starts_with(n, pkg)) return v;
  return "";
}

}  // namespace

void check_library_shadowing(const DoctorContext& ctx, std::vector<Finding>& out) {
  if (!ctx.python || !ctx.python->torch_installed || ctx.torch_cuda().empty()) return;
  const auto& py = *ctx.python;
  for (const auto& lib : ctx.inv.libraries) {
    bool via_ld_path = has(lib.found_via, "LD_LIBRARY_PATH");
    bool via_cache = has(lib.found_via, "ld.so.cache");
    if (!via_ld_path && !via_cache) continue;
    bool mapped = has(py.mapped_libraries, lib.path);
    if (!mapped && !lib.loader_pick) continue;
    std::string bundled = bundled_version(py, lib.name);
    if (bundled.empty() || !incompatible(lib.name, lib.version, bundled)) continue;

    Finding f;
    f.id = "libs.shadowed_" + lib.name;
    f.status = mapped ? Status::kFail : Status::kWarn;
    f.title = std::string(mapped ? "torch loads " : "The loader would give torch ") + lib.name + " " + lib.version +
              " from " + inventory::parent_dir(lib.path) + " instead of its own " + bundled;
    f.evidence = {{lib.name + " found", lib.version + " at " + lib.path,
                   join(lib.found_via, ", ") + (lib.version_source.empty() ? "" : "; version: " + lib.version_source)},
                  {lib.name + " torch was built with", bundled, ctx.python_label()}};
    if (mapped) f.evidence.push_back({"mapped after import torch", lib.path, "/proc/self/maps of " + py.interpreter});
    f.explanation = lib.name == "cudnn"
                        ? "torch requires the same cuDNN major and at least its minor: \"cuDNN version "
                          "incompatibility: PyTorch was compiled against " + bundled + " but found runtime version " +
                              lib.version + "... Looks like your LD_LIBRARY_PATH contains incompatible version of cudnn\"."
                        : "An older " + lib.name + " than torch bundles is found first; symbols torch needs may be "
                          "missing or behave differently (e.g. NCCL 2.18.1's ncclUnhandledCudaError).";
    int rank = 1;
    if (via_ld_path) {
      std::string dir = inventory::parent_dir(lib.path);
      std::vector<std::string> kept;
      for (const auto& d : split(ctx.env("LD_LIBRARY_PATH"), ':'))
        if (!d.empty() && d != dir && d != dir + "/") kept.push_back(d);
      f.fixes.push_back({rank++, "Drop " + dir + " from LD_LIBRARY_PATH for torch programs",
                         {kept.empty() ? "unset LD_LIBRARY_PATH" : "export LD_LIBRARY_PATH=" + shell_quote(join(kept, ":"))},
                         "affects this shell only; programs that needed that directory must set it themselves"});
    }
    if (via_cache) {
      f.fixes.push_back({rank++, "Remove " + inventory::parent_dir(lib.path) + " from the system loader configuration",
                         {"grep -rl " + shell_quote(inventory::parent_dir(lib.path)) + " /etc/ld.so.conf /etc/ld.so.conf.d/",
                          "sudo ldconfig"},
                         "needs root: delete the line the grep finds, then rebuild the cache; affects every program"});
    }
    out.push_back(std::move(f));
  }
}

}  // namespace gpucheck::compat
