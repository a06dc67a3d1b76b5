// gpucheck use-cuda VERSION: shell exports that switch this shell to one installed toolkit.
#include "cli/command.h"
#include "commands/envtools.h"

namespace gpucheck::cli {
namespace {

Runner setup_use_cuda(CLI::App& sub, GlobalOptions& g) {
  auto req = std::make_shared<commands::UseCudaRequest>();
  sub.add_option("VERSION", req->version, "11.8, 12 (newest 12.x), 12.1.105, or a toolkit root")->required();
  add_inventory_source(sub, req->source, /*python=*/false);
  sub.footer(R"X(Prints CUDA_HOME, CUDA_PATH, PATH and LD_LIBRARY_PATH exports; other toolkits' directories are
removed from PATH and LD_LIBRARY_PATH. Values are single-quoted for POSIX shells. --json prints the report
instead (the exports under details).

Example:
  eval "$(gpucheck use-cuda 11.8)")X");
  return [req, &g] {
    report::Report rep = commands::use_cuda(*req, new_report("use-cuda", g));
    return emit_report(rep, g);
  };
}

Registration reg({"use-cuda", "Print shell exports that select one installed CUDA toolkit", 31, &setup_use_cuda});

}  // namespace
}  // namespace gpucheck::cli
