// Each everyday answer's first screen, read from a real terminal: gpucheck run in tmux at 80x24
// (tests/cli/screen_run.py), every row it showed counted, a long line as the rows it took.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "cli_support.h"
#include "core/files.h"
#include "core/text.h"

namespace gpucheck::test {
namespace {

namespace fs = std::filesystem;

struct Screen {
  std::vector<std::string> rows;  // what the terminal showed, without the closing "[exit N]"
  int exit_code = -1;
};

Screen screen(const std::vector<std::string>& args) {
  Screen s;
  const fs::path out = fresh_temp_dir("screen") / "rows.txt";
  std::vector<std::string> argv{std::string(GPUCHECK_SOURCE_DIR) + "/tests/cli/screen_run.py", out.string(),
                                gpucheck_binary()};
  argv.insert(argv.end(), args.begin(), args.end());
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(300);
  o.unset_env = {"COLUMNS", "LINES", "TMUX"};
  auto r = run_subprocess(argv, o);
  EXPECT_TRUE(r.ok()) << r.describe() << r.err;
  if (!r.ok()) return s;
  s.rows = split(read_file(out.string()), '\n');
  while (!s.rows.empty() && s.rows.back().empty()) s.rows.pop_back();
  if (!s.rows.empty() && starts_with(s.rows.back(), "[exit ")) {
    s.exit_code = std::stoi(s.rows.back().substr(6));
    s.rows.pop_back();
  }
  fs::remove_all(out.parent_path());
  return s;
}

std::string shown(const Screen& s) { return join(s.rows, "\n"); }

bool tmux_here() { return access("/usr/bin/tmux", X_OK) == 0; }

TEST(FirstScreen, EnvIsOneScreenOfTheFactsThatDecideCompatibility) {
  if (!tmux_here()) GTEST_FAIL() << "tmux is not installed (scripts/packages.txt lists it)";
  Screen env = screen({"env"});
  EXPECT_EQ(env.exit_code, 0) << shown(env);
  EXPECT_LE(env.rows.size(), 24u) << shown(env);
  for (const char* fact : {"system ", "driver ", "GPUs ", "toolkits ", "picks ", "tools ", "python "})
    EXPECT_NE(shown(env).find(std::string("\n") + fact), std::string::npos) << fact << " in:\n" << shown(env);
  EXPECT_NE(shown(env).find("glibc "), std::string::npos);
  // Every detail is behind -v: more than a screen here, and what the summary only counts.
  Screen all = screen({"env", "-v"});
  EXPECT_GT(all.rows.size(), 24u);
  EXPECT_NE(shown(all).find("Libraries (* = what the dynamic loader picks)"), std::string::npos);
}

TEST(FirstScreen, DoctorForOnePackageShowsOneBestPathAndTheOthersInALineEach) {
  if (!tmux_here()) GTEST_FAIL() << "tmux is not installed (scripts/packages.txt lists it)";
  Screen s = screen({"doctor", "--for", "bmtrain==0.2.2"});
  EXPECT_LE(s.rows.size(), 24u) << shown(s);
  const std::string text = shown(s);
  const auto header = text.find("the best path, then the others, each against the one");
  ASSERT_NE(header, std::string::npos) << text;
  const auto best = text.find("\n  1. ", header);
  // The step is the path, not the prediction it avoids (was "read what [install.setup_imports_torch] found").
  EXPECT_NE(text.find("Next step: run the commands of install path 1 above (it avoids"), std::string::npos) << text;
  ASSERT_NE(best, std::string::npos) << text;
  // The best path with its commands; each alternative in one line saying what differs and why take it.
  const auto others = text.find("\n  2. ", best);
  ASSERT_NE(others, std::string::npos) << text;
  EXPECT_NE(text.substr(best, others - best).find("$ "), std::string::npos) << "the best path's commands";
  std::size_t alternatives = 0;
  for (const auto& row : split(text.substr(others + 1), '\n'))
    if (row.size() > 4 && row[0] == ' ' && row[1] == ' ' && std::isdigit(static_cast<unsigned char>(row[2])) && row[3] == '.') {
      ++alternatives;
      EXPECT_TRUE(row.find(" instead of ") != std::string::npos || row.find("keeps the installed") != std::string::npos)
          << row;
      EXPECT_NE(row.find(": for "), std::string::npos) << "why one would take it: " << row;
    }
  EXPECT_GE(alternatives, 1u) << text;
  // -v: every path with its commands.
  Screen all = screen({"doctor", "--for", "bmtrain==0.2.2", "-v"});
  EXPECT_NE(shown(all).find("install paths, best first:"), std::string::npos) << shown(all);
}

}  // namespace
}  // namespace gpucheck::test
