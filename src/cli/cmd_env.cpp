#include "cli/command.h"
#include "core/errors.h"
#include "report/env_report.h"

namespace gpucheck::cli {
namespace {

struct EnvArgs {
  report::InventorySource source;
  bool no_python = false;
};

Runner setup_env(CLI::App& sub, GlobalOptions& g) {
  auto a = std::make_shared<EnvArgs>();
  add_inventory_source(sub, a->source);
  sub.add_flag("--no-python", a->no_python, "Skip the Python probes (fast)");
  sub.footer(
      "Lists the driver, GPUs (NVML), every CUDA toolkit and which one PATH / CMake / torch cpp_extension would\n"
      "pick, every copy of cudart/cuBLAS/cuDNN/NCCL/NVRTC/nvJitLink with its version, Python environments with\n"
      "torch facts and the libraries `import torch` really mapped, compilers and system, and whether each\n"
      "toolkit's nvcc takes the host compiler it would use. --json prints the report, the inventory under\n"
      "\"inventory\" (schemas: share/gpucheck/schema/report.schema.json, inventory.schema.json); --from FILE\n"
      "shows a saved inventory or report again. No GPU required.");
  return [a, &g] {
    report::EnvRequest req;
    req.source = a->source;
    req.collect.python = !a->no_python;
    req.collect.timings = g.verbose;
    report::Report rep = report::env_report(req, new_report("env", g));
    // env describes; it does not judge the machine: its exit code stays 0 whatever the host compiler
    // section says (doctor is the command that exits 1 on a problem).
    rep.meta.exit.informational = true;
    return emit_report(rep, g);
  };
}

Registration reg({"env", "Inventory of the GPU stack (driver, GPUs, toolkits, libraries, Python, compilers)", 20,
                  &setup_env});

}  // namespace
}  // namespace gpucheck::cli
