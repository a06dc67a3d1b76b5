// The runner against real child processes that crash, hang, lie and flood: every case is classified and
// the run ends within timeout + grace.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "core/files.h"
#include "core/interrupt.h"
#include "runner/probe_runner.h"
#include "runner/suite.h"

namespace gpucheck::runner {
namespace {

ProbeSpec child_spec() {
  ProbeSpec s;
  s.id = "test.child";
  s.title = "misbehaving child";
  s.executable = MISBEHAVING_PROBE;
  s.levels = {"quick", "standard", "long"};
  s.timeout_s = 10;
  return s;
}

Finding run_mode(const std::string& mode, double timeout_s = 10, double grace_s = 0.5) {
  setenv("CHILD_MODE", mode.c_str(), 1);
  RunOptions o;
  o.timeout_s = timeout_s;
  o.kill_grace_s = grace_s;
  return run_probe(child_spec(), o);
}

TEST(ProbeRunner, GoodResultIsTakenAsReported) {
  Finding r = run_mode("good");
  EXPECT_EQ(r.status, Status::kPass);
  EXPECT_EQ(r.summary, "all good");
  ASSERT_EQ(r.metrics.size(), 1u);
  EXPECT_EQ(r.metrics[0].better, "lower");
  EXPECT_EQ(r.evidence.at("k"), "v");
}

TEST(ProbeRunner, PassesProtocolArgumentsAndLevelArgs) {
  setenv("CHILD_MODE", "args", 1);
  ProbeSpec s = child_spec();
  s.level_args["long"] = {"--iterations", "100"};
  RunOptions o;
  o.level = "long";
  o.extra_args = {"a b;$(rm -rf /)"};  // reaches the child verbatim: no shell in between
  Finding r = run_probe(s, o);
  EXPECT_EQ(r.status, Status::kPass);
  EXPECT_EQ(r.summary, "--result-fd|3|--level|long|--iterations|100|a b;$(rm -rf /)");
}

TEST(ProbeRunner, SegfaultIsAnErrorNamingTheSignalWithStderrTail) {
  Finding r = run_mode("segfault");
  EXPECT_EQ(r.status, Status::kError);
  EXPECT_NE(r.summary.find("SIGSEGV"), std::string::npos) << r.summary;
  EXPECT_NE(r.evidence.at("stderr_tail").find("about to dereference null"), std::string::npos);
}

TEST(ProbeRunner, AbortIsAnError) {
  Finding r = run_mode("abort");
  EXPECT_EQ(r.status, Status::kError);
  EXPECT_NE(r.summary.find("SIGABRT"), std::string::npos) << r.summary;
}

TEST(ProbeRunner, HangIsKilledAtTheTimeout) {
  auto start = std::chrono::steady_clock::now();
  Finding r = run_mode("hang", 1.0, 0.5);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.status, Status::kError);
  EXPECT_NE(r.summary.find("timeout"), std::string::npos) << r.summary;
  EXPECT_LT(took, 1.0 + 0.5 + 2.0);  // timeout + grace, plus slack for a loaded 2-core machine
}

TEST(ProbeRunner, ChildIgnoringSigtermIsKilledAfterGrace) {
  auto start = std::chrono::steady_clock::now();
  Finding r = run_mode("hang_ignore_term", 0.5, 0.5);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.status, Status::kError);
  EXPECT_NE(r.summary.find("timeout"), std::string::npos);
  EXPECT_LT(took, 0.5 + 0.5 + 2.0);
}

TEST(ProbeRunner, GrandchildHoldingPipesDoesNotHangTheSuite) {
  auto start = std::chrono::steady_clock::now();
  Finding r = run_mode("hang_grandchild", 0.5, 0.5);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.status, Status::kError);
  EXPECT_LT(took, 0.5 + 0.5 + 2.0);
}

TEST(ProbeRunner, GarbageOutputIsAnError) {
  Finding r = run_mode("garbage");
  EXPECT_EQ(r.status, Status::kError);
  EXPECT_NE(r.summary.find("unparsable"), std::string::npos) << r.summary;
  EXPECT_NE(r.evidence.at("result_head").find("not json"), std::string::npos);
}

TEST(ProbeRunner, DeeplyNestedResultIsAnErrorNotACrash) {
  // Copying the parsed evidence recursed once per level and overflowed the stack (SIGSEGV: the runner, the
  // whole suite and its report lost).
  Finding r = run_mode("deep_json");
  EXPECT_EQ(r.status, Status::kError);
  EXPECT_NE(r.summary.find("nested deeper than 256 levels"), std::string::npos) << r.summary;
}

TEST(ProbeRunner, UnknownStatusIsAnError) {
  Finding r = run_mode("wrong_status");
  EXPECT_EQ(r.status, Status::kError);
  EXPECT_NE(r.summary.find("great"), std::string::npos) << r.summary;
}

TEST(ProbeRunner, ResultForAnotherProbeIsAnError) {
  Finding r = run_mode("wrong_id");
  EXPECT_EQ(r.status, Status::kError);
  EXPECT_NE(r.summary.find("other.probe"), std::string::npos);
}

TEST(ProbeRunner, NonZeroExitWithoutResultIsAnError) {
  Finding r = run_mode("exit7");
  EXPECT_EQ(r.status, Status::kError);
  EXPECT_NE(r.summary.find("code 7"), std::string::npos) << r.summary;
  EXPECT_NE(r.evidence.at("stderr_tail").find("could not initialise"), std::string::npos);
}

