// The failing install of the seed report, reproduced for real: `pip install bmtrain==0.2.2` into a fresh
// venv without torch. Needs the package index (skips when it is unreachable). Label: repro.
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/subprocess.h"
#include "core/text.h"

using gpucheck::run_subprocess;
using gpucheck::SubprocessOptions;

TEST(ExplainRepro, PipInstallBmtrainWithoutTorch) {
  std::string python = gpucheck::find_in_path("python3");
  if (python.empty()) GTEST_SKIP() << "no python3";
  char tmpl[] = "/tmp/gpucheck-explain-venv-XXXXXX";
  std::string dir = mkdtemp(tmpl);
  SubprocessOptions slow;
  slow.timeout = std::chrono::seconds(120);
  ASSERT_TRUE(run_subprocess({python, "-m", "venv", dir + "/venv"}, slow).ok());
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(300);
  auto pip = run_subprocess({dir + "/venv/bin/pip", "install", "--no-cache-dir", "bmtrain==0.2.2"}, o);
  std::filesystem::remove_all(dir);
  std::string log = pip.out + pip.err;
  if (log.find("Downloading bmtrain") == std::string::npos && log.find("Using cached bmtrain") == std::string::npos)
    GTEST_SKIP() << "package index unreachable: " << gpucheck::last_lines(log, 3);
  ASSERT_FALSE(pip.ok()) << "bmtrain 0.2.2 installed without torch: nothing to explain";
  SubprocessOptions e;
  e.stdin_data = log;
  auto r = run_subprocess({std::string(GPUCHECK_STAGE_BIN) + "/gpucheck", "explain", "-", "--no-env", "--json"}, e);
  ASSERT_EQ(r.exit_code, 0) << log;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["sections"][0]["name"], "causes");
  const auto& cause = j["sections"][0]["findings"][0];
  EXPECT_EQ(cause["id"], "install.setup_imports_torch");
  EXPECT_TRUE(cause["details"]["root"]);
  EXPECT_EQ(cause["details"]["captures"]["package"], "bmtrain");
  EXPECT_EQ(cause["details"]["captures"]["package_version"], "0.2.2");
}
