// use-cuda exports and modulefiles, checked by a real shell and a real Lmod.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "envtools/cuda_env.h"
#include "core/errors.h"
#include "core/subprocess.h"
#include "inventory/model.h"

using namespace gpucheck;
using namespace gpucheck::envtools;
namespace fs = std::filesystem;

namespace {

inventory::Inventory three() {
  return inventory::load_inventory(std::string(GPUCHECK_SOURCE_DIR) + "/tests/checks/doctor/scenarios/three_toolkits.json");
}

inventory::Toolkit tk(const std::string& root, const std::string& version) {
  inventory::Toolkit t;
  t.root = root;
  t.version = version;
  t.nvcc = root + "/bin/nvcc";
  return t;
}

fs::path temp_dir(const std::string& tag) {
  fs::path p = fs::temp_directory_path() / ("gpucheck_" + tag + "_" + std::to_string(::getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

}  // namespace

TEST(UseCuda, SelectsByMajorMinorMajorExactVersionOrRoot) {
  auto inv = three();
  EXPECT_EQ(select_toolkit(inv, "11.8").root, "/usr/local/cuda-11.8");
  EXPECT_EQ(select_toolkit(inv, "12").root, "/usr/local/cuda-12.4");  // newest 12.x
  EXPECT_EQ(select_toolkit(inv, "12.1.105").root, "/usr/local/cuda-12.1");
  EXPECT_EQ(select_toolkit(inv, "/usr/local/cuda-12.1/").root, "/usr/local/cuda-12.1");
  try {
    select_toolkit(inv, "10.2");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "no CUDA 10.2 toolkit with nvcc found (found: 11.8.89 at /usr/local/cuda-11.8, 12.1.105 at "
              "/usr/local/cuda-12.1, 12.4.131 at /usr/local/cuda-12.4)");
  }
  EXPECT_THROW(select_toolkit(inv, "twelve"), InputError);
  EXPECT_THROW(select_toolkit(inv, "12.1+cu"), InputError);
}

TEST(UseCuda, ExportsPutTheToolkitFirstAndDropTheOthers) {
  auto inv = three();
  std::string out = shell_exports(inv, select_toolkit(inv, "11.8"),
                                  "/usr/local/cuda-12.1/bin:/home/u/bin:/usr/local/cuda/bin:/usr/bin:/bin",
                                  "/usr/local/cuda-12.1/lib64:/opt/lib");
  EXPECT_EQ(out,
            "export CUDA_HOME=/usr/local/cuda-11.8\n"
            "export CUDA_PATH=/usr/local/cuda-11.8\n"
            "export PATH=/usr/local/cuda-11.8/bin:/home/u/bin:/usr/bin:/bin\n"
            "export LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64:/opt/lib\n");
}

TEST(UseCuda, HostileRootSurvivesARealShellEvalWithoutRunningAnything) {
  fs::path dir = temp_dir("quote");
  std::string marker = (dir / "pwned").string();
  std::string root = (dir / "it's cuda $(touch pwned) `touch pwned`").string();
  inventory::Inventory inv;
  inv.toolkits.push_back(tk(root, "12.1.105"));
  std::string exports = shell_exports(inv, inv.toolkits[0], "/usr/bin:/bin", "");
  SubprocessOptions o;
  o.working_dir = dir.string();
  auto r = run_subprocess({"/bin/sh", "-c", "eval \"$1\" && printf '%s\\n' \"$CUDA_HOME\" \"$PATH\"", "sh", exports}, o);
  ASSERT_TRUE(r.ok()) << r.describe() << r.err;
  EXPECT_EQ(r.out, root + "\n" + root + "/bin:/usr/bin:/bin\n");
  EXPECT_FALSE(fs::exists(marker));
  fs::remove_all(dir);
}

TEST(Modulefiles, OneTclAndOneLuaFilePerToolkitWithConflictLines) {
  auto files = modulefiles(three());
  ASSERT_EQ(files.size(), 6u);
  EXPECT_EQ(files[0].relative_path, "tcl/cuda/11.8");
  EXPECT_EQ(files[1].relative_path, "lua/cuda/11.8.lua");
  for (const auto& f : files) {
    bool lua = f.relative_path.rfind(".lua") != std::string::npos;
    EXPECT_NE(f.content.find(lua ? "conflict(\"cuda\")" : "\nconflict cuda\n"), std::string::npos) << f.relative_path;
  }
  EXPECT_EQ(files[0].content.rfind("#%Module1.0\n", 0), 0u);
}

TEST(Modulefiles, SameMajorMinorTwiceGetsFullVersionsAndBadRootsAreRefused) {
  inventory::Inventory inv;
  inv.toolkits = {tk("/usr/local/cuda-12.1", "12.1.105"), tk("/opt/conda/envs/x", "12.1.66")};
  auto files = modulefiles(inv);
  ASSERT_EQ(files.size(), 4u);
  EXPECT_EQ(files[0].relative_path, "tcl/cuda/12.1.105");
  EXPECT_EQ(files[2].relative_path, "tcl/cuda/12.1.66");
  inv.toolkits = {tk("/opt/{evil}", "12.1")};
  EXPECT_THROW(modulefiles(inv), InputError);
  EXPECT_THROW(modulefiles(inventory::Inventory{}), InputError);
}

TEST(Modulefiles, AVersionStringCannotInjectTclOrEscapeTheDirectory) {
  // A toolkit's version.json is not ours: a version that would run code on `module load`, or name a file
  // outside the modulefile directory (two toolkits of one major.minor use the full version as file name).
  for (const std::string hostile : {"12.4.1} ; exec touch pwned ; {", "12.4.1\nexec touch pwned",
                                    "13.0/../../../../tmp/victim", "13.0.0/x"}) {
    inventory::Inventory inv;
    inv.toolkits = {tk("/usr/local/cuda-13.0", "13.0.48"), tk("/opt/evil", hostile)};
    EXPECT_THROW(modulefiles(inv), InputError) << hostile;
  }
  // A version that is no version at all names no module: that toolkit is left out, nothing of it written.
  inventory::Inventory inv;
  inv.toolkits = {tk("/usr/local/cuda-13.0", "13.0.48"), tk("/opt/evil", "$(touch pwned)")};
  for (const auto& f : modulefiles(inv)) {
    EXPECT_EQ(f.content.find("pwned"), std::string::npos) << f.relative_path;
    EXPECT_EQ(f.relative_path.find("pwned"), std::string::npos);
  }
}

TEST(Modulefiles, LmodLoadsBothFormatsAndSwapsToolkits) {
  const std::string init = "/usr/share/lmod/lmod/init/bash";
  if (!fs::exists(init)) GTEST_SKIP() << "Lmod is not installed (" << init << " missing; apt-get install lmod)";
  fs::path dir = temp_dir("modules");
  for (const auto& f : modulefiles(three())) {
    fs::create_directories((dir / f.relative_path).parent_path());
    std::ofstream(dir / f.relative_path) << f.content;
  }
  for (const std::string flavour : {"tcl", "lua"}) {
    std::string script = "source " + init + " && module use " + (dir / flavour).string() +
                         " && module load cuda/11.8 && echo \"A=$CUDA_HOME\" && module load cuda/12.4 && "
                         "echo \"B=$CUDA_HOME\" && echo \"P=$PATH\" && echo \"L=$LD_LIBRARY_PATH\"";
    SubprocessOptions o;
    o.set_env = {{"PATH", "/usr/bin:/bin"}, {"LD_LIBRARY_PATH", ""}};
    auto r = run_subprocess({"/bin/bash", "--noprofile", "--norc", "-c", script}, o);
    ASSERT_TRUE(r.ok()) << flavour << ": " << r.describe() << r.err;
    EXPECT_NE(r.out.find("A=/usr/local/cuda-11.8\n"), std::string::npos) << flavour << r.out;
    EXPECT_NE(r.out.find("B=/usr/local/cuda-12.4\n"), std::string::npos) << flavour << r.out;
    EXPECT_NE(r.out.find("P=/usr/local/cuda-12.4/bin:/usr/bin:/bin\n"), std::string::npos) << flavour << r.out;
    EXPECT_NE(r.out.find("L=/usr/local/cuda-12.4/lib64\n"), std::string::npos) << flavour << r.out;
  }
  fs::remove_all(dir);
}
