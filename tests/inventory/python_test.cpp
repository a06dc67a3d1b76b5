// Python environments probed for real: a Python without torch, one whose `import torch` raises (a fake
// torch in a venv, and one on PYTHONPATH), and Debian's python3-torch where it is installed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "core/errors.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "inventory/collect.h"
#include "inventory/python_probe.h"
#include "test_support.h"

namespace gpucheck::inventory {
namespace {

using testing::TempDir;
using testing::write_file;

const char* kSystemPython = "/usr/bin/python3";

// A bare venv (no pip: fast) from the system Python; its site-packages path is returned.
std::string make_venv(const std::string& dir) {
  auto r = run_subprocess({kSystemPython, "-m", "venv", "--without-pip", dir});
  EXPECT_TRUE(r.ok()) << r.describe() << r.err;
  auto v = run_subprocess({dir + "/bin/python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"});
  return trim(v.out);
}

TEST(InvPythonProbe, WithoutTorch) {
  TempDir tmp;
  std::string site = make_venv(tmp / "venv");
  auto p = probe_python(tmp / "venv/bin/python", "--python");
  ASSERT_TRUE(p.error.empty()) << p.error;
  auto expect = run_subprocess({kSystemPython, "-c", "import platform; print(platform.python_version())"});
  EXPECT_EQ(p.version, trim(expect.out));
  EXPECT_EQ(p.kind, "venv");
  EXPECT_EQ(p.prefix, tmp / "venv");
  EXPECT_FALSE(p.torch_installed);
  EXPECT_EQ(p.torch_import_error, "");  // not installed is not an error
  EXPECT_NE(std::find(p.site_packages.begin(), p.site_packages.end(), site), p.site_packages.end());
  EXPECT_FALSE(p.mapped_libraries.empty());  // at least libc
}

TEST(InvPythonProbe, ImportTorchRaisesInAVenv) {
  TempDir tmp;
  std::string site = make_venv(tmp / "venv");
  write_file(site + "/torch/__init__.py",
             "raise OSError('libcudart.so.12: cannot open shared object file: No such file or directory')\n");
  write_file(site + "/torch-2.1.0.dist-info/METADATA", "Name: torch\nVersion: 2.1.0\n");
  write_file(site + "/nvidia_cudnn_cu12-8.9.2.26.dist-info/METADATA", "Name: nvidia-cudnn-cu12\n");
  auto p = probe_python(tmp / "venv/bin/python", "--python");
  ASSERT_TRUE(p.error.empty()) << p.error;
  EXPECT_FALSE(p.torch_installed);
  EXPECT_EQ(p.torch_import_error, "OSError: libcudart.so.12: cannot open shared object file: No such file or directory");
  EXPECT_EQ(p.packages.at("torch"), "2.1.0");  // read from dist-info, not by importing
  EXPECT_EQ(p.packages.at("nvidia-cudnn-cu12"), "8.9.2.26");
}

TEST(InvPythonProbe, ExtensionThatFailsToImportAfterTorchDid) {
  TempDir tmp;
  std::string site = make_venv(tmp / "venv");
  // A torch that imports, and a flash-attn whose compiled part was built against another torch.
  write_file(site + "/torch/__init__.py", "__version__ = '2.3.0'\n");
  write_file(site + "/torch-2.3.0.dist-info/METADATA", "");
  write_file(site + "/flash_attn/__init__.py",
             "raise ImportError(__file__ + '/../flash_attn_2_cuda.so: undefined symbol: _ZN3c104cuda9SetDeviceEi')\n");
  write_file(site + "/flash_attn-2.5.8.dist-info/METADATA", "");
  write_file(site + "/xformers/__init__.py", "");
  write_file(site + "/xformers-0.0.26.dist-info/METADATA", "");
  auto p = probe_python(tmp / "venv/bin/python", "--python");
  ASSERT_TRUE(p.error.empty()) << p.error;
  EXPECT_TRUE(p.torch_installed);
  EXPECT_EQ(p.torch_version, "2.3.0");
  ASSERT_EQ(p.import_errors.count("flash_attn"), 1u);
  EXPECT_NE(p.import_errors.at("flash_attn").find("ImportError: "), std::string::npos);
  EXPECT_NE(p.import_errors.at("flash_attn").find("undefined symbol: _ZN3c104cuda9SetDeviceEi"), std::string::npos);
  EXPECT_EQ(p.import_errors.count("xformers"), 0u);  // imported fine
  EXPECT_EQ(p.packages.at("flash-attn"), "2.5.8");
}

// Each import is checked in a child forked after `import torch` (issue 38): one that hangs is cut off at
// the per-import limit and reported as such, one that crashes is reported with its signal, and the others
// still answer, with the libraries their child mapped.
TEST(InvPythonProbe, ForkedImportChecksReportHangsCrashesAndFailures) {
  TempDir tmp;
  std::string site = make_venv(tmp / "venv");
  write_file(site + "/torch/__init__.py", "__version__ = '2.5.1'\n");
  write_file(site + "/torch-2.5.1.dist-info/METADATA", "");
  write_file(site + "/xformers/__init__.py", "import time\ntime.sleep(600)\n");
  write_file(site + "/xformers-0.0.28.dist-info/METADATA", "");
  write_file(site + "/flash_attn/__init__.py", "raise ImportError('flash_attn_2_cuda.so: undefined symbol: _ZN3c104cuda9SetDeviceEi')\n");
  write_file(site + "/flash_attn-2.6.3.dist-info/METADATA", "");
  write_file(site + "/apex/__init__.py", "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n");
  write_file(site + "/apex-0.1.dist-info/METADATA", "");
  write_file(site + "/torchvision/__init__.py", "import _lzma\n");  // an extension module torch did not map
  write_file(site + "/torchvision-0.20.1.dist-info/METADATA", "");
  ProbeRequest req;
  req.import_timeout_s = 1;
  req.import_jobs = 2;
  auto p = probe_python(tmp / "venv/bin/python", "--python", req);
  ASSERT_TRUE(p.error.empty()) << p.error;
  EXPECT_EQ(p.torch_version, "2.5.1");
  ASSERT_EQ(p.import_errors.count("xformers"), 1u);
  EXPECT_EQ(p.import_errors.at("xformers"), "TimeoutError: import xformers did not finish within 1 s");
  ASSERT_EQ(p.import_errors.count("flash_attn"), 1u);
  EXPECT_EQ(p.import_errors.at("flash_attn"), "ImportError: flash_attn_2_cuda.so: undefined symbol: _ZN3c104cuda9SetDeviceEi");
  ASSERT_EQ(p.import_errors.count("apex"), 1u);
  EXPECT_EQ(p.import_errors.at("apex"), "ChildProcessError: import apex was killed by signal 11");
  EXPECT_EQ(p.import_errors.count("torchvision"), 0u);
  EXPECT_TRUE(std::any_of(p.mapped_libraries.begin(), p.mapped_libraries.end(),
                          [](const std::string& m) { return m.find("_lzma") != std::string::npos; }))
      << join(p.mapped_libraries, "\n");
  EXPECT_LT(p.probe_seconds, 30) << "the hanging import was not cut off at its limit";
}

// Only the imports asked for are checked (the others' answers come from the cache).
TEST(InvPythonProbe, OnlyTheAskedImportsAreChecked) {
  TempDir tmp;
  std::string site = make_venv(tmp / "venv");
  write_file(site + "/torch/__init__.py", "");
  write_file(site + "/torch-2.5.1.dist-info/METADATA", "");
  write_file(site + "/xformers/__init__.py", "raise ImportError('x')\n");
  write_file(site + "/xformers-0.0.28.dist-info/METADATA", "");
  write_file(site + "/flash_attn/__init__.py", "raise ImportError('f')\n");
  write_file(site + "/flash_attn-2.6.3.dist-info/METADATA", "");
  ProbeRequest req;
  req.imports = std::vector<std::string>{"flash-attn"};
  req.torch = false;
  auto facts = query_probe(tmp / "venv/bin/python", req);
  ASSERT_TRUE(facts.answered) << facts.error;
  EXPECT_EQ(facts.answer["import_checks"].size(), 1u) << facts.answer.dump();
  EXPECT_TRUE(facts.answer["import_checks"].contains("flash-attn"));
  EXPECT_FALSE(facts.answer.contains("torch_version"));  // torch's facts were not asked
}

TEST(InvPythonProbe, ImportTorchRaisesFromPythonpathThroughCollect) {
  TempDir tmp;
  make_venv(tmp / "venv");
  write_file(tmp / "shadow/torch/__init__.py", "import _this_module_does_not_exist\n");
  setenv("PYTHONPATH", (tmp / "shadow").c_str(), 1);
  CollectOptions o;
  o.pythons = {tmp / "venv/bin/python"};
  o.environment = std::map<std::string, std::string>{{"PATH", "/nonexistent"}};
  o.read_library_versions = false;
  auto inv = collect(o);
  unsetenv("PYTHONPATH");
  ASSERT_EQ(inv.pythons.size(), 1u);
  const auto& p = inv.pythons[0];
  EXPECT_EQ(p.found_via, std::vector<std::string>{"--python"});
  EXPECT_EQ(p.torch_import_error, "ModuleNotFoundError: No module named '_this_module_does_not_exist'");
}

// Issue 13: the judged environment is chosen by route (--python, active venv, conda, PATH), never by
// which one happens to have torch (Debian's /usr/bin/python3 torch 1.13 judged instead of a fresh venv).
TEST(InvPythonDiscovery, AVenvOfThePythonOnPathIsItsOwnEnvironment) {
  // python3 -m venv links venv/bin/python to /usr/bin/python3: the same file, another environment. Folded
  // into PATH's entry, doctor judged /usr instead of the activated venv (found on Ubuntu 22.04's own venv).
  TempDir tmp;
  make_venv(tmp / "venv");
  EnvMap env = {{"PATH", "/usr/bin"}, {"VIRTUAL_ENV", tmp / "venv"}};
  auto found = discover_pythons(platform::RootFs("/"), env, {});
  const PythonCandidate* venv = nullptr;
  const PythonCandidate* system = nullptr;
  for (const auto& c : found) {
    if (c.path == tmp / "venv/bin/python") venv = &c;
    if (c.path == "/usr/bin/python3") system = &c;
  }
  ASSERT_NE(venv, nullptr) << "the venv's python was folded into another entry";
  ASSERT_NE(system, nullptr);
  EXPECT_EQ(venv->via, "VIRTUAL_ENV");
  EXPECT_EQ(platform::RootFs("/").resolve(venv->path), platform::RootFs("/").resolve(system->path)) << "the case: one file";
  // And probed, it is the venv: its own prefix.
  auto p = probe_python(venv->path, venv->via);
  ASSERT_TRUE(p.error.empty()) << p.error;
  EXPECT_EQ(p.prefix, tmp / "venv");
}

TEST(InvJudgedPython, ByRouteNeverByTorch) {
  Inventory inv;
  EXPECT_EQ(primary_python(inv), nullptr);
  EXPECT_EQ(judged_python(inv).rule, "");
  inv.pythons.resize(4);
  inv.pythons[0].interpreter = "/root/.pyenv/shims/python3";
  inv.pythons[0].found_via = {"PATH"};
  inv.pythons[1].interpreter = "/usr/bin/python3";
  inv.pythons[1].found_via = {"PATH"};
  inv.pythons[1].torch_installed = true;
  inv.pythons[2].interpreter = "/conda/bin/python";
  inv.pythons[2].found_via = {"CONDA_PREFIX"};
  inv.pythons[3].interpreter = "/venv/bin/python";
  inv.pythons[3].found_via = {"PATH", "VIRTUAL_ENV"};
  EXPECT_EQ(judged_python(inv).env, &inv.pythons[3]);
  EXPECT_EQ(judged_python(inv).rule, "VIRTUAL_ENV");
  inv.pythons[3].found_via = {"files"};
  EXPECT_EQ(judged_python(inv).env, &inv.pythons[2]);
  EXPECT_EQ(judged_python(inv).rule, "CONDA_PREFIX");
  inv.pythons[2].found_via = {"files"};
  EXPECT_EQ(judged_python(inv).env, &inv.pythons[0]) << "first on PATH, although it has no torch";
  EXPECT_EQ(judged_python(inv).rule, "PATH");
  inv.pythons[0].error = "could not run";  // a PATH entry that does not run is passed over
  EXPECT_EQ(judged_python(inv).env, &inv.pythons[1]);
  inv.pythons[2].found_via = {"--python"};
  inv.pythons[2].error = "";
  EXPECT_EQ(primary_python(inv), &inv.pythons[2]);
  EXPECT_EQ(judged_python(inv).rule, "--python");
  for (auto& p : inv.pythons) p.found_via = {"files"};
  EXPECT_EQ(judged_python(inv).env, &inv.pythons[0]);
  EXPECT_EQ(judged_python(inv).rule, "first found");
  inv.pythons[1].found_via = {"pasted"};  // a pasted report's environment is the reporter's
  EXPECT_EQ(judged_python(inv).env, &inv.pythons[1]);
  EXPECT_EQ(judged_python(inv).rule, "pasted report");
}

TEST(InvPythonProbe, NotAnInterpreter) {
  auto p = probe_python("/bin/true", "--python");
  EXPECT_FALSE(p.error.empty());
  EXPECT_EQ(p.version, "");
  CollectOptions o;
  o.pythons = {"/bin/true"};
  o.environment = std::map<std::string, std::string>{{"PATH", "/nonexistent"}};
  EXPECT_THROW(collect(o), InputError);
  o.pythons = {"/nonexistent/python"};
  EXPECT_THROW(collect(o), InputError);
}

TEST(InvPythonProbe, DebianTorch) {
  auto check = run_subprocess({kSystemPython, "-c",
                               "import torch; print(torch.__version__); print(int(torch._C._GLIBCXX_USE_CXX11_ABI)); "
                               "print(torch.__file__)"});
  if (!check.ok()) GTEST_SKIP() << "Debian's torch is not importable here (apt-get install python3-torch): "
                                << last_lines(check.err, 1);
  auto lines = split(trim(check.out), '\n');
  ASSERT_EQ(lines.size(), 3u);
  auto p = probe_python(kSystemPython, "PATH");
  ASSERT_TRUE(p.error.empty()) << p.error;
  EXPECT_TRUE(p.torch_installed);
  EXPECT_EQ(p.torch_version, lines[0]);
  ASSERT_TRUE(p.torch_cxx11_abi.has_value());
  EXPECT_EQ(*p.torch_cxx11_abi, lines[1] == "1");
  EXPECT_EQ(p.torch_path + "/__init__.py", lines[2]);
  EXPECT_EQ(p.torch_cuda, "");  // Debian's build is CPU-only
  ASSERT_TRUE(p.cuda_available.has_value());
  EXPECT_FALSE(*p.cuda_available);
  EXPECT_NE(p.cuda_error.find("not compiled with CUDA"), std::string::npos) << p.cuda_error;
  // What import torch really mapped: Debian's libtorch_cpu from libtorch1.13, not a copy inside site-packages.
  bool libtorch = false;
  for (const auto& m : p.mapped_libraries)
    if (m.find("libtorch_cpu.so") != std::string::npos) libtorch = true;
  EXPECT_TRUE(libtorch) << join(p.mapped_libraries, "\n");
  EXPECT_EQ(p.packages.count("torch"), 1u);
}

TEST(InvPythonFiles, DescribedFromFilesOnly) {
  TempDir tmp;
  std::string site = "/usr/lib/python3.10/site-packages";
  write_file(tmp / (site + "/torch/version.py"),
             "__version__ = '2.1.2+cu118'\ndebug = False\ncuda: Optional[str] = '11.8'\ngit_version = 'abc'\n");
  write_file(tmp / (site + "/torch-2.1.2+cu118.dist-info/METADATA"), "");
  write_file(tmp / (site + "/requests-2.0.dist-info/METADATA"), "");
  write_file(tmp / "usr/bin/python3", "", true);
  auto p = describe_python_from_files(platform::RootFs(tmp.path()), site);
  EXPECT_EQ(p.version, "3.10");
  EXPECT_EQ(p.interpreter, "/usr/bin/python3");
  EXPECT_TRUE(p.torch_installed);
  EXPECT_EQ(p.torch_version, "2.1.2+cu118");
  EXPECT_EQ(p.torch_cuda, "11.8");
  EXPECT_EQ(p.packages.count("requests"), 0u);  // not one of the packages that matter
  EXPECT_EQ(p.packages.at("torch"), "2.1.2+cu118");
}

TEST(InvPythonFiles, ALongVersionLineIsReadNotACrash) {
  // 60,000 characters inside the quotes (the file is read up to 64 KiB): std::regex's [^']* recursed once
  // per character and overflowed the stack (SIGSEGV) from about 32,000.
  TempDir tmp;
  std::string site = "/usr/lib/python3.10/site-packages";
  const std::string junk(60000, 'x');
  write_file(tmp / (site + "/torch/version.py"), "__version__ = '" + junk + "'\ncuda = '" + junk + "'\n");
  auto p = describe_python_from_files(platform::RootFs(tmp.path()), site);
  EXPECT_TRUE(p.torch_installed);
  EXPECT_EQ(p.torch_version, junk);
  EXPECT_EQ(p.torch_cuda, "");  // the file ends inside the second quote: no closing quote was read
}

}  // namespace
}  // namespace gpucheck::inventory

