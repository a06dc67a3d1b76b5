// Real CUDA wheels from PyPI (nvidia-cuda-runtime-cu11/-cu12, nvidia-cuda-nvcc-cu11/-cu12) pip-installed into
// venvs cached under the build tree: libcudart.so.11.0 / .12 versions read through dlopen with no GPU, and
// the pip nvcc packages listed as toolkits with their versions and the host compiler range of their real
// crt/host_config.h (11.8, 12.1). Skipped when PyPI cannot be reached.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "core/files.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "inventory/collect.h"
#include "inventory/driver_info.h"
#include "inventory/loader_cache.h"
#include "test_support.h"

namespace gpucheck::inventory {
namespace {

struct Flavour {
  const char* name;
  const char* version;      // pinned wheel version (runtime and nvcc wheels share it)
  const char* soname;
  const char* api_version;  // what cudaRuntimeGetVersion must say
  bool needs_driver;        // CUDA <= 11: the call fails without a driver
};

// Returns the venv's site-packages, "" (with *skip set) when PyPI is unreachable.
std::string cached_venv(const Flavour& f, std::string* skip) {
  std::string venv = std::string(GPUCHECK_ENV_TEST_CACHE) + "/venv-" + f.name;
  std::string done = venv + "/.gpucheck-complete";
  if (!std::filesystem::exists(done)) {
    std::error_code ec;
    std::filesystem::remove_all(venv, ec);
    std::filesystem::create_directories(GPUCHECK_ENV_TEST_CACHE, ec);
    auto mk = run_subprocess({"/usr/bin/python3", "-m", "venv", venv});
    if (!mk.ok()) return *skip = "cannot create a venv: " + last_lines(mk.err, 2), "";
    SubprocessOptions o;
    o.timeout = std::chrono::minutes(6);
    std::string v = f.version;
    auto pip = run_subprocess({venv + "/bin/pip", "install", "--disable-pip-version-check", "--no-deps", "--timeout", "30",
                               std::string("nvidia-cuda-runtime-") + f.name + "==" + v,
                               std::string("nvidia-cuda-nvcc-") + f.name + "==" + v},
                              o);
    if (!pip.ok()) return *skip = "PyPI unreachable or install failed: " + last_lines(pip.err, 2), "";
    testing::write_file(done, "");
  }
  auto sp = run_subprocess({venv + "/bin/python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"});
  return trim(sp.out);
}

class InvWheels : public ::testing::TestWithParam<Flavour> {};

TEST_P(InvWheels, RuntimeVersionThroughDlopenAndNvccPackageAsToolkit) {
  const Flavour& f = GetParam();
  std::string skip;
  std::string site = cached_venv(f, &skip);
  if (site.empty()) GTEST_SKIP() << skip;
  std::string venv = std::string(GPUCHECK_ENV_TEST_CACHE) + "/venv-" + f.name;

  CollectOptions o;
  o.pythons = {venv + "/bin/python"};
  o.environment = std::map<std::string, std::string>{{"PATH", "/nonexistent"}};
  auto inv = collect(o);

  std::string pkg_runtime = std::string("nvidia-cuda-runtime-") + f.name;
  std::string lib = site + "/nvidia/cuda_runtime/lib/" + f.soname;
  const Library* cudart = nullptr;
  for (const auto& l : inv.libraries)
    if (l.path == lib) cudart = &l;
  ASSERT_NE(cudart, nullptr) << "no " << lib;
  EXPECT_EQ(cudart->name, "cudart");
  EXPECT_EQ(cudart->soname, f.soname);
  if (!f.needs_driver || read_driver(platform::RootFs("/"), read_loader_cache(platform::RootFs("/")).cache).cuda_version > 0) {
    EXPECT_EQ(cudart->version, f.api_version);
    EXPECT_EQ(cudart->version_source, "cudaRuntimeGetVersion via dlopen") << cudart->version_error;
  } else {
    // CUDA 11's cudaRuntimeGetVersion returns cudaErrorInsufficientDriver (35) with no driver: the failed
    // call is reported and the version falls back to the wheel's dist-info.
    EXPECT_EQ(cudart->version_error, "version function returned error code 35");
    EXPECT_EQ(cudart->version, f.version);
    EXPECT_EQ(cudart->version_source, "dist-info " + pkg_runtime);
  }
  EXPECT_EQ(cudart->package, pkg_runtime);
  EXPECT_EQ(cudart->package_version, f.version);
  EXPECT_NE(std::find(cudart->found_via.begin(), cudart->found_via.end(), "pip:" + pkg_runtime), cudart->found_via.end());

  const Toolkit* tk = nullptr;
  for (const auto& t : inv.toolkits)
    if (t.root == site + "/nvidia/cuda_nvcc") tk = &t;
  ASSERT_NE(tk, nullptr);
  EXPECT_EQ(tk->version, f.version);
  EXPECT_EQ(tk->version_source, std::string("dist-info nvidia-cuda-nvcc-") + f.name);
  EXPECT_EQ(tk->nvcc, "");  // these wheels ship ptxas, not nvcc: no consumer can pick them
  for (const auto& c : inv.toolkit_choices) EXPECT_NE(c.root, tk->root) << c.consumer;
  // The wheel's own crt/host_config.h (real 11.8 / 12.1 headers) bounds gcc and clang; the values are the
  // ones its #error messages state, read here independently of the #if conditions the inventory evaluates.
  std::string header = read_file(tk->root + "/include/crt/host_config.h");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(header, m, std::regex(R"(gcc versions later than (\d+) are not supported)")));
  std::string gcc_max = m[1].str();
  ASSERT_TRUE(std::regex_search(header, m, std::regex(R"(clang version must be less than (\d+) and greater than 3\.2)")));
  std::string clang_max = std::to_string(std::stoi(m[1].str()) - 1);
  ASSERT_EQ(tk->host_compilers.size(), 2u);
  EXPECT_EQ(tk->host_compilers[0].compiler, "gcc");
  EXPECT_EQ(tk->host_compilers[0].max, gcc_max);
  EXPECT_EQ(tk->host_compilers[0].max, f.name == std::string("cu11") ? "11" : "12");
  EXPECT_TRUE(tk->host_compilers[0].max_enforced);
  EXPECT_FALSE(tk->host_compilers[0].min_enforced);  // gcc's minimum: the support policy
  EXPECT_EQ(tk->host_compilers[0].min, "6");
  EXPECT_EQ(tk->host_compilers[1].compiler, "clang");
  EXPECT_EQ(tk->host_compilers[1].min, "3.3");
  EXPECT_EQ(tk->host_compilers[1].max, clang_max);
  EXPECT_TRUE(tk->host_compilers[1].min_enforced && tk->host_compilers[1].max_enforced);

  ASSERT_FALSE(inv.pythons.empty());
  EXPECT_EQ(inv.pythons[0].packages.at(pkg_runtime), f.version);
}

INSTANTIATE_TEST_SUITE_P(Pypi, InvWheels,
                         ::testing::Values(Flavour{"cu11", "11.8.89", "libcudart.so.11.0", "11.8", true},
                                           Flavour{"cu12", "12.1.105", "libcudart.so.12", "12.1", false}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace gpucheck::inventory
