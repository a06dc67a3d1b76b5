#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "core/errors.h"
#include "core/files.h"
#include "core/subprocess.h"

namespace gpucheck {
namespace {

namespace fs = std::filesystem;

fs::path temp_dir(const std::string& tag) {
  fs::path d = fs::temp_directory_path() / ("gpucheck-files-" + tag + "-" + std::to_string(getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

TEST(Files, AtomicWriteReplacesAndNoClobberRefuses) {
  auto d = temp_dir("a");
  std::string p = (d / "sub" / "r.json").string();
  write_file_atomic(p, "one");
  EXPECT_EQ(read_file(p), "one");
  write_file_atomic(p, "two");
  EXPECT_EQ(read_file(p), "two");
  EXPECT_THROW(write_file_atomic(p, "three", /*no_clobber=*/true), InputError);
  EXPECT_EQ(read_file(p), "two");
  int leftovers = 0;
  for (auto& e : fs::directory_iterator(d / "sub")) leftovers += e.path().filename() != "r.json";
  EXPECT_EQ(leftovers, 0);
  fs::remove_all(d);
}

TEST(Files, KilledWriterLeavesTheOldFileIntact) {
  auto d = temp_dir("k");
  std::string p = (d / "report.json").string();
  write_file_atomic(p, "old report");
  // Start a writer of 2 GB, wait until its temporary file exists (it is mid-write), then SIGKILL it.
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    execl(ATOMIC_WRITER, ATOMIC_WRITER, p.c_str(), "2000000000", static_cast<char*>(nullptr));
    _exit(127);
  }
  bool saw_temp = false;
  for (int i = 0; i < 3000 && !saw_temp; ++i) {
    for (auto& e : fs::directory_iterator(d))
      saw_temp = saw_temp || e.path().filename().string().find(".tmp.") != std::string::npos;
    if (!saw_temp) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(saw_temp) << "the writer never started writing";
  EXPECT_TRUE(WIFSIGNALED(status)) << "the writer finished before it could be killed";
  EXPECT_EQ(read_file(p), "old report");
  fs::remove_all(d);
}

TEST(Files, ReadErrorsAreInputErrors) {
  EXPECT_THROW(read_file("/nonexistent/file"), InputError);
  EXPECT_THROW(read_file("/"), InputError);
  auto d = temp_dir("j");
  write_file_atomic((d / "t.json").string(), "{\"a\": [1, 2");
  try {
    read_json_file((d / "t.json").string());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos);
  }
  fs::remove_all(d);
}

TEST(Files, UnwritableDestinationIsAnInputError) {
  EXPECT_THROW(write_file_atomic("/proc/version/x.json", "x"), InputError);
}

}  // namespace
}  // namespace gpucheck