namespace gpucheck::inventory {
namespace {

TEST(InvPyenv, ShimResolvedLikePyenv) {
  testing::TempDir tmp;
  testing::write_file(tmp / "pyenv/shims/python3", "#!/usr/bin/env bash\nexec pyenv exec \"$0\" \"$@\"\n", true);
  testing::write_file(tmp / "pyenv/versions/3.9.1/bin/python3", "", true);
  testing::write_file(tmp / "pyenv/versions/3.12.0/bin/python3", "", true);
  testing::write_file(tmp / "pyenv/version", "3.9.1\n");
  testing::write_file(tmp / "project/.python-version", "3.12.0\n");
  platform::RootFs fs("/");
  std::string shim = tmp / "pyenv/shims/python3";
  EXPECT_EQ(resolve_pyenv_shim(fs, {}, shim, tmp / "elsewhere"), tmp / "pyenv/versions/3.9.1/bin/python3");
  EXPECT_EQ(resolve_pyenv_shim(fs, {}, shim, tmp / "project/src/deep"), tmp / "pyenv/versions/3.12.0/bin/python3");
  EXPECT_EQ(resolve_pyenv_shim(fs, {{"PYENV_VERSION", "3.9.1"}}, shim, tmp / "project"),
            tmp / "pyenv/versions/3.9.1/bin/python3");
  EXPECT_EQ(resolve_pyenv_shim(fs, {{"PYENV_VERSION", "system"}}, shim, "/"), "");
  EXPECT_EQ(resolve_pyenv_shim(fs, {{"PYENV_VERSION", "3.0.0"}}, shim, "/"), "");  // not installed
  EXPECT_EQ(resolve_pyenv_shim(fs, {}, "/usr/bin/python3", "/"), "");              // not a shim
}

TEST(InvPyenv, RealShimGivesTheSameAnswerAsRunningIt) {
  std::string shim = find_in_path("python3");
  platform::RootFs fs("/");
  std::map<std::string, std::string> env;
  for (const char* k : {"PYENV_VERSION", "HOME"})
    if (const char* v = std::getenv(k)) env[k] = v;
  char cwd[4096];
  std::string run_as = resolve_pyenv_shim(fs, env, shim, getcwd(cwd, sizeof cwd) ? cwd : "/");
  if (run_as.empty()) GTEST_SKIP() << "python3 on PATH (" << shim << ") is not a resolvable pyenv shim";
  auto direct = run_subprocess({shim, "-c", "import sys; print(sys.executable)"});
  auto resolved = run_subprocess({run_as, "-c", "import sys; print(sys.executable)"});
  EXPECT_EQ(platform::RootFs("/").resolve(trim(direct.out)), platform::RootFs("/").resolve(trim(resolved.out)));
}

}  // namespace
}  // namespace gpucheck::inventory

namespace gpucheck::inventory {
namespace {

TEST(InvPythonProbe, OldInterpretersToo) {
  // The embedded script must run on whatever Python a cluster still has: 2.7 and 3.6 where pyenv has them.
  int ran = 0;
  for (const char* rel : {"/.pyenv/versions/2.7.18/bin/python", "/.pyenv/versions/3.6.15/bin/python3"}) {
    const char* home = std::getenv("HOME");
    std::string py = std::string(home ? home : "/root") + rel;
    if (!platform::RootFs("/").is_executable(py)) continue;
    ++ran;
    auto p = probe_python(py, "--python");
    EXPECT_TRUE(p.error.empty()) << py << ": " << p.error;
    auto v = run_subprocess({py, "-c", "import platform; print(platform.python_version())"});
    EXPECT_EQ(p.version, trim(v.out + v.err)) << py;
    EXPECT_FALSE(p.torch_installed);
    EXPECT_EQ(p.torch_import_error, "") << py;  // not installed, not an error
  }
  if (ran == 0) GTEST_SKIP() << "no pyenv Python 2.7.18 / 3.6.15 on this machine";
}

}  // namespace
}  // namespace gpucheck::inventory
