// Named hangs (runner/probe_runner.h, probe::phase()): a probe killed at its timeout is reported with the
// phase it was in, for how long, and the GPUs and ranks it had reached, in every report format. The probe
// is gpucheck selftest's hang-probe (selftest/hang_probe.cpp): it goes through four phases and blocks in
// "ncclAllReduce 1 GiB, step 12".
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "core/rule_switch.h"
#include "render/render.h"
#include "model/report.h"
#include "runner/probe_runner.h"

namespace gpucheck::runner {
namespace {

ProbeSpec hang_probe() {
  ProbeSpec s;
  s.id = "selftest.hang";
  s.title = "a probe that hangs in a named phase";
  s.executable = std::string(GPUCHECK_STAGE_PROBES) + "/selftest/hang-probe";
  return s;
}

Finding run_hung(double timeout) {
  RunOptions o;
  o.timeout_s = timeout;
  o.kill_grace_s = 0.5;
  return run_probe(hang_probe(), o);
}

TEST(NamedHang, TheTimeoutNamesThePhaseHowLongAndWhatItReached) {
  Finding f = run_hung(2.0);
  EXPECT_EQ(f.status, Status::kError);
  EXPECT_EQ(f.summary.rfind("timeout in phase 'ncclAllReduce 1 GiB, step 12' (", 0), 0u) << f.summary;
  EXPECT_NE(f.summary.find(" s in it; GPUs reached: 0,1,2,3; ranks reached: 0,1,2,3): no result within 2 s (killed)"),
            std::string::npos) << f.summary;
  EXPECT_EQ(f.evidence.at("phase"), "ncclAllReduce 1 GiB, step 12");
  EXPECT_EQ(f.evidence.at("gpus_reached"), "0,1,2,3");
  EXPECT_EQ(f.evidence.at("ranks_reached"), "0,1,2,3");
  double in_phase = std::stod(f.evidence.at("phase_for_s"));
  EXPECT_GT(in_phase, 0.2);  // the phase began soon after the start and lasted until the kill at 2 s
  EXPECT_LE(in_phase, 2.05);
  EXPECT_EQ(f.details["phase"]["phases_seen"], 4);
  ASSERT_EQ(f.metrics.size(), 1u);
  EXPECT_EQ(f.metrics[0].name, "seconds in phase: ncclAllReduce 1 GiB, step 12");
  EXPECT_EQ(f.fixes.at(0).commands.at(0), "gpucheck run --only selftest.hang --level standard --timeout 4");
}

TEST(NamedHang, ThePhaseShowsInEveryFormat) {
  model::Report r;
  r.meta.command = "run";
  r.section("probes").findings.push_back(run_hung(2.0));
  render::RenderOptions o;
  o.width = 200;
  for (auto format : {render::Format::kText, render::Format::kJson, render::Format::kMarkdown, render::Format::kJunit,
                      render::Format::kPrometheus, render::Format::kHtml}) {
    std::ostringstream out;
    render::render(r, format, out, o);
    EXPECT_NE(out.str().find("ncclAllReduce 1 GiB, step 12"), std::string::npos)
        << "format " << static_cast<int>(format) << ":\n" << out.str().substr(0, 3000);
  }
}

TEST(NamedHang, APhaseFinishedProbePassesAndLeavesNoPhaseFiles) {
  RunOptions o;
  o.timeout_s = 30;
  o.extra_args = {"--no-hang"};
  Finding f = run_probe(hang_probe(), o);
  EXPECT_EQ(f.status, Status::kPass) << f.summary;
  EXPECT_EQ(f.evidence.count("phase"), 0u);  // a phase is evidence of a hang or crash, not of a pass
}

TEST(NamedHang, GarbageInThePhaseFileIsNoPhase) {
  EXPECT_FALSE(parse_phase("").has_value());
  EXPECT_FALSE(parse_phase("{\"phase\": 3}").has_value());
  EXPECT_FALSE(parse_phase("[\"phase\"]").has_value());
  auto p = parse_phase(R"({"phase": "x", "gpus_reached": [1, "two", 3], "seq": 2})");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->gpus, (std::vector<int>{1, 3}));
  EXPECT_EQ(p->seq, 2u);
}

TEST(NamedHang, WithoutTheRuleTheHangIsABareTimeout) {
  setenv(kDisableRuleEnv, "runner.timeout_phase", 1);
  Finding f = run_hung(1.0);
  unsetenv(kDisableRuleEnv);
  EXPECT_EQ(f.summary, "timeout (it reported no phase): no result within 1 s (killed)");
}

}  // namespace
}  // namespace gpucheck::runner
