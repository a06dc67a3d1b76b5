// gpucheck use-cuda VERSION: shell exports that switch this shell to one installed toolkit.
#include <iostream>

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
A version not installed here prints nothing on stdout and, on stderr, the ways to install it beside the
others into /opt/cuda-X.Y (NVIDIA's conda label, the runfile with --toolkit, then its modulefile); exit 1.

Example:
  eval "$(gpucheck use-cuda 11.8)")X");
  return [req, &g] {
    commands::UseCudaRequest r = *req;
    r.program = render_options(g, 1).program;
    model::Report rep = commands::use_cuda(r, new_report("use-cuda", g));
    // Not installed: stdout stays empty (`eval` runs nothing) and the ways go to the terminal on stderr.
    if (!rep.findings().empty() && selected_format(g) == render::Format::kText && g.out.empty()) {
      render::render(rep, render::Format::kText, std::cerr, render_options(g, 2));
      return model::exit_code(rep);
    }
    return emit_report(rep, g);
  };
}

Registration use_cuda_registration({"use-cuda", "Print shell exports that select one installed CUDA toolkit", 31, &setup_use_cuda});

}  // namespace
}  // namespace gpucheck::cli
