// `gpucheck abi` on an extension judged as its own Python imports it (issue 13): bmtrain 0.2.2's
// nccl/_C, compiled from bmtrain's sdist by torch's BuildExtension exactly as bmtrain's setup.py declares
// it (the other three extensions, CUDA kernels that take an hour here, are left out), in a venv with PyPI's
// torch 2.11.0 (CUDA 13.0, like the toolkit at /usr/local/cuda). It calls ncclRecv but links only libc10
// and libtorch_cpu; torch loads libnccl.so.2 RTLD_LOCAL, so the real import fails with `undefined symbol:
// ncclRecv` unless TORCH_USE_RTLD_GLOBAL is set. abi, given only the file (no --with-torch, no --python),
// must fail with that symbol exactly when the real import fails, and pass when it succeeds.
// Runs only with GPUCHECK_TEST_REPRO=1; the venv is kept in $GPUCHECK_TEST_VENV_DIR (default
// ~/.cache/gpucheck/test-venvs) once complete.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "checks/abi/torch_import.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "support/venv.h"

using namespace gpucheck;
namespace fs = std::filesystem;

namespace {

const std::string kBin = std::string(GPUCHECK_STAGE_BIN) + "/gpucheck";

// bmtrain's setup.py with only its `bmtrain.nccl._C` extension kept, run as `setup.py bdist_wheel -d OUT`.
const char* kOnlyNccl = R"PY(import sys, setuptools
out = sys.argv[1]
sys.argv = ["setup.py", "bdist_wheel", "-d", out]
_setup = setuptools.setup
def only_nccl(**kw):
    kw["ext_modules"] = [e for e in kw["ext_modules"] if e.name == "bmtrain.nccl._C"]
    return _setup(**kw)
setuptools.setup = only_nccl
exec(compile(open("setup.py").read(), "setup.py", "exec"), {"__name__": "__main__", "__file__": "setup.py"})
)PY";

// Builds the venv once; "" on success, else why not (the test then skips: registry unreachable).
std::string build_venv(const fs::path& dir) {
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(30);
  o.set_env = {{"CUDA_HOME", "/usr/local/cuda"}, {"PIP_DISABLE_PIP_VERSION_CHECK", "1"}};
  const std::string py = (dir / "bin/python").string(), src = (dir / "src").string();
  auto prepare = [&] {
    fs::create_directories(src);
    std::ofstream(src + "/only_nccl.py") << kOnlyNccl;
  };
  auto build_and_install = [&]() -> std::string {
    SubprocessOptions b = o;
    b.working_dir = src + "/bmtrain-0.2.2";
    auto r = run_subprocess({py, src + "/only_nccl.py", src + "/wheel"}, b);
    if (!r.ok()) return "building bmtrain.nccl._C: " + r.describe() + " " + last_lines(r.out + r.err, 20);
    std::string wheel;
    for (const auto& e : fs::directory_iterator(src + "/wheel")) wheel = e.path().string();
    r = run_subprocess({py, "-m", "pip", "install", "-q", "--no-deps", wheel}, o);
    return r.ok() ? "" : "pip install " + wheel + ": " + r.err;
  };
  return gpucheck::testing::keep_venv(
      dir,
      {{py, "-m", "pip", "install", "-q", "torch==2.11.0", "wheel==0.48.0"},
       // setup.py imports torch: metadata only prepares with torch importable and no build isolation.
       {py, "-m", "pip", "download", "-q", "--no-deps", "--no-build-isolation", "bmtrain==0.2.2", "-d", src},
       {"tar", "-C", src, "-xzf", src + "/bmtrain-0.2.2.tar.gz"}},
      o, "torch 2.11.0, bmtrain 0.2.2 with only bmtrain.nccl._C built", prepare, build_and_install,
      gpucheck::testing::kTorchVenvRoom);
}

struct Outcome {
  bool ok = false;
  std::string error;  // the last line of the traceback
};

