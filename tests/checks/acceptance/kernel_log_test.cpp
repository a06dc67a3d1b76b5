// Kernel-log evidence (checks/acceptance/kernel_log.h) on saved logs with real NVRM lines from public
// reports (tests/data/kernel_logs/, each file names its thread): every line lands on the probe that was
// running, with NVIDIA's meaning and action from data/kernel/xid.json, and an Xid that needs a reset or a
// reboot fails a probe that passed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>

#include "checks/acceptance/kernel_log.h"
#include "checks/acceptance/xid_table.h"
#include "core/errors.h"

namespace gpucheck::acceptance {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(GPUCHECK_TEST_DATA) + "/kernel_logs/" + name);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_FALSE(s.str().empty()) << name;
  return s.str();
}

const XidTable& table() {
  static XidTable t = load_xid_table(std::string(GPUCHECK_SOURCE_DIR) + "/data/kernel/xid.json");
  return t;
}

Finding passed(const std::string& id) {
  Finding f;
  f.id = id;
  f.status = Status::kPass;
  f.summary = "all checks passed";
  return f;
}

ProbeWindow mono(double a, double b) { return {a, b, 0, 0}; }

double local(int y, int mon, int d, int h, int m, int s) {
  std::tm tm{};
  tm.tm_year = y - 1900, tm.tm_mon = mon - 1, tm.tm_mday = d, tm.tm_hour = h, tm.tm_min = m, tm.tm_sec = s;
  tm.tm_isdst = -1;
  return static_cast<double>(std::mktime(&tm));
}

std::vector<std::string> evidence_named(const Finding& f, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& e : f.evidence)
    if (e.what.rfind(prefix, 0) == 0) out.push_back(e.what + " = " + e.value + " [" + e.source + "]");
  return out;
}

TEST(XidTable, HoldsNvidiasCatalogueWithSources) {
  const XidInfo* x79 = table().find(79);
  ASSERT_NE(x79, nullptr);
  EXPECT_EQ(x79->meaning, "GPU has fallen off the bus");
  EXPECT_EQ(x79->kind, "hardware");
  EXPECT_EQ(x79->immediate_action, "RESTART_BM");
  EXPECT_TRUE(x79->fails_node);
  EXPECT_NE(x79->source.find("https://docs.nvidia.com/deploy/xid-errors/"), std::string::npos);
  const XidInfo* x13 = table().find(13);
  ASSERT_NE(x13, nullptr);
  EXPECT_EQ(x13->kind, "application");
  EXPECT_FALSE(x13->fails_node);
  for (int hw : {48, 62, 64, 74, 95, 109, 119, 140}) {
    ASSERT_NE(table().find(hw), nullptr) << hw;
    EXPECT_TRUE(table().find(hw)->fails_node) << hw;
  }
  for (int benign : {13, 31, 43, 45, 63, 92, 94}) EXPECT_FALSE(table().find(benign)->fails_node) << benign;
  EXPECT_EQ(table().find(1), nullptr);  // "Unused" in the catalog
}

TEST(XidTable, RejectsAnEntryWithoutSource) {
  auto doc = nlohmann::json::parse(R"({"actions": {"IGNORE": "x"}, "xids": [{"xid": 1, "mnemonic": "M",
    "meaning": "m", "kind": "hardware", "immediate_action": "IGNORE", "fails_node": false, "source": ""}]})");
  EXPECT_THROW(parse_xid_table(doc, "t.json"), InputError);
}

