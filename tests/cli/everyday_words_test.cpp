// Issue 35's words, through the real binary: gpucheck's own usage errors, probe families for --only/--skip,
// what --strict counted, use-cuda through a symlinked toolkit.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "core/files.h"
#include "core/text.h"

namespace gpucheck::test {
namespace {

namespace fs = std::filesystem;

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

TEST(EverydayWords, UsageErrorsAreGpucheckOwnOneLineMessages) {
  struct Case {
    std::vector<std::string> args;
    std::string err;  // the whole of stderr
  };
  auto dir = fresh_temp_dir("words");
  std::string one = (dir / "a.json").string();
  write_file_atomic(one, "{}");
  for (const Case& c : std::vector<Case>{
           {{"doctor", "--for"}, "gpucheck: --for needs a value (see gpucheck doctor --help)\n"},
           {{"diff", one}, "gpucheck: diff needs 2 FILES, got 1 (see gpucheck diff --help)\n"},
           {{"run", "--level"}, "gpucheck: --level needs a value (one of quick, standard, long) (see gpucheck run --help)\n"},
           {{"list", "extra"}, "gpucheck: list does not take 'extra' (see gpucheck list --help)\n"},
           {{"use-cuda"}, "gpucheck: use-cuda needs VERSION (see gpucheck use-cuda --help)\n"},
       }) {
    auto r = gpucheck(c.args);
    EXPECT_EQ(r.exit_code, 2) << join(c.args, " ");
    EXPECT_EQ(r.err, c.err) << join(c.args, " ");
    // CLI11's own phrasing ("1 required TEXT missing", "At least 2 required but received 1") never shows.
    for (const char* leak : {"required", "received", "not expected", "TEXT"})
      EXPECT_EQ(r.err.find(leak), std::string::npos) << leak << " in: " << r.err;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gpucheck::test
