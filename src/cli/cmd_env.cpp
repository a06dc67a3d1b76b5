#include "cli/command.h"
#include "commands/env.h"

namespace gpucheck::cli {
namespace {

struct EnvArgs {
  commands::InventorySource source;
  bool no_python = false;
  bool paste = false;
};

Runner setup_env(CLI::App& sub, GlobalOptions& g) {
  auto a = std::make_shared<EnvArgs>();
  add_inventory_source(sub, a->source);
  sub.add_flag("--no-python", a->no_python, "Skip the Python probes (fast)");
  sub.add_flag("--paste", a->paste,
               "For a bug report: the same as --format markdown (every fact collect_env prints, and more, in a "
               "fenced block an issue renders)");
  sub.footer(
      "The first screen is the facts that decide compatibility: system and glibc, driver, GPUs, the CUDA\n"
      "toolkits and which one PATH / CMake / torch cpp_extension would pick, the compilers, the judged Python\n"
      "with torch's CUDA, cuDNN and NCCL and whether CUDA is available, its packages. -v lists everything:\n"
      "every copy of cudart/cuBLAS/cuDNN/NCCL/NVRTC/nvJitLink with its version, every Python environment\n"
      "and the libraries `import torch` really mapped, each toolkit's host compiler range, the variables.\n"
      "--paste (--format markdown) is that for an issue: paste it where collect_env's output is asked for.\n"
      "--json prints the report, the inventory under \"inventory\" (schemas: share/gpucheck/schema/\n"
      "report.schema.json, inventory.schema.json); --from FILE shows a saved inventory or report again.\n"
      "No GPU required.\n"
      "\n"
      "Examples:\n"
      "  gpucheck env\n"
      "  gpucheck env --paste > env.md       # then paste env.md into the issue");
  return [a, &g] {
    if (a->paste) g.format = "markdown";
    commands::EnvRequest req;
    req.source = a->source;
    req.collect.python = !a->no_python;
    req.collect.timings = g.verbose;
    model::Report rep = commands::env(req, new_report("env", g));
    return emit_report(rep, g);
  };
}

Registration env_registration({"env", "Inventory of the GPU stack (driver, GPUs, toolkits, libraries, Python, compilers)", 20,
                  &setup_env});

}  // namespace
}  // namespace gpucheck::cli
