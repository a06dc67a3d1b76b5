// `python -m pip install CHECKOUT` and `pip wheel CHECKOUT`: pyproject.toml's backend
// (packaging/backend/gpucheck_backend.py) builds the wheel with scripts/wheel in a clean clone of this
// repository's HEAD (what is committed), in a fresh venv, with pip's own build isolation (the pinned tools
// come from PyPI). Then the installed gpucheck answers --version and doctor. Label repro: a cold build of
// the tool and probes in the clone (ccache hits when the clone is under ccache's base_dir) and PyPI downloads.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>

#include "core/subprocess.h"
#include "support/venv.h"

namespace fs = std::filesystem;
using gpucheck::run_subprocess;
using gpucheck::SubprocessOptions;
using gpucheck::SubprocessResult;

namespace {

const fs::path kSource = GPUCHECK_SOURCE_DIR;
const fs::path kScratch = GPUCHECK_BINARY_DIR;  // under the build tree: ccache's base_dir covers it

SubprocessResult run(const std::vector<std::string>& argv, int timeout_s, const std::map<std::string, std::string>& env = {}) {
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(timeout_s);
  o.set_env = env;
  o.unset_env = {"GPUCHECK_DATA_DIR", "GPUCHECK_PROBE_DIR", "GPUCHECK_WHEEL_BUILD", "GPUCHECK_WHEEL_TOOLS_PYTHON"};
  return run_subprocess(argv, o);
}

std::string project_version() {
  std::ifstream in(kSource / "CMakeLists.txt");
  std::stringstream ss;
  ss << in.rdbuf();
  std::smatch m;
  std::string text = ss.str();
  return std::regex_search(text, m, std::regex(R"(project\(gpucheck VERSION ([0-9.]+))")) ? m[1].str() : "";
}

TEST(PipFromSource, InstallAndWheelFromACleanCheckout) {
  fs::path dir = kScratch / ("pip_checkout_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto clone = run({"git", "clone", "--quiet", kSource.string(), (dir / "gpucheck").string()}, 300);
  ASSERT_TRUE(clone.ok()) << clone.describe() << clone.err;
  auto venv = gpucheck::testing::fresh_venv("pip_source");

  auto install = run({venv.python, "-m", "pip", "install", (dir / "gpucheck").string()}, 3000);
  std::cout << "pip install CHECKOUT: " << install.describe() << " in " << install.elapsed_s << " s\n";
  ASSERT_TRUE(install.ok()) << install.describe() << install.err.substr(install.err.size() > 4000 ? install.err.size() - 4000 : 0)
                            << install.out.substr(install.out.size() > 2000 ? install.out.size() - 2000 : 0);
  std::string gpucheck = (venv.dir / "venv/bin/gpucheck").string();
  auto v = run({gpucheck, "--version"}, 60);
  EXPECT_TRUE(v.ok()) << v.describe() << v.err;
  EXPECT_EQ(v.out, project_version() + "\n");
  auto doc = run({gpucheck, "doctor", "--json"}, 300, {{"VIRTUAL_ENV", (venv.dir / "venv").string()}});
  ASSERT_TRUE(doc.exited) << doc.describe() << doc.err;
  EXPECT_TRUE(doc.exit_code == 0 || doc.exit_code == 1) << doc.describe() << doc.err;  // clean / problems found
  auto d = nlohmann::json::parse(doc.out, nullptr, false);
  ASSERT_FALSE(d.is_discarded()) << doc.out.substr(0, 500);
  EXPECT_EQ(d["details"].value("knowledge_base", ""), (venv.dir / "venv/share/gpucheck/compat").string());
  EXPECT_EQ(d["details"]["python"].value("prefix", ""), (venv.dir / "venv").string());

  // pip wheel: the same wheel file, tagged manylinux_2_28 (the clone's build tree is warm now).
  auto wheel = run({venv.python, "-m", "pip", "wheel", "--no-deps", "-w", (dir / "dist").string(), (dir / "gpucheck").string()}, 3000);
  std::cout << "pip wheel CHECKOUT (warm): " << wheel.describe() << " in " << wheel.elapsed_s << " s\n";
  ASSERT_TRUE(wheel.ok()) << wheel.describe() << wheel.err;
  EXPECT_TRUE(fs::exists(dir / "dist" / ("gpucheck-" + project_version() + "-py3-none-manylinux_2_28_x86_64.whl")));
  fs::remove_all(venv.dir);
  fs::remove_all(dir);
}

}  // namespace
