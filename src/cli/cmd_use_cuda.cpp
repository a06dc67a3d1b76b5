// gpucheck use-cuda VERSION: shell exports that switch this shell to one installed toolkit.
#include <cstdlib>

#include "cli/command.h"
#include "report/envtools_report.h"

namespace gpucheck::cli {
namespace {

std::string getenv_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

Runner setup_use_cuda(CLI::App& sub, GlobalOptions& g) {
  auto req = std::make_shared<report::UseCudaRequest>();
  sub.add_option("VERSION", req->version, "11.8, 12 (newest 12.x), 12.1.105, or a toolkit root")->required();
  add_inventory_source(sub, req->source, /*python=*/false);
  sub.footer(R"X(Prints CUDA_HOME, CUDA_PATH, PATH and LD_LIBRARY_PATH exports; other toolkits' directories are
removed from PATH and LD_LIBRARY_PATH. Values are single-quoted for POSIX shells. --json prints the report
instead (the exports under details).

Example:
  eval "$(gpucheck use-cuda 11.8)")X");
  return [req, &g] {
    // PATH and LD_LIBRARY_PATH are this shell's, so `eval` keeps everything else the user had.
    report::UseCudaRequest r = *req;
    r.path = getenv_or_empty("PATH");
    r.ld_library_path = getenv_or_empty("LD_LIBRARY_PATH");
    report::Report rep = report::use_cuda_report(r, new_report("use-cuda", g));
    return emit_report(rep, g);
  };
}

Registration reg({"use-cuda", "Print shell exports that select one installed CUDA toolkit", 31, &setup_use_cuda});

}  // namespace
}  // namespace gpucheck::cli