// The real thing: `import torch`, then the module file loaded by Python's own extension loader.
Outcome real_import(const std::string& py, const std::string& module, bool rtld_global) {
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(3);
  o.working_dir = "/";
  o.unset_env = {"LD_LIBRARY_PATH", "LD_PRELOAD", "TORCH_USE_RTLD_GLOBAL"};
  if (rtld_global) o.set_env["TORCH_USE_RTLD_GLOBAL"] = "1";
  auto r = run_subprocess({py, "-c",
                           "import sys, torch, importlib.util as u\n"
                           "s = u.spec_from_file_location('bmtrain.nccl._C', sys.argv[1])\n"
                           "s.loader.exec_module(u.module_from_spec(s))\n",
                           module},
                          o);
  return {r.ok(), trim(last_lines(r.err, 1))};
}

nlohmann::json audit_json(const std::string& module, bool rtld_global, int* exit_code) {
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(3);
  o.working_dir = "/";
  o.set_env = {{"PATH", "/usr/bin:/bin"}};  // python3 on PATH is Debian's, with its own torch 1.13: not ours
  o.unset_env = {"LD_LIBRARY_PATH", "LD_PRELOAD", "TORCH_USE_RTLD_GLOBAL"};
  if (rtld_global) o.set_env["TORCH_USE_RTLD_GLOBAL"] = "1";
  auto r = run_subprocess({kBin, "abi", module, "--gpu", "sm_90", "--json"}, o);
  EXPECT_TRUE(r.exited) << r.describe() << r.err;
  *exit_code = r.exit_code;
  return nlohmann::json::parse(r.out);
}

const nlohmann::json& target_of(const nlohmann::json& doc) {
  return doc.at("sections").at(0).at("findings").at(0).at("details");
}

}  // namespace

