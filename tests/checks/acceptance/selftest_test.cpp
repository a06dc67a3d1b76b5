// gpucheck selftest end to end: on this machine (no GPU) every acceptance rule fires on its injected fault
// and every clean input passes (exit 0); removing one rule's check, with --disable or the environment hook,
// makes it exit 1 naming that rule; `gpucheck run` refuses to start with the hook set.
#include <gtest/gtest.h>

#include <set>

#include <nlohmann/json.hpp>

#include "core/subprocess.h"

namespace gpucheck::acceptance {
namespace {

SubprocessResult gpucheck(std::vector<std::string> args, std::map<std::string, std::string> env = {}) {
  args.insert(args.begin(), std::string(GPUCHECK_STAGE_BIN) + "/gpucheck");
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(300);
  o.set_env = std::move(env);
  o.unset_env = {"GPUCHECK_SELFTEST_DISABLE", "GPUCHECK_NVML", "CUDA_VISIBLE_DEVICES"};
  return run_subprocess(args, o);
}

nlohmann::json findings(const SubprocessResult& r) {
  auto doc = nlohmann::json::parse(r.out);
  for (const auto& s : doc["sections"])
    if (s["name"] == "selftest") return s["findings"];
  return nlohmann::json::array();
}

TEST(Selftest, EveryRuleFiresAndEveryCleanInputPasses) {
  auto r = gpucheck({"selftest", "--json"});
  ASSERT_TRUE(r.exited) << r.describe() << r.err;
  auto rows = findings(r);
  std::set<std::string> passed;
  for (const auto& f : rows) {
    EXPECT_EQ(f["status"], "pass") << f.dump(1);
    passed.insert(f["id"].get<std::string>());
  }
  EXPECT_EQ(r.exit_code, 0) << r.out.substr(0, 4000);
  // Every failing rule of device.health, the thresholds, the probes' numeric checks, the runner's timeout
  // and the kernel-log rule, each named.
  for (const char* id :
       {"health.ecc_uncorrected", "health.ecc_lifetime", "health.retired_pending", "health.remap_pending",
        "health.remap_failed", "health.inforom_corrupted", "health.pcie_width", "health.pcie_gen", "health.gpu_lost",
        "health.throttle", "health.xid", "runner.timeout", "runner.timeout_phase", "kernel_log.xid_fails_node",
        "thresholds.reference_share", "thresholds.peer_outlier", "thresholds.baseline", "thresholds.nonzero",
        "probe.gemm_exact", "probe.gemm_tolerance", "probe.pattern_verify", "probe.pattern_verify.2",
        "probe.collective_bits", "clean.health", "clean.runner", "clean.kernel_log", "clean.thresholds"})
    EXPECT_TRUE(passed.count(std::string("selftest.") + id)) << id;
  EXPECT_GE(rows.size(), 32u);
}

TEST(Selftest, RemovingOneRulesCheckFailsNamingIt) {
  auto r = gpucheck({"selftest", "--json", "--disable", "health.remap_pending"});
  ASSERT_TRUE(r.exited) << r.describe() << r.err;
  EXPECT_EQ(r.exit_code, 1);
  std::vector<std::string> failed;
  for (const auto& f : findings(r))
    if (f["status"] != "pass") failed.push_back(f["id"].get<std::string>() + ": " + f["summary"].get<std::string>());
  ASSERT_EQ(failed.size(), 1u) << ::testing::PrintToString(failed);
  EXPECT_EQ(failed[0].rfind("selftest.health.remap_pending: rule health.remap_pending did not fire on stand-in NVML "
                            "fault 'remap_pending'", 0),
            0u) << failed[0];
}

TEST(Selftest, TheEnvironmentHookRemovesAProbesNumericCheck) {
  auto r = gpucheck({"selftest", "--json"}, {{"GPUCHECK_SELFTEST_DISABLE", "probe.collective_bits"}});
  ASSERT_TRUE(r.exited) << r.describe() << r.err;
  EXPECT_EQ(r.exit_code, 1);
  std::vector<std::string> failed;
  for (const auto& f : findings(r))
    if (f["status"] != "pass") failed.push_back(f["id"].get<std::string>());
  EXPECT_EQ(failed, std::vector<std::string>{"selftest.probe.collective_bits"});
}

TEST(Selftest, AnUnknownRuleIsBadInput) {
  auto r = gpucheck({"selftest", "--disable", "health.nonsense"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("not a rule the selftest can remove"), std::string::npos) << r.err;
}

TEST(Selftest, RunRefusesToStartWithTheHookSet) {
  auto r = gpucheck({"run", "--only", "host.info", "--no-report", "--no-inventory"},
                    {{"GPUCHECK_SELFTEST_DISABLE", "health.remap_pending"}});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("GPUCHECK_SELFTEST_DISABLE=health.remap_pending is set"), std::string::npos) << r.err;
}

// The kernel-log wiring of `gpucheck run`: a saved log is read after the probes; its lines from years ago
// are outside the run's window, counted and not judged; an unreadable file is bad input.
TEST(RunKernelLog, ASavedLogIsReadAndItsOldLinesAreNotJudged) {
  std::string log = std::string(GPUCHECK_TEST_DATA) + "/kernel_logs/gpud-46.dmesg-ctime";
  auto r = gpucheck({"run", "--only", "host.info", "--no-report", "--no-inventory", "--json", "--kernel-log", log});
  ASSERT_TRUE(r.exited) << r.describe() << r.err;
  EXPECT_EQ(r.exit_code, 0) << r.out.substr(0, 3000);
  auto doc = nlohmann::json::parse(r.out);
  nlohmann::json kernel;
  for (const auto& s : doc["sections"])
    if (s["name"] == "kernel_log") kernel = s["findings"].at(0);
  ASSERT_FALSE(kernel.is_null()) << r.out.substr(0, 3000);
  EXPECT_EQ(kernel["id"], "kernel.log");
  EXPECT_EQ(kernel["status"], "pass");
  bool counted = false;
  for (const auto& e : kernel["evidence"])
    counted = counted || (e["what"] == "before or after the run" && e["value"] == "4 NVRM line(s), not judged");
  EXPECT_TRUE(counted) << kernel.dump(1);

  auto bad = gpucheck({"run", "--only", "host.info", "--no-report", "--kernel-log", "/nonexistent/kmsg.log"});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("--kernel-log /nonexistent/kmsg.log: not a readable file"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace gpucheck::acceptance
