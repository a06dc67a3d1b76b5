// Logs produced here and now by the real toolkit and the real loader: an nvcc compile for an architecture
// the installed nvcc dropped, a program calling cudaGetDeviceCount without a driver, and a Python import of
// an extension whose shared library is missing. Each is explained by the installed gpucheck.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "core/subprocess.h"

using gpucheck::run_subprocess;
using gpucheck::SubprocessOptions;

namespace {

const std::string kBin = std::string(GPUCHECK_STAGE_BIN) + "/gpucheck";

struct Scratch {
  std::string dir;
  Scratch() {
    char tmpl[] = "/tmp/gpucheck-explain-local-XXXXXX";
    dir = mkdtemp(tmpl);
  }
  ~Scratch() { std::filesystem::remove_all(dir); }
  std::string put(const std::string& name, const std::string& text) const {
    gpucheck::write_file_atomic(dir + "/" + name, text);
    return dir + "/" + name;
  }
};

std::string nvcc_path() {
  if (const char* home = std::getenv("CUDA_HOME"); home && std::filesystem::exists(std::string(home) + "/bin/nvcc"))
    return std::string(home) + "/bin/nvcc";
  if (std::filesystem::exists("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  return gpucheck::find_in_path("nvcc");
}

// The findings of the "causes" section of `gpucheck explain - --json` on `log` (schema 2.0).
nlohmann::json explain_json(const std::string& log, const std::vector<std::string>& extra = {"--no-env"}) {
  std::vector<std::string> argv{kBin, "explain", "-", "--json"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  SubprocessOptions o;
  o.stdin_data = log;
  auto r = run_subprocess(argv, o);
  EXPECT_TRUE(r.exited) << r.describe();
  auto report = nlohmann::json::parse(r.out);
  for (const auto& s : report.at("sections"))
    if (s.at("name") == "causes") return s.at("findings");
  ADD_FAILURE() << "no causes section: " << r.out.substr(0, 500);
  return nlohmann::json::array();
}

}  // namespace

TEST(ExplainLocalLogs, NvccRejectingADroppedArchitecture) {
  std::string nvcc = nvcc_path();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc (CUDA_HOME, /usr/local/cuda/bin, PATH)";
  Scratch s;
  auto src = s.put("kernel.cu", "__global__ void k() {}\nint main() { k<<<1, 1>>>(); return 0; }\n");
  auto r = run_subprocess({nvcc, "-arch=sm_50", "-o", s.dir + "/kernel", src});
  if (r.ok()) GTEST_SKIP() << nvcc << " still supports sm_50 (CUDA < 13); nothing to explain";
  auto causes = explain_json(r.out + r.err);
  ASSERT_EQ(causes.size(), 1u) << r.err;
  EXPECT_EQ(causes[0]["id"], "cuda-arch-unsupported");
  EXPECT_EQ(causes[0]["details"]["captures"]["arch"], "sm_50");
}

TEST(ExplainLocalLogs, CudaRuntimeWithoutADriver) {
  std::string nvcc = nvcc_path();
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc to build the CUDA runtime program";
  Scratch s;
  auto src = s.put("count.cpp",
                   "#include <cstdio>\n#include <cuda_runtime.h>\n"
                   "int main() { int n = 0; cudaError_t e = cudaGetDeviceCount(&n);\n"
                   "  if (e != cudaSuccess) { std::fprintf(stderr, \"cudaGetDeviceCount failed: %s (%d): %s\\n\",\n"
                   "    cudaGetErrorName(e), (int)e, cudaGetErrorString(e)); return 1; }\n"
                   "  std::printf(\"%d devices\\n\", n); return 0; }\n");
  SubprocessOptions slow;
  slow.timeout = std::chrono::seconds(120);
  auto build = run_subprocess({nvcc, "-o", s.dir + "/count", src}, slow);
  ASSERT_TRUE(build.ok()) << build.describe() << build.err;
  auto run = run_subprocess({s.dir + "/count"});
  if (run.ok()) GTEST_SKIP() << "a driver is present (" << run.out << "): no failure to explain";
  auto causes = explain_json(run.err);
  ASSERT_EQ(causes.size(), 1u) << run.err;
  std::string id = causes[0]["id"];
  // Error 35 from the log alone; with this machine's inventory (no driver found) it is named as such.
  EXPECT_TRUE(id == "driver.too_old_for_torch" || id == "driver.missing") << run.err;
  if (!std::filesystem::exists("/proc/driver/nvidia/version")) {
    nlohmann::json inv = {{"schema_version", "1"},
                          {"driver", {{"present", false}, {"error", "no /proc/driver/nvidia/version"}}}};
    auto env = s.put("env.json", inv.dump());
    auto with_env = explain_json(run.err, {"--env", env});
    EXPECT_EQ(with_env[0]["id"], "driver.missing");
  }
}

TEST(ExplainLocalLogs, PythonImportOfAnExtensionWithAMissingLibrary) {
  std::string cc = gpucheck::find_in_path("cc");
  std::string python = gpucheck::find_in_path("python3");
  if (cc.empty() || python.empty()) GTEST_SKIP() << "needs cc and python3";
  Scratch s;
  auto lib_src = s.put("missing.c", "int gpc_missing(void) { return 1; }\n");
  auto mod_src = s.put("mod.c", "extern int gpc_missing(void);\nint PyInit_gpcmod(void) { return gpc_missing(); }\n");
  ASSERT_TRUE(run_subprocess({cc, "-shared", "-fPIC", "-o", s.dir + "/libgpcmissing.so", lib_src}).ok());
  ASSERT_TRUE(run_subprocess({cc, "-shared", "-fPIC", "-o", s.dir + "/gpcmod.so", mod_src, "-L" + s.dir,
                              "-lgpcmissing", "-Wl,-rpath,$ORIGIN"})
                  .ok());
  std::filesystem::remove(s.dir + "/libgpcmissing.so");
  SubprocessOptions o;
  o.working_dir = s.dir;
  auto r = run_subprocess({python, "-c", "import gpcmod"}, o);
  ASSERT_FALSE(r.ok());
  auto causes = explain_json(r.err);
  ASSERT_EQ(causes.size(), 1u) << r.err;
  EXPECT_EQ(causes[0]["id"], "shared-library-missing");
  EXPECT_EQ(causes[0]["details"]["captures"]["library"], "libgpcmissing.so");
}
