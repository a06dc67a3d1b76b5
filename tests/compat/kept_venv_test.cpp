// The kept-venv helper the two torch repro tests build their venvs with (tests/support/venv.h), on a real
// `python3 -m venv` without PyPI: built once (prepare, steps, finish, then .complete), not rebuilt while
// .complete stands, and a failing step or finish named and never marked complete.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace gpucheck
