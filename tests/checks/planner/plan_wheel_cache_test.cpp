// pip's wheel cache against a build that links the venv's own torch: the cache is keyed by the sdist, not by
// what the build compiled against, so a wheel built in another venv (another torch) is installed in place of
// a build. A toy sdist with an in-tree PEP 517 backend (no setuptools, no network) records the interpreter
// that built it; the planner's own build command must build it again for this venv.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "checks/planner/plan_commands.h"
#include "checks/planner/resolver.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "support/venv.h"

namespace fs = std::filesystem;
using namespace gpucheck;

namespace {

// The backend writes a wheel whose module names the prefix of the interpreter that ran the build: what an
// extension built --no-build-isolation takes from the venv is its torch, here its prefix.
constexpr const char* kBackend = R"PY(import base64, hashlib, os, sys, zipfile

def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"

def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name = "stampext-1.0-py3-none-any.whl"
    files = {
        "stampext.py": f"BUILT_BY = {sys.prefix!r}\n".encode(),
        "stampext-1.0.dist-info/METADATA": b"Metadata-Version: 2.1\nName: stampext\nVersion: 1.0\n",
        "stampext-1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = [_record_line(n, d) for n, d in files.items()] + ["stampext-1.0.dist-info/RECORD,,"]
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w") as z:
        for n, d in files.items():
            z.writestr(n, d)
        z.writestr("stampext-1.0.dist-info/RECORD", "\n".join(record) + "\n")
    return name
)PY";

struct Toy {
  fs::path root, links, cache;
};

Toy make_toy_sdist(const fs::path& root) {
  Toy t{root, root / "links", root / "pip-cache"};
  fs::path src = root / "src" / "stampext-1.0";
  fs::create_directories(src);
  fs::create_directories(t.links);
  std::ofstream(src / "pyproject.toml") << "[build-system]\nrequires = []\nbuild-backend = \"backend\"\n"
                                           "backend-path = [\".\"]\n";
  std::ofstream(src / "backend.py") << kBackend;
  std::ofstream(src / "PKG-INFO") << "Metadata-Version: 2.1\nName: stampext\nVersion: 1.0\n";
  auto tar = run_subprocess({"tar", "-C", (root / "src").string(), "-czf", (t.links / "stampext-1.0.tar.gz").string(),
                             "stampext-1.0"});
  if (!tar.ok()) throw std::runtime_error("tar: " + tar.err);
  return t;
}

SubprocessOptions offline_pip(const Toy& t) {
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(3);
  o.set_env["PIP_CACHE_DIR"] = t.cache.string();
  o.set_env["PIP_NO_INDEX"] = "1";
  o.set_env["PIP_FIND_LINKS"] = t.links.string();
  o.set_env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1";
  return o;
}

std::string built_by(const gpucheck::testing::Venv& v) {
  auto r = run_subprocess({v.python, "-c", "import stampext; print(stampext.BUILT_BY)"});
  return r.ok() ? trim(r.out) : "import failed: " + r.err;
}

std::string prefix(const gpucheck::testing::Venv& v) { return trim(run_subprocess({v.python, "-c", "import sys; print(sys.prefix)"}).out); }

// The planner's command for building stampext 1.0 into `v` (`reinstall`: the installed release again).
std::string plan_build_command(const gpucheck::testing::Venv& v, bool reinstall) {
  planner::Plan plan;
  planner::PlannedPackage p;
  p.name = "stampext";
  p.version = "1.0";
  p.build = p.no_build_isolation = true;
  p.reinstall = reinstall;
  plan.packages.push_back(p);
  planner::Machine m;
  m.python = v.python;
  planner::render_plan(plan, m);
  for (const auto& c : plan.commands)
    if (c.find("stampext==1.0") != std::string::npos) return c;
  return "";
}

}  // namespace

TEST(PlanWheelCache, TheBuildStepBuildsForThisVenvWhereTheCachedWheelOfAnotherWouldBeInstalled) {
  if (find_in_path("python3").empty() || find_in_path("tar").empty()) GTEST_SKIP() << "needs python3 and tar";
  gpucheck::testing::Venv a = gpucheck::testing::fresh_venv("wheelcache_a");
  gpucheck::testing::Venv b = gpucheck::testing::fresh_venv("wheelcache_b");
  Toy toy = make_toy_sdist(a.dir / "toy");
  SubprocessOptions o = offline_pip(toy);

  // Venv A builds it; pip keeps the wheel in its cache.
  auto first = run_subprocess({a.python, "-m", "pip", "install", "--no-build-isolation", "stampext==1.0"}, o);
  ASSERT_TRUE(first.ok()) << first.out << first.err;
  EXPECT_EQ(built_by(a), prefix(a));

  // The hazard: venv B, the same command, gets A's build without compiling anything.
  auto reused = run_subprocess({b.python, "-m", "pip", "install", "--no-build-isolation", "stampext==1.0"}, o);
  ASSERT_TRUE(reused.ok()) << reused.out << reused.err;
  EXPECT_NE(reused.out.find("Using cached stampext-1.0-py3-none-any.whl"), std::string::npos) << reused.out;
  EXPECT_EQ(built_by(b), prefix(a)) << "pip no longer reuses the cached build: the plans' --no-cache-dir is moot";

  // The plan's forced rebuild of the installed release, pasted: built again, by B.
  std::string rebuild = plan_build_command(b, true);
  ASSERT_EQ(rebuild.find('\''), std::string::npos) << rebuild;
  auto r = run_subprocess(split(rebuild, ' '), o);
  ASSERT_TRUE(r.ok()) << rebuild << "\n" << r.out << r.err;
  EXPECT_EQ(built_by(b), prefix(b)) << rebuild;

  // The plan's fresh build (uninstalled first), pasted: built again, by B.
  ASSERT_TRUE(run_subprocess({b.python, "-m", "pip", "uninstall", "-y", "stampext"}, o).ok());
  ASSERT_TRUE(run_subprocess({a.python, "-m", "pip", "uninstall", "-y", "stampext"}, o).ok());
  auto again = run_subprocess({a.python, "-m", "pip", "install", "--no-build-isolation", "stampext==1.0"}, o);
  ASSERT_TRUE(again.ok()) << again.err;  // A's build is in the cache again
  std::string build = plan_build_command(b, false);
  auto f = run_subprocess(split(build, ' '), o);
  ASSERT_TRUE(f.ok()) << build << "\n" << f.out << f.err;
  EXPECT_EQ(f.out.find("Using cached stampext"), std::string::npos) << build << "\n" << f.out;
  EXPECT_EQ(built_by(b), prefix(b)) << build;
  fs::remove_all(a.dir);
  fs::remove_all(b.dir);
}