TEST(KernelLog, ParsesEveryStampFormat) {
  auto lines = parse_kernel_log(
      "6,1234,5107644336,-;NVRM: Xid (PCI:0000:03:00): 79, GPU has fallen off the bus.\n"
      "[ 5107.644336] NVRM: Xid (PCI:0000:03:00): 79, GPU has fallen off the bus.\n"
      "[Fri Aug 30 11:43:14 2024] NVRM: Xid (PCI:0000:cb:00): 109, pid=1797828\n"
      "May 18 19:02:39 node7 kernel: NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus.\n"
      "Jan 18 11:38:05 localhost kernel: [ 269.516977] NVRM: GPU at 0000:01:00.0 has fallen off the bus.\n"
      "2024-08-30T11:43:14+0000 node7 kernel: NVRM: Xid (PCI:0000:cb:00): 13, x\n"
      "no stamp at all\n",
      2026);
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_DOUBLE_EQ(*lines[0].monotonic_s, 5107.644336);
  EXPECT_EQ(lines[0].message, "NVRM: Xid (PCI:0000:03:00): 79, GPU has fallen off the bus.");
  EXPECT_DOUBLE_EQ(*lines[1].monotonic_s, 5107.644336);
  EXPECT_EQ(lines[1].message, lines[0].message);
  EXPECT_DOUBLE_EQ(*lines[2].epoch_s, local(2024, 8, 30, 11, 43, 14));
  EXPECT_DOUBLE_EQ(*lines[3].epoch_s, local(2026, 5, 18, 19, 2, 39));
  EXPECT_EQ(lines[3].message, "NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus.");
  EXPECT_DOUBLE_EQ(*lines[4].monotonic_s, 269.516977);
  EXPECT_DOUBLE_EQ(*lines[5].epoch_s, 1725018194.0);  // 2024-08-30T11:43:14Z
  EXPECT_EQ(lines[5].message, "NVRM: Xid (PCI:0000:cb:00): 13, x");
  EXPECT_FALSE(lines[6].monotonic_s || lines[6].epoch_s);
}

// chia-gigahorse#301: Xid 31 during the first probe, Xid 62 (a halted micro-controller: reset the GPU) and
// Xid 45 during the second, more Xid 45 during the third.
TEST(KernelLog, AttachesEachLineToTheProbeThatWasRunning) {
  auto events = nvidia_events(parse_kernel_log(fixture("chia-gigahorse-301.dmesg"), 2024), table());
  ASSERT_EQ(events.size(), 6u);  // the "GPU at" header and the sched line are not errors
  std::vector<Finding> f = {passed("kernels.adam"), passed("device.memory"), passed("cublas.gemm")};
  auto ev = attach_kernel_log(f, {mono(14300, 14330), mono(14360, 14372.25), mono(14373, 14378)}, events, "dmesg.log");
  EXPECT_EQ(ev.attached, 5u);
  EXPECT_EQ(ev.outside, 1u);  // 14380.3: after the last probe's end + 2 s

  EXPECT_EQ(f[0].status, Status::kWarn) << f[0].summary;  // Xid 31: NVIDIA says restart the application
  auto e0 = evidence_named(f[0], "kernel log: ");
  ASSERT_EQ(e0.size(), 1u);
  EXPECT_NE(e0[0].find("kernel log: Xid 31 (GPU memory page fault) = [14328.198504] NVRM: Xid (PCI:0000:0a:00): 31"),
            std::string::npos) << e0[0];
  EXPECT_NE(e0[0].find("[dmesg.log; application fault; NVIDIA's action: restart the application"), std::string::npos) << e0[0];

  EXPECT_EQ(f[1].status, Status::kFail);  // Xid 62 fails the node although the probe passed
  EXPECT_EQ(f[1].summary, "the kernel logged Xid 62 (Internal micro-controller halt (newer drivers)) on 0000:0a:00 while "
                          "it ran (the probe itself passed: all checks passed)");
  ASSERT_EQ(evidence_named(f[1], "kernel log: ").size(), 3u);  // 62 and two 45s (14372.20 < 14372.25)
  ASSERT_FALSE(f[1].fixes.empty());
  EXPECT_NE(f[1].fixes[0].summary.find("reset the GPU"), std::string::npos);
  ASSERT_EQ(f[1].details["kernel_log"].size(), 3u);
  EXPECT_EQ(f[1].details["kernel_log"][0]["xid"], 62);
  EXPECT_EQ(f[1].details["kernel_log"][0]["nvidia_action"], "RESET_GPU");
  EXPECT_EQ(f[1].details["kernel_log"][0]["pci"], "0000:0a:00");

  EXPECT_EQ(f[2].status, Status::kWarn);  // Xid 45 at 14376.3
  EXPECT_EQ(evidence_named(f[2], "kernel log: ").size(), 1u);
}

