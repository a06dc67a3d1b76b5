// Library discovery with real copies of this machine's libcudart: LD_LIBRARY_PATH beating the ld.so cache
// for the loader's pick, pip `nvidia/*/lib` and torch/lib copies attributed to their wheels.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/subprocess.h"
#include "core/text.h"
#include "inventory/collect.h"
#include "inventory/library_scan.h"
#include "test_support.h"

namespace gpucheck::inventory {
namespace {

using testing::make_symlink;
using testing::TempDir;
using testing::write_file;

const std::string kRealCudart = "/usr/local/cuda/lib64/libcudart.so";

const Library* find(const std::vector<Library>& libs, const std::string& path) {
  for (const auto& l : libs)
    if (l.path == path) return &l;
  return nullptr;
}

TEST(InvLibraries, LdLibraryPathCopyIsWhatTheLoaderPicks) {
  TempDir tmp;
  std::string real = platform::RootFs("/").resolve(kRealCudart);
  std::string soname = base_name(real);  // libcudart.so.N: the toolkit ships the file under its SONAME
  std::filesystem::copy_file(real, tmp / soname);
  CollectOptions o;
  o.python = false;
  o.environment = std::map<std::string, std::string>{{"PATH", "/usr/bin"}, {"LD_LIBRARY_PATH", tmp.path()}};
  auto inv = collect(o);
  const Library* copy = find(inv.libraries, tmp / soname);
  const Library* original = find(inv.libraries, real);
  ASSERT_NE(copy, nullptr);
  ASSERT_NE(original, nullptr);
  EXPECT_TRUE(copy->loader_pick);
  EXPECT_FALSE(original->loader_pick);
  EXPECT_EQ(copy->found_via, std::vector<std::string>{"LD_LIBRARY_PATH"});
  EXPECT_EQ(copy->soname, soname);
  // Both copies answer cudaRuntimeGetVersion identically, each in its own child.
  EXPECT_EQ(copy->version_source, "cudaRuntimeGetVersion via dlopen") << copy->version_error;
  EXPECT_EQ(copy->version, original->version);

  o.environment->erase("LD_LIBRARY_PATH");
  inv = collect(o);
  EXPECT_EQ(find(inv.libraries, tmp / soname), nullptr);
  EXPECT_TRUE(find(inv.libraries, real)->loader_pick);
}

TEST(InvLibraries, CachedReadingIsDroppedWhenTheFileChanges) {
  TempDir tmp;
  std::string real = platform::RootFs("/").resolve(kRealCudart);
  std::string copy = tmp / ("lib/" + base_name(real));
  std::filesystem::create_directories(tmp / "lib");
  std::filesystem::copy_file(real, copy);
  CollectOptions o;
  o.python = false;
  o.version_cache = tmp / "cache.json";
  o.environment = std::map<std::string, std::string>{{"PATH", "/usr/bin"}, {"LD_LIBRARY_PATH", tmp / "lib"}};
  auto source = [&] { return find(collect(o).libraries, copy)->version_source; };
  EXPECT_EQ(source(), "cudaRuntimeGetVersion via dlopen");
  EXPECT_EQ(source(), "cudaRuntimeGetVersion via dlopen (cached)");
  std::filesystem::last_write_time(copy, std::filesystem::file_time_type::clock::now() + std::chrono::hours(1));
  EXPECT_EQ(source(), "cudaRuntimeGetVersion via dlopen");  // new identity: read again
  write_file(tmp / "cache.json", "{corrupt");
  EXPECT_EQ(source(), "cudaRuntimeGetVersion via dlopen");  // a broken cache is an empty one
}

TEST(InvLibraries, PipAndTorchCopiesUnderRoot) {
  TempDir tmp;
  std::string real = platform::RootFs("/").resolve(kRealCudart);
  std::string soname = base_name(real);
  std::string site = "/usr/lib/python3.11/site-packages";
  std::filesystem::create_directories(tmp / (site + "/nvidia/cuda_runtime/lib"));
  std::filesystem::copy_file(real, tmp / (site + "/nvidia/cuda_runtime/lib/" + soname));
  write_file(tmp / (site + "/nvidia_cuda_runtime_cu13-13.0.96.dist-info/METADATA"), "");
  write_file(tmp / (site + "/torch/lib/libcudnn.so.9.1.0"), "not ELF");
  make_symlink("libcudnn.so.9.1.0", tmp / (site + "/torch/lib/libcudnn.so.9"));
  write_file(tmp / "usr/bin/python3", "", true);
  CollectOptions o;
  o.root = tmp.path();
  auto inv = collect(o);
  const Library* pip = find(inv.libraries, site + "/nvidia/cuda_runtime/lib/" + soname);
  ASSERT_NE(pip, nullptr);
  EXPECT_EQ(pip->package, "nvidia-cuda-runtime-cu13");
  EXPECT_EQ(pip->version, "13.0.96");  // nothing is loaded under --root: the wheel's dist-info
  EXPECT_EQ(pip->version_source, "dist-info nvidia-cuda-runtime-cu13");
  EXPECT_EQ(pip->found_via, std::vector<std::string>{"pip:nvidia-cuda-runtime-cu13"});
  const Library* torch = find(inv.libraries, site + "/torch/lib/libcudnn.so.9.1.0");
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(torch->found_via, std::vector<std::string>{"torch/lib"});
  EXPECT_EQ(torch->version, "9.1.0");
  EXPECT_EQ(torch->links, std::vector<std::string>{site + "/torch/lib/libcudnn.so.9"});
  ASSERT_EQ(inv.pythons.size(), 1u);  // described from files
  EXPECT_EQ(inv.pythons[0].packages.at("nvidia-cuda-runtime-cu13"), "13.0.96");
}

// What `import torch` loaded is asked for its version inside the Python child (RTLD_NOLOAD), not in a
// version child; a library beside it that nothing loaded still gets its own child, and is not loaded there.
TEST(InvLibraries, LibrariesTorchLoadedAreReadInThePythonChild) {
  TempDir tmp;
  ASSERT_TRUE(run_subprocess({"/usr/bin/python3", "-m", "venv", "--without-pip", tmp / "venv"}).ok());
  std::string site = trim(run_subprocess({tmp / "venv/bin/python", "-c",
                                          "import sysconfig; print(sysconfig.get_paths()['purelib'])"}).out);
  std::string lib_dir = site + "/nvidia/cu13/lib";
  std::filesystem::create_directories(lib_dir);
  std::string cudart = platform::RootFs("/").resolve(kRealCudart);
  std::string jitlink = platform::RootFs("/").resolve("/usr/local/cuda/lib64/libnvJitLink.so");
  std::filesystem::copy_file(cudart, lib_dir + "/" + base_name(cudart));
  std::filesystem::copy_file(jitlink, lib_dir + "/" + base_name(jitlink));
  // A stand-in torch that loads the venv's cudart as torch's own libraries do (not nvJitLink).
  write_file(site + "/torch/__init__.py",
             "import ctypes, os\n__version__ = '0.0.1'\n"
             "ctypes.CDLL(os.path.join(os.path.dirname(__file__), '../nvidia/cu13/lib/" + base_name(cudart) + "'))\n");
  CollectOptions o;
  o.pythons = {tmp / "venv/bin/python"};
  o.environment = std::map<std::string, std::string>{{"PATH", "/usr/bin"}};
  auto inv = collect(o);
  const Library* in_venv = find(inv.libraries, platform::RootFs("/").resolve(lib_dir + "/" + base_name(cudart)));
  const Library* system = find(inv.libraries, cudart);
  ASSERT_NE(in_venv, nullptr);
  ASSERT_NE(system, nullptr);
  EXPECT_EQ(in_venv->version_source, "cudaRuntimeGetVersion in the Python child after import torch");
  EXPECT_EQ(system->version_source, "cudaRuntimeGetVersion via dlopen");
  EXPECT_EQ(in_venv->version, system->version);  // the same function, the same answer
  const Library* unloaded = find(inv.libraries, platform::RootFs("/").resolve(lib_dir + "/" + base_name(jitlink)));
  ASSERT_NE(unloaded, nullptr);
  EXPECT_EQ(unloaded->version_source, "nvJitLinkVersion via dlopen");
  const PythonEnv* venv = nullptr;
  for (const auto& p : inv.pythons)
    if (p.interpreter == tmp / "venv/bin/python") venv = &p;
  ASSERT_NE(venv, nullptr);
  EXPECT_EQ(venv->mapped_library_versions.size(), 1u) << "RTLD_NOLOAD must not load what torch did not";
}

}  // namespace
}  // namespace gpucheck::inventory
