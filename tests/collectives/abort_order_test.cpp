// The watchdog's order on a device transport, through the real harness: a collective that never completes
// (a hung NCCL kernel) must be aborted BEFORE anything that would wait for it runs (cudaFree of the case's
// buffers while the exception unwinds, the transport's destructor), and after the abort no buffer is freed.
// The stub below plays the device: while its "kernel" spins and nothing aborted it, a free would block
// forever on a GPU, so the stub records it as a violation instead.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "collectives/abort_guard.h"
#include "collectives/harness.h"
#include "collectives/local_transport.h"
#include "collectives/plan.h"

using namespace gpucheck::collectives;

namespace {

class HangingDeviceStub : public LocalTransport {
 public:
  HangingDeviceStub(int world, int hang_on_call, bool fail_instead)
      : LocalTransport(world), hang_on_call_(hang_on_call), fail_instead_(fail_instead) {}

  double run(const std::vector<Collective>& group, int iterations, double timeout_s) override {
    if (++calls_ == hang_on_call_) {
      spinning_ = true;  // the kernel never finishes; the watchdog's deadline passes
      events.push_back("hang");
      if (fail_instead_) guard_.error("ncclCommGetAsyncError: unhandled system error");
      guard_.timeout("all_reduce not complete after " + std::to_string(timeout_s) + " s");
    }
    return LocalTransport::run(group, iterations, timeout_s);
  }
  void release(int local, void* p) override {
    guard_.release([&] {
      if (spinning_) violations.push_back("free while the kernel spins (blocks forever on a GPU)");
      events.push_back("free");
      LocalTransport::release(local, p);
    });
  }
  void abort() override { guard_.abort(); }

  std::vector<std::string> events, violations;
  AbortGuard guard_{[this] {
    events.push_back("abort");
    spinning_ = false;  // ncclCommAbort ends the kernel
  }};

 private:
  int calls_ = 0, hang_on_call_;
  bool fail_instead_, spinning_ = false;
};

Options options() {
  return parse_options({"--max-bytes", "4K", "--factor", "4", "--warmup", "0", "--iters", "1", "--no-layout",
                        "--ops", "all_reduce", "--dtypes", "fp32", "--timeout", "1"},
                       "quick");
}

}  // namespace

TEST(AbortOrder, TimeoutAbortsBeforeAnyFreeAndNeverFreesAfter) {
  for (bool fail : {false, true}) {
    auto o = options();
    HangingDeviceStub t(2, /*hang_on_call=*/3, fail);
    auto plan = make_plan(o, 2);
    auto reports = run_plan(t, plan, o);
    ASSERT_EQ(reports.size(), 2u);
    EXPECT_NE(reports[0].error, "");
    EXPECT_EQ(reports[0].timed_out, !fail) << reports[0].error;
    EXPECT_TRUE(t.violations.empty()) << t.violations.front();
    // "hang" then "abort" and nothing freed afterwards: the hung case's buffers (the second case of the
    // plan is in place: one per rank) are left to the process exit.
    auto hang = std::find(t.events.begin(), t.events.end(), "hang");
    ASSERT_NE(hang, t.events.end());
    ASSERT_NE(hang + 1, t.events.end());
    EXPECT_EQ(*(hang + 1), "abort");
    EXPECT_EQ(std::find(hang, t.events.end(), "free"), t.events.end());
    EXPECT_EQ(t.guard_.leaked(), 2u);
    EXPECT_EQ(std::count(t.events.begin(), t.events.end(), "abort"), 1);
    t.abort();  // what the probe does next: idempotent
    EXPECT_EQ(std::count(t.events.begin(), t.events.end(), "abort"), 1);
  }
}

TEST(AbortOrder, WithoutAHangEveryBufferIsFreedAndNothingAborts) {
  auto o = options();
  HangingDeviceStub t(2, /*hang_on_call=*/-1, false);
  auto reports = run_plan(t, make_plan(o, 2), o);
  EXPECT_EQ(reports[0].error, "");
  EXPECT_EQ(std::count(t.events.begin(), t.events.end(), "abort"), 0);
  EXPECT_GT(std::count(t.events.begin(), t.events.end(), "free"), 0);
  EXPECT_EQ(t.guard_.leaked(), 0u);
}

TEST(AbortOrder, GuardAbortsOnceAndThrowsTheRightKind) {
  int aborts = 0;
  AbortGuard g([&] { ++aborts; });
  EXPECT_THROW(g.timeout("t"), CollectiveTimeout);
  EXPECT_THROW(g.error("e"), TransportError);
  EXPECT_EQ(aborts, 1);
  bool freed = false;
  g.release([&] { freed = true; });
  EXPECT_FALSE(freed);
  EXPECT_EQ(g.leaked(), 1u);
}
