#include <iostream>

#include "cli/command.h"
#include "inventory/collect.h"
#include "render/inventory_text.h"
#include "inventory/version_cache.h"

namespace gpucheck::cli {
namespace {

Runner setup_env(CLI::App& sub, GlobalOptions& g) {
  auto o = std::make_shared<inventory::CollectOptions>();
  auto no_python = std::make_shared<bool>(false);
  auto no_cache = std::make_shared<bool>(false);
  sub.add_option("--root", o->root, "Inspect a mounted image or chroot: paths resolved under DIR, nothing executed")
      ->type_name("DIR");
  sub.add_option("--python", o->pythons, "Also probe this interpreter (repeat the option for more)")
      ->type_name("PATH")
      ->allow_extra_args(false);
  sub.add_flag("--no-python", *no_python, "Skip the Python probes (fast)");
  sub.add_flag("--no-cache", *no_cache,
               "Read every library version afresh (default: reuse readings of unchanged files from "
               "~/.cache/gpucheck/library-versions.json)");
  sub.footer(
      "Lists the driver, GPUs (NVML), every CUDA toolkit and which one PATH / CMake / torch cpp_extension would\n"
      "pick, every copy of cudart/cuBLAS/cuDNN/NCCL/NVRTC/nvJitLink with its version, Python environments with\n"
      "torch facts and the libraries `import torch` really mapped, compilers and system. --json prints the\n"
      "document (schema: share/gpucheck/schema/inventory.schema.json). No GPU required.");
  return [o, no_python, no_cache, &g] {
    o->python = !*no_python;
    if (!*no_cache) o->version_cache = inventory::default_version_cache_file();
    o->timings = g.verbose;
    auto inv = inventory::collect(*o);
    if (g.json) {
      nlohmann::json j;
      inventory::to_json(j, inv);
      emit_document(g, j.dump(2) + "\n");
    } else {
      std::string text = inventory::render_summary(inv, g.verbose);
      emit_document(g, text);
    }
    return 0;
  };
}

Registration reg({"env", "Inventory of the GPU stack (driver, GPUs, toolkits, libraries, Python, compilers)", 20,
                  &setup_env});

}  // namespace
}  // namespace gpucheck::cli