TEST(TorchImportRepro, Bmtrain022NcclModuleFailsExactlyWhenItsImportFails) {
  if (!gpucheck::testing::repro_enabled())
    GTEST_SKIP() << "set GPUCHECK_TEST_REPRO=1 (downloads about 4.6 GB from PyPI once)";
  const fs::path dir = fs::path(gpucheck::testing::kept_venv_root()) / "torch211-bmtrain022";
  if (auto why = build_venv(dir); !why.empty()) GTEST_SKIP() << "could not build the venv: " << why;
  const std::string py = (dir / "bin/python").string();
  const fs::path site = dir / "lib/python3.11/site-packages";
  std::string module;
  for (const auto& e : fs::directory_iterator(site / "bmtrain/nccl"))
    if (e.path().extension() == ".so") module = e.path().string();
  ASSERT_FALSE(module.empty());

  // The plain `import bmtrain` a user runs fails on this very symbol.
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(3);
  o.working_dir = "/";
  o.unset_env = {"LD_LIBRARY_PATH", "LD_PRELOAD", "TORCH_USE_RTLD_GLOBAL"};
  auto user = run_subprocess({py, "-c", "import bmtrain"}, o);
  EXPECT_FALSE(user.ok());
  EXPECT_NE(user.err.find("undefined symbol: ncclRecv"), std::string::npos) << last_lines(user.err, 3);

  for (bool rtld_global : {false, true}) {
    SCOPED_TRACE(rtld_global ? "TORCH_USE_RTLD_GLOBAL=1" : "default import");
    Outcome real = real_import(py, module, rtld_global);
    int rc = -1;
    auto doc = audit_json(module, rtld_global, &rc);
    const auto& t = target_of(doc);
    // The judged process: this venv's torch, found from the module's own site-packages.
    EXPECT_EQ(t["process"]["torch"], (site / "torch").string());
    EXPECT_EQ(t["process"]["chosen_by"], "site-packages of the target");
    EXPECT_EQ(t["process"]["python"].get<std::string>().rfind("/", 0), 0u) << t["process"].dump(1);
    // Never Debian's LibTorch (/usr/lib/x86_64-linux-gnu/libc10.so): no false C++ ABI findings.
    for (const auto& d : t["dependencies"]) {
      if (d.value("name", "") == "libc10.so") EXPECT_EQ(d.value("path", "").rfind(site.string(), 0), 0u) << d.dump();
    }
    bool not_visible = false, ncclrecv = false;
    for (const auto& g : t["symbols"]["groups"]) {
      EXPECT_NE(g["category"], "cxx_abi") << g.dump(1);
      if (g["category"] == "not_visible") {
        not_visible = true;
        for (const auto& s : g["symbols"]) ncclrecv = ncclrecv || s == "ncclRecv";
        EXPECT_NE(g["cause"].get<std::string>().find("libnccl.so.2"), std::string::npos) << g.dump(1);
      }
    }
    if (!real.ok) {
      EXPECT_NE(real.error.find("undefined symbol: ncclRecv"), std::string::npos) << real.error;
      EXPECT_EQ(rc, 1);
      EXPECT_EQ(t["status"], "fail");
      EXPECT_TRUE(not_visible && ncclrecv) << t["symbols"].dump(1);
    } else {
      EXPECT_EQ(rc, 0) << t.dump(1);
      EXPECT_EQ(t["status"], "pass");
      EXPECT_FALSE(not_visible);
    }
    EXPECT_EQ(real.ok, rtld_global) << "torch 2.11 loads libnccl RTLD_LOCAL unless TORCH_USE_RTLD_GLOBAL: " << real.error;

    // The printed fix, run word for word in a shell before the same import, makes it load.
    if (!real.ok) {
      const auto& fixes = doc.at("sections").at(0).at("findings").at(0).at("fixes");
      ASSERT_FALSE(fixes.empty());
      ASSERT_FALSE(fixes[0]["commands"].empty()) << fixes.dump(1);
      std::string script;
      for (const auto& c : fixes[0]["commands"]) script += c.get<std::string>() + "\n";
      script += "exec \"$0\" -c \"$1\" \"$2\"\n";
      SubprocessOptions f;
      f.timeout = std::chrono::minutes(3);
      f.working_dir = "/";
      f.unset_env = {"LD_LIBRARY_PATH", "LD_PRELOAD", "TORCH_USE_RTLD_GLOBAL"};
      auto fixed = run_subprocess({"/bin/sh", "-ec", script, py,
                                   "import sys, torch, importlib.util as u\n"
                                   "s = u.spec_from_file_location('bmtrain.nccl._C', sys.argv[1])\n"
                                   "s.loader.exec_module(u.module_from_spec(s))\n",
                                   module},
                                  f);
      EXPECT_TRUE(fixed.ok()) << script << last_lines(fixed.err, 3);
    }
  }
}

