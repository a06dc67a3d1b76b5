// gpucheck use-cuda VERSION: shell exports that switch this shell to one installed toolkit.
#include <cstdlib>
#include <iostream>

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
A version not installed here prints nothing on stdout and, on stderr, the ways to install it beside the
others into /opt/cuda-X.Y (NVIDIA's conda label, the runfile with --toolkit, then its modulefile); exit 1.

Example:
  eval "$(gpucheck use-cuda 11.8)")X");
  return [req, &g] {
    // PATH and LD_LIBRARY_PATH are this shell's, so `eval` keeps everything else the user had.
    report::UseCudaRequest r = *req;
    r.path = getenv_or_empty("PATH");
    r.ld_library_path = getenv_or_empty("LD_LIBRARY_PATH");
    r.tools.modules = !getenv_or_empty("LMOD_CMD").empty() ? "lua" : !getenv_or_empty("MODULESHOME").empty() ? "tcl" : "";
    r.tools.program = render_options(g, 1).program;
    report::Report rep = report::use_cuda_report(r, new_report("use-cuda", g));
    // Not installed: stdout stays empty (`eval` runs nothing) and the ways go to the terminal on stderr.
    if (!rep.findings().empty() && selected_format(g) == render::Format::kText && g.out.empty()) {
      render::render(rep, render::Format::kText, std::cerr, render_options(g, 2));
      return report::exit_code(rep);
    }
    return emit_report(rep, g);
  };
}

Registration reg({"use-cuda", "Print shell exports that select one installed CUDA toolkit", 31, &setup_use_cuda});

}  // namespace
}  // namespace gpucheck::cli
