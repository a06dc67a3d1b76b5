// gpucheck diff A.json B.json: what differs between two saved inventories.
#include "cli/command.h"
#include "commands/diff.h"

namespace gpucheck::cli {
namespace {

Runner setup_diff(CLI::App& sub, GlobalOptions& g) {
  auto files = std::make_shared<std::vector<std::string>>();
  sub.add_option("FILES", *files, "A.json B.json: two inventories: `gpucheck env --json` output, a run report, or a bare inventory")
      ->type_name("FILE")
      ->expected(2)
      ->required()
      ->type_name("FILE");
  sub.footer(R"(Compares the driver, GPUs, CUDA toolkits, glibc, the judged Python and its torch (version,
CUDA, C++ ABI), packages, and the CUDA libraries the loader picks. A fact marked `!` can break
something (exit 1); the consequence is named where it is known (from share/gpucheck/compat: the
driver a CUDA release needs, a package's ABI break).

Exit codes: 0 no difference that matters, 1 one that matters, 2 bad input.

Examples:
  gpucheck env --json --out good.json            # on the machine where it works
  gpucheck env --json --out bad.json             # where it does not
  gpucheck diff good.json bad.json
  gpucheck diff node1.json node2.json --json)");
  return [files, &g] {
    model::Report rep = commands::diff((*files)[0], (*files)[1], new_report("diff", g));
    return emit_report(rep, g);
  };
}

Registration diff_registration({"diff", "What differs between two inventories (working vs broken env, two nodes)", 25, &setup_diff});

}  // namespace
}  // namespace gpucheck::cli