// torch 1.13-2.4's fallback, on torch 2.1.2's real torch/__init__.py and lib/libtorch_global_deps.so (from
// the venv DoctorEnvRepro keeps; skipped without it): laid out as a distro's pip does when torch lands in
// platlib (lib64/) and the nvidia-* wheels in purelib (lib/), the global deps' RPATH
// ($ORIGIN/../../nvidia/...) finds nothing, dlopen fails on the first CUDA library, and torch preloads its
// list RTLD_LOCAL from the other sys.path entry before loading the global deps again.
TEST(TorchImportRepro, Torch21PreloadFallbackWhenGlobalDepsCannotLoad) {
  const fs::path src = fs::path(gpucheck::testing::kept_venv_root()) / "torch212-numpy2-nccl-cu11-over-cu12/lib/python3.11/site-packages";
  if (!fs::exists(src / "torch/lib/libtorch_global_deps.so")) GTEST_SKIP() << src << " is not built (DoctorEnvRepro builds it)";
  const fs::path root = fs::temp_directory_path() / ("gpucheck_fallback_" + std::to_string(::getpid()));
  fs::remove_all(root);
  const fs::path plat = root / "lib64/python3.11/site-packages", pure = root / "lib/python3.11/site-packages";
  fs::create_directories(plat / "torch/lib");
  fs::create_directories(pure);
  for (const char* f : {"__init__.py", "_utils_internal.py", "version.py"}) fs::copy_file(src / "torch" / f, plat / "torch" / f);
  for (const auto& e : fs::directory_iterator(src / "torch/lib")) {
    std::string n = e.path().filename().string();
    if (n == "libtorch_global_deps.so" || n.rfind("libgomp", 0) == 0) fs::copy_file(e.path(), plat / "torch/lib" / n);
  }
  const std::string torch_dir = (plat / "torch").string(), deps = torch_dir + "/lib/libtorch_global_deps.so";
  gpucheck::abi::LoaderConfig cfg;  // no LD_LIBRARY_PATH, no cache: only what torch's files say
  cfg.default_dirs = {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64"};

  // What Python's real dlopen says about this very file: the first CUDA library it cannot find.
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(1);
  o.unset_env = {"LD_LIBRARY_PATH", "LD_PRELOAD"};
  auto real = run_subprocess({"python3", "-c", "import ctypes, sys\ntry:\n ctypes.CDLL(sys.argv[1], mode=ctypes.RTLD_GLOBAL)\n"
                              "except OSError as e:\n print(e)", deps}, o);
  ASSERT_TRUE(real.ok()) << real.err;
  EXPECT_NE(real.out.find("libcufft.so.11"), std::string::npos) << real.out;

  // No nvidia wheel anywhere: the fallback's _preload_cuda_deps raises ValueError.
  auto none = gpucheck::abi::torch_import(torch_dir, false, &cfg);
  EXPECT_TRUE(none.import_fails) << none.how;
  EXPECT_NE(none.how.find("libcufft.so.11 not found"), std::string::npos) << none.how;
  EXPECT_NE(none.how.find("ValueError"), std::string::npos) << none.how;

  // The wheels in purelib: every library of torch 2.1.2's dict preloaded RTLD_LOCAL from there, in its
  // order, then the global deps RTLD_GLOBAL.
  fs::create_directory_symlink(src / "nvidia", pure / "nvidia");
  auto split_site = gpucheck::abi::torch_import(torch_dir, false, &cfg);
  EXPECT_FALSE(split_site.import_fails) << split_site.how;
  ASSERT_EQ(split_site.loads.size(), 12u) << split_site.how;
  const char* order[] = {"cublas/lib/libcublas.so.12", "cudnn/lib/libcudnn.so.8", "cuda_nvrtc/lib/libnvrtc.so.12",
                         "cuda_runtime/lib/libcudart.so.12", "cuda_cupti/lib/libcupti.so.12", "cufft/lib/libcufft.so.11",
                         "curand/lib/libcurand.so.10", "cusolver/lib/libcusolver.so.11", "cusparse/lib/libcusparse.so.12",
                         "nccl/lib/libnccl.so.2", "nvtx/lib/libnvToolsExt.so.1"};
  for (std::size_t i = 0; i < 11; ++i) {
    EXPECT_EQ(split_site.loads[i].path, (pure / "nvidia" / order[i]).string());
    EXPECT_FALSE(split_site.loads[i].global);
  }
  EXPECT_EQ(split_site.loads[11].path, deps);
  EXPECT_TRUE(split_site.loads[11].global);

  // The wheels beside torch (a plain venv): the RPATH finds them, no fallback.
  fs::create_directory_symlink(src / "nvidia", plat / "nvidia");
  auto plain = gpucheck::abi::torch_import(torch_dir, false, &cfg);
  ASSERT_EQ(plain.loads.size(), 1u) << plain.how;
  EXPECT_EQ(plain.loads[0].path, deps);
  EXPECT_TRUE(plain.loads[0].global);
  fs::remove_all(root);
}
