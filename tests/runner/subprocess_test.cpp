#include <gtest/gtest.h>

#include "core/subprocess.h"

namespace gpucheck {
namespace {

TEST(Subprocess, CapturesStdoutAndExitCode) {
  auto r = run_subprocess({"/bin/sh", "-c", "echo hello; echo oops >&2; exit 4"});
  EXPECT_TRUE(r.started);
  EXPECT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_EQ(r.out, "hello\n");
  EXPECT_EQ(r.err, "oops\n");
  EXPECT_FALSE(r.ok());
}

TEST(Subprocess, ArgumentsAreNeverInterpretedByAShell) {
  auto r = run_subprocess({"/bin/echo", "$(id)", "a;b", "*"});
  EXPECT_EQ(r.out, "$(id) a;b *\n");
}

TEST(Subprocess, FeedsStdinAndSetsEnvironment) {
  SubprocessOptions o;
  o.stdin_data = "from stdin";
  o.set_env["GPUCHECK_TEST_VAR"] = "42";
  auto r = run_subprocess({"/bin/sh", "-c", "cat; echo \" $GPUCHECK_TEST_VAR\""}, o);
  EXPECT_EQ(r.out, "from stdin 42\n");
}

TEST(Subprocess, UnsetsEnvironment) {
  setenv("GPUCHECK_TO_DROP", "x", 1);
  SubprocessOptions o;
  o.unset_env = {"GPUCHECK_TO_DROP"};
  auto r = run_subprocess({"/bin/sh", "-c", "echo \"[${GPUCHECK_TO_DROP:-unset}]\""}, o);
  EXPECT_EQ(r.out, "[unset]\n");
}

TEST(Subprocess, MissingProgramIsReportedNotThrown) {
  auto r = run_subprocess({"/nonexistent/program"});
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.describe().find("failed to start"), std::string::npos);
}

TEST(Subprocess, StdoutLimitKeepsTheHead) {
  SubprocessOptions o;
  o.stdout_limit = 10;
  auto r = run_subprocess({"/bin/sh", "-c", "printf 0123456789abcdef"}, o);
  EXPECT_EQ(r.out, "0123456789");
  EXPECT_TRUE(r.out_truncated);
}

TEST(Subprocess, SignalNames) {
  EXPECT_EQ(signal_name(11), "SIGSEGV");
  EXPECT_EQ(signal_name(99), "signal 99");
}

TEST(Subprocess, FindInPath) {
  EXPECT_EQ(find_in_path("sh", "/nonexistent:/bin"), "/bin/sh");
  EXPECT_EQ(find_in_path("definitely-not-a-program-xyz", "/bin:/usr/bin"), "");
}

}  // namespace
}  // namespace gpucheck
