#include "cli/command.h"
#include "commands/tool.h"

namespace gpucheck::cli {
namespace {

Runner setup_version(CLI::App& sub, GlobalOptions& g) {
  sub.footer("Prints the gpucheck version and how it was built (CUDA, NCCL, LibTorch support).");
  return [&g] {
    model::Report rep = commands::version(new_report("version", g));
    return emit_report(rep, g);
  };
}

Registration version_registration({"version", "Version and build configuration", 90, &setup_version});

}  // namespace
}  // namespace gpucheck::cli
