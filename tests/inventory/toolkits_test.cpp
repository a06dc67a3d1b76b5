// Toolkits: the real wheel-assembled CUDA 13 of this machine, and toolkit trees of other versions built in a
// temp dir (version.json, version.txt, a /usr/local/cuda symlink, a conda environment, a pip nvcc wheel
// layout) inspected through --root, with the toolkit each consumer (PATH, CMake, torch) would pick.
#include <gtest/gtest.h>

#include "checks/compiler/host_compiler.h"
#include "core/files.h"
#include "core/subprocess.h"
#include "inventory/collect.h"
#include "platform/root_fs.h"
#include "inventory/toolkit_choice.h"
#include "inventory/toolkit_scan.h"
#include "test_support.h"

namespace gpucheck::inventory {
namespace {

using testing::make_symlink;
using testing::TempDir;
using testing::write_file;

const ToolkitChoice& choice(const std::vector<ToolkitChoice>& cs, const std::string& consumer) {
  for (const auto& c : cs)
    if (c.consumer == consumer) return c;
  throw std::runtime_error("no choice for " + consumer);
}

const Toolkit* toolkit_at(const std::vector<Toolkit>& ts, const std::string& root) {
  for (const auto& t : ts)
    if (t.root == root) return &t;
  return nullptr;
}

TEST(InvRealToolkit, WheelAssembledCuda13FoundWithNvccsVersion) {
  ToolkitScanInput in;
  in.env = {{"PATH", "/usr/local/cuda/bin:/usr/bin:/bin"}};
  auto tks = scan_toolkits(platform::RootFs("/"), in);
  std::string real = platform::RootFs("/").resolve("/usr/local/cuda");
  const Toolkit* tk = toolkit_at(tks, real);
  ASSERT_NE(tk, nullptr) << "no toolkit at " << real;
  // This toolkit has no version.json / version.txt: the version must come from its dist-info and agree with
  // what nvcc itself prints.
  ASSERT_FALSE(platform::RootFs("/").exists(real + "/version.json"));
  auto r = run_subprocess({real + "/bin/nvcc", "--version"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(tk->version, parse_nvcc_version(r.out));
  EXPECT_EQ(tk->version_source, "dist-info nvidia-cuda-nvcc");
  EXPECT_TRUE(tk->is_usr_local_cuda);
  EXPECT_EQ(tk->nvcc, real + "/bin/nvcc");
  // Its own host_config.h bounds gcc from above and clang on both sides (the values: host_compilers_test).
  ASSERT_EQ(tk->host_compilers.size(), 2u);
  EXPECT_TRUE(tk->host_compilers[0].max_enforced);
  EXPECT_EQ(tk->host_compilers[0].max_source, real + "/include/crt/host_config.h");
  auto choices = choose_toolkits(platform::RootFs("/"), in.env, tks);
  EXPECT_EQ(choice(choices, "path").root, real);
  EXPECT_EQ(choice(choices, "path").version, tk->version);
}

// A machine image with four toolkits in four layouts.
class InvFakeTree : public ::testing::Test {
 protected:
  void SetUp() override {
    // 11.8: runfile layout with version.json; /usr/local/cuda points here with an absolute link.
    write_file(dir / "usr/local/cuda-11.8/version.json",
               R"({"cuda":{"name":"CUDA SDK","version":"11.8.0"},"cuda_nvcc":{"version":"11.8.89"}})");
    write_file(dir / "usr/local/cuda-11.8/bin/nvcc", "#!/bin/sh\nexit 99\n", true);
    write_file(dir / "usr/local/cuda-11.8/include/crt/host_config.h",
               "#if defined(__GNUC__)\n#if __GNUC__ > 11\n#error -- unsupported GNU version! gcc versions later "
               "than 11 are not supported!\n#endif\n#endif\n");
    make_symlink("/usr/local/cuda-11.8", dir / "usr/local/cuda");
    // 10.2: old layout with version.txt.
    write_file(dir / "usr/local/cuda-10.2/version.txt", "CUDA Version 10.2.89\n");
    write_file(dir / "usr/local/cuda-10.2/bin/nvcc", "#!/bin/sh\nexit 99\n", true);
    // 12.1 in a conda environment: nvcc in bin/, headers under targets/, version in conda-meta.
    write_file(dir / "opt/conda/envs/cu121/conda-meta/cuda-nvcc-12.1.105-0.json", "{}");
    write_file(dir / "opt/conda/envs/cu121/bin/nvcc", "#!/bin/sh\nexit 99\n", true);
    write_file(dir / "opt/conda/envs/cu121/targets/x86_64-linux/include/cuda.h", "#define CUDA_VERSION 12010\n");
    // A pip nvcc wheel in a Python's site-packages: ptxas only, version in the dist-info.
    std::string sp = "usr/local/lib/python3.11/dist-packages";
    write_file(dir / (sp + "/nvidia/cuda_nvcc/bin/ptxas"), "", true);
    write_file(dir / (sp + "/nvidia_cuda_nvcc_cu12-12.4.131.dist-info/METADATA"), "Name: nvidia-cuda-nvcc-cu12\n");
    write_file(dir / "etc/os-release", "ID=debian\nVERSION_ID=\"12\"\nPRETTY_NAME=\"Fake Image\"\n");
  }

  Inventory collect_with(std::map<std::string, std::string> env) {
    CollectOptions o;
    o.root = dir.path();
    o.environment = env;
    return collect(o);
  }

  TempDir dir;
};

TEST_F(InvFakeTree, EveryToolkitListedWithItsVersion) {
  auto inv = collect_with({{"PATH", "/usr/bin:/bin"}});
  EXPECT_EQ(inv.root, dir.path());
  struct Want {
    const char* root;
    const char* version;
    const char* source;
  } wants[] = {{"/usr/local/cuda-11.8", "11.8.0", "version.json"},
               {"/usr/local/cuda-10.2", "10.2.89", "version.txt"},
               {"/opt/conda/envs/cu121", "12.1.105", "conda-meta/cuda-nvcc-12.1.105-0.json"},
               {"/usr/local/lib/python3.11/dist-packages/nvidia/cuda_nvcc", "12.4.131", "dist-info nvidia-cuda-nvcc-cu12"}};
  for (const auto& w : wants) {
    const Toolkit* tk = toolkit_at(inv.toolkits, w.root);
    ASSERT_NE(tk, nullptr) << w.root;
    EXPECT_EQ(tk->version, w.version) << w.root;
    EXPECT_EQ(tk->version_source, w.source) << w.root;
  }
  EXPECT_EQ(inv.toolkits.size(), 4u);
  const Toolkit* t118 = toolkit_at(inv.toolkits, "/usr/local/cuda-11.8");
  EXPECT_TRUE(t118->is_usr_local_cuda);
  // gcc: the header's guard caps it at 11 (enforced); the support policy of 11.8 gives the minimum.
  ASSERT_FALSE(t118->host_compilers.empty());
  const auto& gcc = t118->host_compilers[0];
  EXPECT_EQ(gcc.compiler, "gcc");
  EXPECT_EQ(gcc.max, "11");
  EXPECT_TRUE(gcc.max_enforced);
  EXPECT_EQ(gcc.max_source, "/usr/local/cuda-11.8/include/crt/host_config.h");  // named as inside the image
  EXPECT_EQ(gcc.min, "6");
  EXPECT_FALSE(gcc.min_enforced);
  EXPECT_NE(gcc.min_source.find("data/compat/host_compilers.json (CUDA 11.8: https://"), std::string::npos) << gcc.min_source;
  // 10.2 has no header in this tree: policy only, both families.
  const Toolkit* t102 = toolkit_at(inv.toolkits, "/usr/local/cuda-10.2");
  ASSERT_EQ(t102->host_compilers.size(), 2u);
  for (const auto& r : t102->host_compilers) EXPECT_FALSE(r.min_enforced || r.max_enforced) << r.compiler;
  // Nothing runs under --root and the image has no gcc: where nvcc's compiler falls is unknown, and says so.
  auto fit = compiler::judge_host_compiler(inv, *t118, nullptr);
  EXPECT_EQ(fit.details["fit"], "unknown");
  EXPECT_NE(fit.summary.find("no host compiler found"), std::string::npos);
  EXPECT_FALSE(toolkit_at(inv.toolkits, "/usr/local/cuda-10.2")->is_usr_local_cuda);
  EXPECT_EQ(toolkit_at(inv.toolkits, "/usr/local/lib/python3.11/dist-packages/nvidia/cuda_nvcc")->nvcc, "");
  EXPECT_EQ(inv.system.os_pretty, "Fake Image");
}

TEST_F(InvFakeTree, NoVariablesEveryoneFallsBackToUsrLocalCuda) {
  auto inv = collect_with({{"PATH", "/usr/bin:/bin"}});
  EXPECT_EQ(choice(inv.toolkit_choices, "path").root, "");
  EXPECT_EQ(choice(inv.toolkit_choices, "cmake").root, "/usr/local/cuda-11.8");
  EXPECT_EQ(choice(inv.toolkit_choices, "cmake").version, "11.8.0");
  EXPECT_EQ(choice(inv.toolkit_choices, "torch_cpp_extension").root, "/usr/local/cuda-11.8");
}

TEST_F(InvFakeTree, CondaNvccOnPathAndCudaHomeDisagree) {
  auto inv = collect_with({{"PATH", "/opt/conda/envs/cu121/bin:/usr/bin"}, {"CUDA_HOME", "/usr/local/cuda-10.2"}});
  EXPECT_EQ(choice(inv.toolkit_choices, "path").root, "/opt/conda/envs/cu121");
  EXPECT_EQ(choice(inv.toolkit_choices, "path").version, "12.1.105");
  EXPECT_EQ(choice(inv.toolkit_choices, "cmake").root, "/opt/conda/envs/cu121");  // CMake ignores CUDA_HOME
  EXPECT_EQ(choice(inv.toolkit_choices, "torch_cpp_extension").root, "/usr/local/cuda-10.2");
  EXPECT_EQ(choice(inv.toolkit_choices, "torch_cpp_extension").version, "10.2.89");
  EXPECT_EQ(choice(inv.toolkit_choices, "torch_cpp_extension").reason, "CUDA_HOME=/usr/local/cuda-10.2");
  const Toolkit* conda = toolkit_at(inv.toolkits, "/opt/conda/envs/cu121");
  ASSERT_NE(conda, nullptr);
  EXPECT_NE(std::find(conda->found_via.begin(), conda->found_via.end(), "PATH"), conda->found_via.end());
}

TEST_F(InvFakeTree, CudaPathAndCudacxxSteerCmake) {
  auto inv = collect_with({{"PATH", "/usr/bin"}, {"CUDA_PATH", "/usr/local/cuda-10.2"}});
  EXPECT_EQ(choice(inv.toolkit_choices, "cmake").root, "/usr/local/cuda-10.2");
  EXPECT_EQ(choice(inv.toolkit_choices, "torch_cpp_extension").root, "/usr/local/cuda-10.2");
  inv = collect_with({{"PATH", "/usr/bin"}, {"CUDACXX", "/opt/conda/envs/cu121/bin/nvcc"}});
  EXPECT_EQ(choice(inv.toolkit_choices, "cmake").root, "/opt/conda/envs/cu121");
  EXPECT_EQ(choice(inv.toolkit_choices, "torch_cpp_extension").root, "/usr/local/cuda-11.8");
}

TEST_F(InvFakeTree, WithoutTheSymlinkCmakeTakesTheNewestVersionedDirAndTorchHasNone) {
  std::filesystem::remove(dir / "usr/local/cuda");
  auto inv = collect_with({{"PATH", "/usr/bin"}});
  EXPECT_EQ(choice(inv.toolkit_choices, "cmake").root, "/usr/local/cuda-11.8");
  EXPECT_EQ(choice(inv.toolkit_choices, "torch_cpp_extension").root, "");
  EXPECT_FALSE(toolkit_at(inv.toolkits, "/usr/local/cuda-11.8")->is_usr_local_cuda);
}

TEST_F(InvFakeTree, CudaHomeToAMissingDirIsReportedAsSuch) {
  auto inv = collect_with({{"PATH", "/usr/bin"}, {"CUDA_HOME", "/usr/local/cuda-12.9"}});
  const auto& t = choice(inv.toolkit_choices, "torch_cpp_extension");
  EXPECT_EQ(t.root, "/usr/local/cuda-12.9");
  EXPECT_EQ(t.version, "");
  EXPECT_NE(t.reason.find("does not exist"), std::string::npos);
}

TEST_F(InvFakeTree, AbsoluteLinksStayInsideTheRoot) {
  platform::RootFs fs(dir.path());
  EXPECT_EQ(fs.resolve("/usr/local/cuda"), "/usr/local/cuda-11.8");
  EXPECT_EQ(fs.resolve("/usr/local/cuda/bin/nvcc"), "/usr/local/cuda-11.8/bin/nvcc");
  make_symlink("../../../../usr/local/cuda-10.2", dir / "opt/x/y/z");
  EXPECT_EQ(fs.resolve("/opt/x/y/z/version.txt"), "/usr/local/cuda-10.2/version.txt");
  make_symlink("/etc/../../../../../etc", dir / "opt/escape");
  EXPECT_EQ(fs.resolve("/opt/escape/os-release"), "/etc/os-release");
  EXPECT_EQ(fs.read("/opt/escape/os-release").find("Fake Image") != std::string::npos, true);
}

}  // namespace
}  // namespace gpucheck::inventory