TEST(ProbeRunner, ResultFollowedByFailureExitIsNotTrusted) {
  Finding r = run_mode("result_then_exit3");
  EXPECT_EQ(r.status, Status::kError);
  EXPECT_NE(r.summary.find("all good"), std::string::npos);
}

TEST(ProbeRunner, TenMegabytesOfStderrAreBoundedAndTheResultSurvives) {
  Finding r = run_mode("stderr_flood");
  EXPECT_EQ(r.status, Status::kPass);
}

TEST(ProbeRunner, StderrFloodOfAFailingChildKeepsOnlyTheTail) {
  // Same flood, classified through the error path: the tail is kept, bounded.
  SubprocessResult o;
  o.started = o.exited = true;
  o.exit_code = 1;
  o.err = std::string(64 << 10, 'e') + "\nlast line\n";
  Finding r = classify_probe_outcome(child_spec(), o, 10);
  EXPECT_EQ(r.status, Status::kError);
  EXPECT_NE(r.evidence.at("stderr_tail").find("last line"), std::string::npos);
  EXPECT_LE(r.evidence.at("stderr_tail").size(), 4096u + 3);
}

TEST(ProbeRunner, ATimeoutSaysHowToGiveItMoreTime) {
  SubprocessResult o;
  o.started = true;
  o.timed_out = true;
  Finding r = classify_probe_outcome(child_spec(), o, 300, "long");
  EXPECT_EQ(r.status, Status::kError);
  ASSERT_EQ(r.fixes.size(), 1u);
  EXPECT_EQ(r.fixes[0].commands, std::vector<std::string>{"gpucheck run --only " + child_spec().id + " --level long --timeout 600"});
}

TEST(ProbeRunner, StdoutFloodDoesNotBlockTheChild) {
  Finding r = run_mode("stdout_flood", 10);
  EXPECT_EQ(r.status, Status::kPass);
}

TEST(ProbeRunner, MissingExecutableIsAnError) {
  ProbeSpec s = child_spec();
  s.executable = "/nonexistent/probe";
  Finding r = run_probe(s, {});
  EXPECT_EQ(r.status, Status::kError);
  EXPECT_NE(r.summary.find("missing or not executable"), std::string::npos);
}

TEST(Suite, EveryProbeIsReportedWhateverEachDoes) {
  // One suite with a crashing, a hanging and a good probe: all three come back, in order.
  std::vector<ProbeSpec> probes(3, child_spec());
  std::vector<std::string> modes = {"segfault", "hang", "good"};
  RunOptions o;
  o.timeout_s = 0.5;
  o.kill_grace_s = 0.2;
  SuiteObserver obs;
  int finished = 0;
  obs.on_start = [&](std::size_t i, std::size_t, const ProbeSpec&) { setenv("CHILD_MODE", modes[i].c_str(), 1); };
  obs.on_finish = [&](std::size_t, std::size_t, const ProbeSpec&, const Finding&) { ++finished; };
  auto results = run_suite(probes, o, obs);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(finished, 3);
  EXPECT_EQ(results[0].status, Status::kError);
  EXPECT_EQ(results[1].status, Status::kError);
  EXPECT_EQ(results[2].status, Status::kPass);
}

// The processes of this test whose parent is this test process, other than its threads' children.
int children_of_self() {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    // As containment.cpp reads it: an ifstream's istreambuf_iterator throws when the process ends mid-read (ESRCH).
    const std::string stat = gpucheck::read_proc_text((e.path() / "stat").string());
    auto close = stat.rfind(')');
    if (close != std::string::npos && std::atoi(stat.c_str() + close + 4) == getpid()) ++n;
  }
  return n;
}

TEST(Suite, ADetachedDescendantOfAProbeEndsWithTheProbe) {
  std::vector<ProbeSpec> probes(1, child_spec());
  RunOptions o;
  o.timeout_s = 10;
  setenv("CHILD_MODE", "setsid_orphan", 1);
  auto results = run_suite(probes, o);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].status, Status::kPass);
  EXPECT_NE(results[0].evidence.at("orphans_killed").find("1 process"), std::string::npos);
  EXPECT_EQ(children_of_self(), 0) << "an orphan of the probe is still running";
}

TEST(Suite, AStopRequestEndsTheRunningProbeAndStartsNoOther) {
  std::vector<ProbeSpec> probes(3, child_spec());
  RunOptions o;
  o.timeout_s = 30;
  o.kill_grace_s = 0.2;
  setenv("CHILD_MODE", "hang", 1);
  std::thread stopper([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    kill(getpid(), SIGTERM);
  });
  catch_interrupts();
  auto t0 = std::chrono::steady_clock::now();
  auto results = run_suite(probes, o);
  stopper.join();
  const int sig = interrupt_signal();
  clear_interrupt();
  signal(SIGTERM, SIG_DFL);
  EXPECT_EQ(sig, SIGTERM);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
  ASSERT_EQ(results.size(), 1u);  // the hanging probe was stopped, the other two never started
  EXPECT_EQ(results[0].status, Status::kError);
  EXPECT_NE(results[0].summary.find("received SIGTERM"), std::string::npos) << results[0].summary;
}

}  // namespace
}  // namespace gpucheck::runner
