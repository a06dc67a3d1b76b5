// The kept-venv helper the torch repro tests build their venvs with (tests/support/venv.h), on a real
// `python3 -m venv` without PyPI: built once (prepare, steps, finish, then .complete), not rebuilt while
// .complete stands (nor built twice by two processes asking at once), a failing step or finish named and
// never marked complete, not started without room on the disk, and identical large files of kept venvs
// linked to one copy by the real util-linux hardlink.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "support/venv.h"

namespace gpucheck {
namespace {

namespace fs = std::filesystem;

TEST(KeptVenv, BuiltOnceThenKept) {
  const fs::path dir = fs::temp_directory_path() / ("gpucheck_kept_venv_" + std::to_string(::getpid()));
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(3);  // ensurepip on a loaded machine
  const std::string py = (dir / "bin/python").string();
  int prepared = 0, finished = 0;
  auto prepare = [&] {
    ++prepared;
    std::ofstream(dir / "input.txt") << "from prepare";
  };
  auto finish = [&]() -> std::string {
    ++finished;
    return fs::exists(dir / "out.txt") ? "" : "the step wrote nothing";
  };
  const std::vector<std::vector<std::string>> steps = {
      {py, "-c", "import sys; open(sys.argv[1] + '/out.txt', 'w').write(open(sys.argv[1] + '/input.txt').read())",
       dir.string()}};
  ASSERT_EQ(testing::keep_venv(dir, steps, o, "a test venv", prepare, finish), "");
  EXPECT_TRUE(fs::exists(py));
  EXPECT_TRUE(fs::exists(dir / ".complete"));
  std::ifstream out(dir / "out.txt");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(out), {}), "from prepare");
  // Kept: a second call touches nothing, even with steps that would fail.
  ASSERT_EQ(testing::keep_venv(dir, {{"false"}}, o, "again", prepare, finish), "");
  EXPECT_EQ(prepared, 1);
  EXPECT_EQ(finished, 1);
  fs::remove_all(dir);
}

// Two test processes that need the same kept venv at once (ctest runs one executable's tests in parallel):
// one builds it, the other waits for the lock and finds it complete; the steps run once.
TEST(KeptVenv, TwoProcessesAskingAtOnceBuildItOnce) {
  const fs::path dir = fs::temp_directory_path() / ("gpucheck_kept_venv_race_" + std::to_string(::getpid()));
  const fs::path runs = dir.string() + ".runs";
  fs::remove_all(dir);
  fs::remove(runs);
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(3);
  const std::vector<std::vector<std::string>> steps = {
      {(dir / "bin/python").string(), "-c", "import sys, time; time.sleep(1); open(sys.argv[1], 'a').write('run\\n')",
       runs.string()}};
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) ::_exit(testing::keep_venv(dir, steps, o, "raced").empty() ? 0 : 1);
  const std::string here = testing::keep_venv(dir, steps, o, "raced");
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_EQ(here, "");
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  std::ifstream in(runs);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "run\n");
  fs::remove_all(dir);
  fs::remove(runs);
  fs::remove(dir.string() + ".lock");
}

TEST(KeptVenv, AFailureIsNamedAndNotMarkedComplete) {
  const fs::path dir = fs::temp_directory_path() / ("gpucheck_kept_venv_bad_" + std::to_string(::getpid()));
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(3);
  const std::string py = (dir / "bin/python").string();
  std::string why = testing::keep_venv(dir, {{py, "-c", "import sys; sys.exit(3)"}}, o, "never");
  EXPECT_NE(why.find(py + " -c import sys; sys.exit(3)"), std::string::npos) << why;
  EXPECT_FALSE(fs::exists(dir / ".complete"));
  why = testing::keep_venv(dir, {}, o, "never", {}, [] { return std::string("finish said no"); });
  EXPECT_EQ(why, "finish said no");
  EXPECT_FALSE(fs::exists(dir / ".complete"));
  fs::remove_all(dir);
}

TEST(KeptVenv, NotBuiltWithoutRoomAndSaysHowMuchIsFree) {
  const fs::path dir = fs::temp_directory_path() / ("gpucheck_kept_venv_room_" + std::to_string(::getpid()));
  SubprocessOptions o;
  const std::uintmax_t more_than_any_disk = std::uintmax_t{1} << 60;
  std::string why = testing::keep_venv(dir, {}, o, "never", {}, {}, more_than_any_disk);
  EXPECT_NE(why.find("needs 1073741824.0 GiB free under " + fs::temp_directory_path().string() + ", "), std::string::npos)
      << why;
  EXPECT_NE(why.find(" GiB free"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir));
  EXPECT_EQ(testing::room_for(dir, 1), "");
}

// Two kept venvs with the same large file (as two torch venvs hold the same CUDA wheels) end up sharing it;
// a file of another mode, and one in a venv not yet complete, stay apart.
TEST(KeptVenv, IdenticalLargeFilesOfCompleteVenvsShareOneCopy) {
  if (find_in_path("hardlink").empty()) GTEST_SKIP() << "util-linux's hardlink is not on PATH";
  const fs::path root = fs::temp_directory_path() / ("gpucheck_kept_root_" + std::to_string(::getpid()));
  fs::remove_all(root);
  const std::string blob(2u << 20, 'x');
  for (const char* name : {"a", "b", "c", "d"}) {
    fs::create_directories(root / name);
    std::ofstream(root / name / "libbig.so", std::ios::binary) << blob;
    if (std::string(name) != "d") std::ofstream(root / name / ".complete") << "done\n";
  }
  fs::permissions(root / "c/libbig.so", fs::perms::owner_exec, fs::perm_options::add);
  testing::link_identical_files(root);
  EXPECT_TRUE(fs::equivalent(root / "a/libbig.so", root / "b/libbig.so"));
  EXPECT_FALSE(fs::equivalent(root / "a/libbig.so", root / "c/libbig.so"));
  EXPECT_FALSE(fs::equivalent(root / "a/libbig.so", root / "d/libbig.so"));
  EXPECT_TRUE(fs::exists(root / ".identical-files-linked"));
  fs::remove_all(root);
}

}  // namespace
}  // namespace gpucheck