// open-gpu-kernel-modules#1151: journalctl lines (no year) with Xid 79 and the driver's own "fallen off".
TEST(KernelLog, Xid79FromTheJournalFailsAPassedProbe) {
  double t = local(2026, 5, 18, 19, 2, 39);
  auto events = nvidia_events(parse_kernel_log(fixture("open-gpu-kernel-modules-1151.journal"), 2026), table());
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].xid.value_or(0), 79);
  EXPECT_FALSE(events[1].xid.has_value());
  EXPECT_TRUE(events[1].fails_node);
  std::vector<Finding> f = {passed("host.info"), passed("device.copy")};
  ProbeWindow before{0, 0, t - 30, t - 10}, during{0, 0, t - 5, t + 3};
  auto ev = attach_kernel_log(f, {before, during}, events, "journalctl -k");
  EXPECT_EQ(ev.attached, 2u);
  EXPECT_EQ(f[0].status, Status::kPass);
  EXPECT_EQ(f[1].status, Status::kFail);
  EXPECT_NE(f[1].summary.find("Xid 79 (GPU has fallen off the bus) on 0000:2b:00"), std::string::npos) << f[1].summary;
  EXPECT_NE(f[1].fixes.at(0).summary.find("reboot the node"), std::string::npos);
}

// gpud#46: dmesg --ctime; three Xid 13 (application) then Xid 109 (context-switch timeout: reset the GPU).
TEST(KernelLog, CtimeStampsAndTheRunLevelFindingForLinesBetweenProbes) {
  double t13 = local(2024, 8, 30, 11, 43, 9), t109 = local(2024, 8, 30, 11, 43, 14);
  auto events = nvidia_events(parse_kernel_log(fixture("gpud-46.dmesg-ctime"), 2024), table());
  ASSERT_EQ(events.size(), 4u);  // nvidia-peermem's ERROR is not an NVRM line
  std::vector<Finding> f = {passed("kernels.cross_entropy"), passed("stress.gemm")};
  auto ev = attach_kernel_log(f, {{0, 0, t13 - 1, t13 + 0.5}, {0, 0, t109 + 10, t109 + 20}}, events, "dmesg.log", 2.0);
  EXPECT_EQ(f[0].status, Status::kWarn);
  EXPECT_EQ(evidence_named(f[0], "kernel log: Xid 13 (Graphics Engine Exception)").size(), 3u);
  EXPECT_EQ(f[1].status, Status::kPass);
  ASSERT_EQ(ev.between.size(), 1u);  // Xid 109 fell between the two probes
  Finding run = between_probes_finding(ev, "dmesg.log");
  EXPECT_EQ(run.id, "kernel.log");
  EXPECT_EQ(run.status, Status::kFail);
  EXPECT_NE(run.summary.find("Xid 109 (Context Switch Timeout Error)"), std::string::npos) << run.summary;
}

// NVSentinel#155: the GPU lost without an Xid line, the message spread over indented continuation lines.
TEST(KernelLog, FallenOffTheBusWithoutXidFails) {
  auto events = nvidia_events(parse_kernel_log(fixture("nvsentinel-155.dmesg"), 2025), table());
  ASSERT_EQ(events.size(), 2u);
  EXPECT_TRUE(events[0].fails_node);
  EXPECT_DOUBLE_EQ(*events[0].line.monotonic_s, 1843.308145);  // the continuation keeps the stamp
  EXPECT_EQ(events[1].status, Status::kWarn);                    // "probe routine failed": a driver error
  std::vector<Finding> f = {passed("device.runtime")};
  attach_kernel_log(f, {mono(1840, 1850)}, events, "dmesg.log");
  EXPECT_EQ(f[0].status, Status::kFail);
}

TEST(KernelLog, AnXidGpucheckDoesNotKnowWarnsAndSaysSo) {
  auto events = nvidia_events(parse_kernel_log("[ 10.0] NVRM: Xid (PCI:0000:01:00): 999, something new\n", 2026), table());
  ASSERT_EQ(events.size(), 1u);
  std::vector<Finding> f = {passed("device.runtime")};
  attach_kernel_log(f, {mono(9, 11)}, events, "kmsg");
  EXPECT_EQ(f[0].status, Status::kWarn);
  EXPECT_NE(evidence_named(f[0], "kernel log: Xid 999 (not in NVIDIA's catalogue)").at(0).find("not in gpucheck's Xid table"),
            std::string::npos);
}

TEST(KernelLog, GarbageNeverCrashes) {
  std::string junk = "[[[[ 1.\n6,,,;\n[Fri Aug 99 99:99:99 2024] x\nMay 99 1:2:3\n2024-13-45T99:99:99Z NVRM: Xid (PCI:\n";
  junk += std::string(5000, '[') + "\nNVRM: Xid (" + std::string(100, 'x') + "): 5\n";
  auto lines = parse_kernel_log(junk, 2026);
  EXPECT_FALSE(lines.empty());
  EXPECT_TRUE(nvidia_events(lines, table()).empty());
}

}  // namespace
}  // namespace gpucheck::acceptance
