// `gpucheck selftest`: options only; commands::selftest injects the faults and judges the rules.
#include "cli/command.h"
#include "commands/selftest.h"

namespace gpucheck::cli {
namespace {

struct SelftestArgs {
  std::vector<std::string> disable;
};

Runner setup_selftest(CLI::App& sub, GlobalOptions& g) {
  auto a = std::make_shared<SelftestArgs>();
  sub.add_option("--disable", a->disable,
                 "Remove this rule's check for the run (comma-separated rule ids): the selftest must then fail "
                 "naming it. For proving the selftest itself; never for acceptance")
      ->type_name("RULE,...");
  sub.footer(R"(Run it first on every node to be accepted: it proves, without touching the GPUs, that each
failing verdict gpucheck can give actually fires here. Faults are injected where each
rule reads its facts: a stand-in libnvidia-ml.so.1 (ECC, row remapping, retired pages,
PCIe downgrade, lost GPU, throttling, Xid events) for device.health; a probe that hangs
in a named phase for the runner's timeout; a kernel log with a real Xid 79 line while a
probe ran; hand-made metrics for the threshold rules; corrupted GEMM, memory-pattern,
copy and collective results for the probes' numeric checks. One line per rule: fired or
not, with the finding it produced. Exit 0 only when every rule fired on its fault and
every clean input passed; 1 names the rule that did not.

Examples:
  gpucheck selftest
  gpucheck selftest --json --out selftest.json
  gpucheck selftest --disable health.remap_pending     # must exit 1 naming it)");
  return [a, &g] {
    model::Report rep = commands::selftest(a->disable, new_report("selftest", g));
    return emit_report(rep, g);
  };
}

Registration selftest_registration({"selftest", "Prove every acceptance rule fires on injected faults (no GPU touched)", 9, &setup_selftest});

}  // namespace
}  // namespace gpucheck::cli
