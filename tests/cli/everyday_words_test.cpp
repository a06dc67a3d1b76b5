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

std::set<std::string> finding_ids(const std::string& json) {
  std::set<std::string> ids;
  const nlohmann::json doc = nlohmann::json::parse(json);  // kept: the loop's range must not outlive it
  for (auto& f : doc["sections"][0]["findings"]) ids.insert(f["id"].get<std::string>());
  return ids;
}

std::set<std::string> staged_ids_with_prefix(const std::string& prefix) {
  std::set<std::string> ids;
  for (auto& e : fs::directory_iterator(std::string(GPUCHECK_STAGE_DATA) + "/probes")) {
    std::string id = e.path().stem().string();
    if (starts_with(id, prefix)) ids.insert(id);
  }
  return ids;
}

TEST(EverydayWords, OnlyAndSkipTakeAProbeFamily) {
  std::set<std::string> device = staged_ids_with_prefix("device.");
  ASSERT_GE(device.size(), 2u) << "the suite has several device.* probes";
  for (const char* word : {"device", "device.", "device.*"}) {
    auto r = gpucheck({"run", "--only", word, "--json", "--no-report"});
    ASSERT_NE(r.exit_code, 2) << word << ": " << r.err;
    EXPECT_EQ(finding_ids(r.out), device) << word;
  }
  // A family and an id of it: each probe once. --skip takes a family too.
  auto both = gpucheck({"run", "--only", "host.info,device,device.runtime", "--skip", "device", "--json", "--no-report"});
  ASSERT_NE(both.exit_code, 2) << both.err;
  EXPECT_EQ(finding_ids(both.out), std::set<std::string>{"host.info"});
  // Not a family and not an id: one line naming the closest, every family and every id.
  auto typo = gpucheck({"run", "--only", "devic", "--no-report"});
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_EQ(lines(typo.err), 1u) << typo.err;
  EXPECT_NE(typo.err.find("--only: unknown probe 'devic', did you mean 'device'?"), std::string::npos) << typo.err;
  EXPECT_NE(typo.err.find("families: "), std::string::npos) << typo.err;
  for (const auto& id : staged_ids_with_prefix("")) EXPECT_NE(typo.err.find(id), std::string::npos) << id;
  // A dotted word is an id, never a prefix: "device.run" does not run device.runtime.
  auto partial = gpucheck({"run", "--only", "device.run", "--no-report"});
  EXPECT_EQ(partial.exit_code, 2) << partial.out;
  EXPECT_NE(partial.err.find("--only: unknown probe 'device.run' (families: "), std::string::npos) << partial.err;
}

TEST(EverydayWords, StrictSaysTheSkipsCountedAsFailures) {
  if (nvidia_driver_loaded()) GTEST_SKIP() << "a driver is loaded: device.runtime will not skip";
  auto strict = gpucheck({"run", "--only", "device.runtime", "--strict", "--no-report", "--color", "never"});
  EXPECT_EQ(strict.exit_code, 1) << strict.err;
  // One line within 80 columns, also with 13 pass and 10 skip (the quick level with no GPU: 78 columns). The
  // one pass is the run's kernel-log check (section kernel_log), which found no driver line.
  EXPECT_TRUE(starts_with(strict.out, "FAIL: 1 pass, 0 warn, 1 skip as failures (--strict), 0 fail, 0 error (exit 1)\n"))
      << strict.out;
  auto json = gpucheck({"run", "--only", "device.runtime", "--strict", "--no-report", "--json"});
  EXPECT_NE(json.out.find("1 skip as failures (--strict)"), std::string::npos);  // the same line everywhere
  auto plain = gpucheck({"run", "--only", "device.runtime", "--no-report", "--color", "never"});
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.out.find("as failures"), std::string::npos) << plain.out;
}

TEST(EverydayWords, UseCudaTakesASymlinkedToolkitAsTheSameOne) {
  // This machine's real toolkit (CUDA 13 at /usr/local/cuda -> /usr/local/cuda-13.0), then a fresh symlink to it.
  std::error_code ec;
  if (!fs::exists("/usr/local/cuda/bin/nvcc")) GTEST_SKIP() << "no CUDA toolkit at /usr/local/cuda";
  fs::path real = fs::canonical("/usr/local/cuda", ec);
  auto direct = gpucheck({"use-cuda", real.string()});
  ASSERT_EQ(direct.exit_code, 0) << direct.err;
  auto dir = fresh_temp_dir("use-cuda");
  fs::create_directory_symlink(real, dir / "cuda");
  for (std::string via : {std::string("/usr/local/cuda"), std::string("/usr/local/cuda/"), (dir / "cuda").string()}) {
    auto r = gpucheck({"use-cuda", via});
    EXPECT_EQ(r.exit_code, 0) << via << ": " << r.err;
    EXPECT_EQ(r.out, direct.out) << via;  // the same exports as naming the real root
  }
  // A symlink to something that is no toolkit is still refused, by the path typed.
  fs::create_directory_symlink(dir, dir / "elsewhere");
  auto no = gpucheck({"use-cuda", (dir / "elsewhere").string()});
  EXPECT_EQ(no.exit_code, 2);
  EXPECT_NE(no.err.find("no CUDA toolkit with nvcc at " + (dir / "elsewhere").string()), std::string::npos) << no.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gpucheck::test
