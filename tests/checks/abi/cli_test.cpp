// `gpucheck abi` as a user runs it: exit codes 0/1/2, one-line errors, the JSON document, and the Python
// targets (--python-package, --torch-extensions, --with-torch) against a venv made here with a stand-in
// torch package laid out like the real wheel (torch/lib/libc10.so from Debian's LibTorch).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fcntl.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <thread>

#include <nlohmann/json.hpp>

#include "fixture.h"

using namespace abitest;

namespace {

const std::string kBin = std::string(GPUCHECK_STAGE_BIN) + "/gpucheck";

gpucheck::SubprocessResult gpucheck_abi(std::vector<std::string> args) {
  args.insert(args.begin(), {kBin, "abi"});
  gpucheck::SubprocessOptions o;
  o.timeout = std::chrono::seconds(120);
  o.unset_env = {"LD_LIBRARY_PATH"};
  return gpucheck::run_subprocess(args, o);
}

/// The report's "targets" section: one Finding per audited object, its details the per-target audit.
const nlohmann::json& targets(const nlohmann::json& report) {
  for (const auto& s : report.at("sections"))
    if (s.at("name") == "targets") return s.at("findings");
  throw std::runtime_error("no section \"targets\" in " + report.dump());
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    build_so(d / "ok/libok.so", "extern \"C\" int ok() { return 1; }");
    build_so(d / "bad/libund.so", "extern \"C\" int nope(); extern \"C\" int f() { return nope(); }");
    write_file(d / "trunc.so", read_bytes(d / "ok/libok.so").substr(0, 500));
  }
  TempDir d;
};

TEST_F(CliTest, CleanFileExitsZero) {
  auto r = gpucheck_abi({d / "ok/libok.so", "--gpu", "sm_90"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("pass  " + d / "ok/libok.so"), std::string::npos) << r.out;
}

TEST_F(CliTest, ProblemsExitOneWithJson) {
  auto r = gpucheck_abi({d / "bad/libund.so", "--json", "--gpu", "sm_90"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(targets(j).size(), 1u);
  EXPECT_EQ(targets(j)[0]["status"], "fail");
  auto& t = targets(j)[0]["details"];
  EXPECT_EQ(t["symbols"]["missing"], 1);
  EXPECT_EQ(t["symbols"]["groups"][0]["symbols"][0], "nope");
  EXPECT_TRUE(t["dependencies"].is_array());
}

TEST_F(CliTest, OutWritesTheSelectedFormat) {
  auto text = gpucheck_abi({d / "bad/libund.so", "--gpu", "sm_90", "--out", d / "abi.txt"});
  EXPECT_EQ(text.exit_code, 1) << text.err;
  EXPECT_EQ(text.out, "");
  EXPECT_EQ(read_bytes(d / "abi.txt").rfind("fail  " + d / "bad/libund.so\n", 0), 0u) << read_bytes(d / "abi.txt");
  auto json = gpucheck_abi({d / "bad/libund.so", "--gpu", "sm_90", "--json", "--out", d / "abi.json"});
  EXPECT_EQ(json.exit_code, 1) << json.err;
  auto j = nlohmann::json::parse(read_bytes(d / "abi.json"));
  EXPECT_EQ(j["command"], "abi");
  EXPECT_EQ(j["summary"]["exit_code"], 1);
  EXPECT_EQ(targets(j)[0]["id"], "abi.symbols.other");
}

TEST_F(CliTest, BadInputExitsTwoWithOneLine) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {d / "trunc.so"}, {d / "missing.so"}, {d / "ok/libok.so", "--gpu", "sm_banana"}, {}, 
           {"--env", d / "nope.json", d / "ok/libok.so"}, {"--from", d / "nope.json", d / "ok/libok.so"},
           {"--python-package", "surely_not_installed_pkg_xyz"},
           // hardening: a tool or cache that does not exist is bad input, not silently ignored
           {d / "ok/libok.so", "--gpu", "sm_90", "--cuobjdump", d / "no-cuobjdump"},
           {d / "ok/libok.so", "--gpu", "sm_90", "--ld-cache", d / "no-ld.so.cache"}}) {
    auto r = gpucheck_abi(args);
    EXPECT_EQ(r.exit_code, 2) << gpucheck::join(args, " ") << "\n" << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// Issue 15 item 11 end to end: a library rewritten in place (truncated, then written again, as pip or a
// build does) while gpucheck reads it. Every run ends with 0, 1 or 2, and a 2 is one line on stderr;
// none dies of a signal. (With the file mapped, 37 of 400 such runs died of SIGBUS.)
TEST_F(CliTest, ALibraryRewrittenInPlaceWhileAuditedNeverCrashesIt) {
  write_file(d / "fatbin.bin", synthetic_fatbin(20000, 512));  // ~11 MB, 20,000 headers to read
  run_ok({"objcopy", "--add-section", ".nv_fatbin=" + d / "fatbin.bin", d / "ok/libok.so", d / "librw.so"});
  const std::string path = d / "librw.so", bytes = read_bytes(path);
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    while (!stop) {
      int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
      if (fd < 0) continue;
      for (std::size_t off = 0; off < bytes.size() && !stop;) {
        ssize_t n = ::write(fd, bytes.data() + off, std::min<std::size_t>(1 << 20, bytes.size() - off));
        if (n <= 0) break;
        off += static_cast<std::size_t>(n);
      }
      ::close(fd);
    }
  });
  int changed = 0, errors = 0;
  for (int i = 0; i < 30; ++i) {
    auto r = gpucheck_abi({path, "--gpu", "sm_90"});
    EXPECT_TRUE(r.exited) << r.describe() << "\n" << r.err;
    EXPECT_LE(r.exit_code, 2) << r.err;
    if (r.exit_code == 2) {
      ++errors;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
      if (r.err.find("changed while read") != std::string::npos) ++changed;
    }
  }
  stop = true;
  writer.join();
  RecordProperty("runs_exit_2", errors);
  RecordProperty("runs_changed_while_read", changed);
}

TEST_F(CliTest, AFileNamedLikeAnOptionReachesCuobjdumpAsAFile) {
  // A stand-in cuobjdump that records its arguments, one per line.
  const std::string fake = d / "fake-cuobjdump", log = d / "args.txt";
  write_file(fake, "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\" >> '" + log + "'; done\n"
                   "echo 'ELF file    1: x.1.sm_90.cubin'\n");
  ASSERT_EQ(chmod(fake.c_str(), 0755), 0);
  // An object with device code (so cuobjdump is asked about it), named like an option, given relatively.
  std::string seed = std::string(GPUCHECK_SOURCE_DIR) + "/tests/checks/abi/fuzz/corpus/fatbin/nvcc_sm90_compute90_compressed.bin";
  const std::string planted = "-xelf=all-" + std::to_string(getpid());
  run_ok({"objcopy", "--add-section", ".nv_fatbin=" + seed, d / "ok/libok.so", "./" + planted});
  auto r = gpucheck_abi({"--gpu", "sm_90", "--cuobjdump", fake, "--", planted});
  std::remove(planted.c_str());
  EXPECT_NE(r.exit_code, 2) << r.err;
  std::string args = read_bytes(log);
  EXPECT_NE(args.find("./" + planted + "\n"), std::string::npos) << args;
  for (const auto& line : gpucheck::split(args, '\n'))
    if (!line.empty() && line.front() == '-') EXPECT_TRUE(line == "--list-elf" || line == "--list-ptx") << args;
}

TEST_F(CliTest, HostileNeededNamesNeitherEndTheAuditNorReachTheTerminalRaw) {
  // Issue 15 items 7 and 9: a DT_NEEDED name with terminal escapes and a byte that is not UTF-8 (the
  // soname of the library it was linked against). The audit reports it (exit 1: not found), in text with
  // the escapes shown, not obeyed, and in JSON as valid UTF-8; never "internal error" (exit 3).
  const std::string soname = "libevil\x1b[2J\x1b]0;pwned\x07\xff.so";
  build_so(d / "evil/libevil.so", "extern \"C\" int evil() { return 1; }", {"-Wl,-soname," + soname});
  build_so(d / "evil/libuser.so", "extern \"C\" int evil(); extern \"C\" int user() { return evil(); }",
           {"-Wl,--no-as-needed", d / "evil/libevil.so"});
  ASSERT_NE(read_bytes(d / "evil/libuser.so").find(soname), std::string::npos);  // the name really is NEEDED
  auto text = gpucheck_abi({d / "evil/libuser.so", "--gpu", "sm_90", "--verbose"});
  EXPECT_EQ(text.exit_code, 1) << text.out << text.err;
  EXPECT_EQ(text.out.find('\x1b'), std::string::npos) << text.out;
  EXPECT_EQ(text.err.find('\x1b'), std::string::npos) << text.err;
  EXPECT_NE(text.out.find("libevil"), std::string::npos) << text.out;
  auto json = gpucheck_abi({d / "evil/libuser.so", "--gpu", "sm_90", "--json"});
  EXPECT_EQ(json.exit_code, 1) << json.err;
  EXPECT_NO_THROW((void)nlohmann::json::parse(json.out)) << json.out;
}

TEST_F(CliTest, KernelFileSystemsAreSkippedNotWalked) {
  // Issue 15 item 12: `abi /proc` walked /proc/PID/root back into / for every process and `abi /sys` read
  // sysfs, both for minutes with nothing to find. Now such a tree is skipped with a note: given alone, that
  // is nothing audited (exit 2, one line naming it); reached through a symlink, the rest is still audited.
  gpucheck::SubprocessOptions o;
  o.timeout = std::chrono::seconds(120);  // generous: the old walk never ended; the new one is immediate
  o.unset_env = {"LD_LIBRARY_PATH"};
  for (const std::string root : {"/proc", "/sys", "/proc/self"}) {
    auto r = gpucheck::run_subprocess({kBin, "abi", root, "--gpu", "sm_90"}, o);
    EXPECT_FALSE(r.timed_out) << root;
    EXPECT_EQ(r.exit_code, 2) << root << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find("filesystem"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  std::filesystem::create_directories(d / "mixed");
  write_file(d / "mixed/libok.so", read_bytes(d / "ok/libok.so"));
  std::filesystem::create_directory_symlink("/proc", d / "mixed/proc");
  auto r = gpucheck::run_subprocess({kBin, "abi", d / "mixed", "--gpu", "sm_90", "--json"}, o);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(targets(j).size(), 1u);
  EXPECT_NE(j.dump().find("proc filesystem"), std::string::npos);
}

TEST_F(CliTest, NothingAuditedIsBadInputNeverAPass) {
  // A tree deeper than the walk goes, with its only object at the bottom: skipped, so nothing was audited.
  std::string deep = d / "deep";
  for (int i = 0; i < 70; ++i) deep += "/d";
  std::filesystem::create_directories(deep);
  write_file(deep + "/libok.so", read_bytes(d / "ok/libok.so"));
  auto r = gpucheck_abi({d / "deep", "--gpu", "sm_90"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("nothing audited"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("deeper than 64 levels"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(CliTest, DirectoryWithACorruptFileAuditsTheRest) {
  fs::create_directories(d / "tree");
  fs::copy_file(d / "ok/libok.so", d / "tree/libok.so");
  fs::copy_file(d / "trunc.so", d / "tree/libtrunc.so");
  fs::create_directory_symlink(d / "tree", d / "tree/self");
  auto r = gpucheck_abi({d / "tree", "--json", "--gpu", "sm_80"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(targets(j).size(), 2u);
  int errors = 0, passes = 0;
  for (auto& t : targets(j)) {
    if (t["status"] == "error") ++errors;
    if (t["status"] == "pass") ++passes;
  }
  EXPECT_EQ(errors, 1);
  EXPECT_EQ(passes, 1);
  EXPECT_NE(j["notes"].dump().find("directory loop"), std::string::npos) << j["notes"].dump();
}

TEST_F(CliTest, PythonTargetsInAVenvWithAStandInTorch) {
  gpucheck::SubprocessOptions o;
  o.timeout = std::chrono::seconds(120);
  auto mk = gpucheck::run_subprocess({"python3", "-m", "venv", "--without-pip", d / "venv"}, o);
  if (!mk.ok()) GTEST_SKIP() << "python3 -m venv failed: " << mk.err;
  std::string site = gpucheck::trim(run_ok({d / "venv/bin/python", "-c", "import site; print(site.getsitepackages()[0])"}));
  // torch/: __init__.py and lib/libc10.so with the wheel's SONAME, defining one symbol Debian's lacks.
  write_file(site + "/torch/__init__.py", "raise ImportError('gpucheck must not import packages')\n");
  build_so(site + "/torch/lib/libc10.so",
           "namespace c10 { int wheel_only_marker() { return 7; } }", {"-Wl,-soname,libc10.so"});
  // myext/: an extension linking libc10.so without any RUNPATH (it relies on torch being loaded first).
  build_so(site + "/myext/_C.cpython-311-x86_64-linux-gnu.so",
           "namespace c10 { int wheel_only_marker(); }\n"
           "extern \"C\" int PyInit__C() { return c10::wheel_only_marker(); }\n",
           {"-L" + site + "/torch/lib", "-Wl,--no-as-needed", "-lc10"});
  write_file(site + "/myext/__init__.py", "raise ImportError('gpucheck must not import packages')\n");
  std::string py = d / "venv/bin/python";

  auto found = gpucheck_abi({"--torch-extensions", "--python", py, "--json", "--gpu", "sm_90"});
  auto j = nlohmann::json::parse(found.out);
  ASSERT_EQ(targets(j).size(), 1u) << found.out << found.err;
  EXPECT_NE(targets(j)[0]["details"]["path"].get<std::string>().find("myext/_C."), std::string::npos);
  // By default the extension is judged after `import torch` of its own site-packages: torch/lib/libc10.so
  // is loaded, the extension binds against it (issue 13: not Debian's LibTorch from ld.so.cache).
  EXPECT_EQ(found.exit_code, 0) << found.out;
  EXPECT_EQ(targets(j)[0]["details"]["process"]["chosen_by"], "site-packages of the target") << found.out;
  // With --no-torch nothing is imported first: the loader finds no libc10.so, or Debian's, which lacks the symbol.
  auto bare = gpucheck_abi({"--torch-extensions", "--python", py, "--json", "--gpu", "sm_90", "--no-torch"});
  EXPECT_EQ(bare.exit_code, 1) << bare.out;
  EXPECT_NE(bare.out.find("libc10.so"), std::string::npos);
  // As after `import torch`: torch/lib/libc10.so is loaded, the extension binds against it.
  auto with = gpucheck_abi({"--python-package", "myext", "--python", py, "--with-torch", "--json", "--gpu", "sm_90"});
  EXPECT_EQ(with.exit_code, 0) << with.out << with.err;
  auto w = nlohmann::json::parse(with.out);
  bool via_preload = false;
  for (auto& dep : targets(w)[0]["details"]["dependencies"])
    if (dep["name"] == "libc10.so") via_preload = dep["via"] == "preloaded";
  EXPECT_TRUE(via_preload) << with.out;
  // --torch audits torch's own libraries.
  auto own = gpucheck_abi({"--torch", "--python", py, "--json", "--gpu", "sm_90"});
  auto ow = nlohmann::json::parse(own.out);
  ASSERT_EQ(targets(ow).size(), 1u);
  EXPECT_NE(targets(ow)[0]["details"]["path"].get<std::string>().find("torch/lib/libc10.so"), std::string::npos);
}

// bmtrain 0.2.3.post2 installed without torch (issue 31): it declares no torch and links no torch library,
// but its __init__.py imports .utils, which imports torch. abi reads that (never imports it) and fails like
// doctor and bmtrain.installed; a package whose imports of torch sit inside a function is not refused.
TEST(AbiPython, APackageWhoseModulesImportTorchFailsWithoutTorch) {
  TempDir d;
  gpucheck::SubprocessOptions o;
  o.timeout = std::chrono::seconds(120);
  auto mk = gpucheck::run_subprocess({"python3", "-m", "venv", "--without-pip", d / "venv"}, o);
  if (!mk.ok()) GTEST_SKIP() << "python3 -m venv failed: " << mk.err;
  std::string py = d / "venv/bin/python";
  std::string site = gpucheck::trim(run_ok({py, "-c", "import site; print(site.getsitepackages()[0])"}));
  write_file(site + "/needstorch/__init__.py",
             "raise ImportError('gpucheck must not import packages')\nfrom .utils import helper\nfrom . import sub\n");
  write_file(site + "/needstorch/utils.py", "import os\n\nimport torch.distributed as dist\n");
  write_file(site + "/needstorch/sub/__init__.py", "");
  build_so(site + "/needstorch/_C.so", "extern \"C\" int PyInit__C() { return 0; }");
  build_so(site + "/lazy/_C.so", "extern \"C\" int PyInit__C() { return 0; }");
  write_file(site + "/lazy/__init__.py", "raise ImportError('gpucheck must not import packages')\n"
                                         "def f():\n    import torch\n");
  auto r = gpucheck_abi({"--python-package", "needstorch", "--python", py, "--json", "--gpu", "sm_90"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  bool failed = false;
  for (const auto& f : targets(j))
    if (f["id"] == "python.import_failed") {
      failed = f["status"] == "fail";
      EXPECT_NE(f.dump().find("needstorch/utils.py:3"), std::string::npos) << f.dump(1);
    }
  EXPECT_TRUE(failed) << r.out;
  auto lazy = gpucheck_abi({"--python-package", "lazy", "--python", py, "--json", "--gpu", "sm_90"});
  EXPECT_EQ(lazy.exit_code, 0) << lazy.out << lazy.err;
  EXPECT_EQ(lazy.out.find("python.import_failed"), std::string::npos) << lazy.out;
}

}  // namespace

namespace {

TEST(AbiProbe, PassesOnCleanExtensionsAndFailsOnABrokenOne) {
  TempDir d;
  const std::string probe = std::string(GPUCHECK_STAGE_PROBES) + "/abi.extensions";
  gpucheck::SubprocessOptions o;
  o.timeout = std::chrono::seconds(120);
  auto mk = gpucheck::run_subprocess({"python3", "-m", "venv", "--without-pip", d / "venv"}, o);
  if (!mk.ok()) GTEST_SKIP() << "python3 -m venv failed: " << mk.err;
  std::string py = d / "venv/bin/python";
  auto run_probe = [&] {
    auto r = gpucheck::run_subprocess({probe, "--json", "--python", py}, o);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
  };
  EXPECT_EQ(run_probe()["status"], "skip");  // no torch in a fresh venv
  std::string site = gpucheck::trim(run_ok({py, "-c", "import site; print(site.getsitepackages()[0])"}));
  write_file(site + "/torch/__init__.py", "");
  build_so(site + "/torch/lib/libc10.so", "namespace c10 { int wheel_only_marker() { return 7; } }", {"-Wl,-soname,libc10.so"});
  build_so(site + "/good/_C.so", "namespace c10 { int wheel_only_marker(); }\nextern \"C\" int PyInit__C() { return c10::wheel_only_marker(); }\n",
           {"-L" + site + "/torch/lib", "-Wl,--no-as-needed", "-lc10"});
  auto ok = run_probe();
  EXPECT_EQ(ok["status"], "pass") << ok.dump(2);
  build_so(site + "/bad/_C.so", "namespace c10 { int wheel_only_marker(); int gone_in_this_torch(); }\n"
           "extern \"C\" int PyInit__C() { return c10::wheel_only_marker() + c10::gone_in_this_torch(); }\n",
           {"-L" + site + "/torch/lib", "-Wl,--no-as-needed", "-lc10"});
  auto bad = run_probe();
  EXPECT_EQ(bad["status"], "fail") << bad.dump(2);
  EXPECT_NE(bad["evidence"].dump().find("another torch"), std::string::npos) << bad["evidence"].dump();
}

}  // namespace

namespace {

TEST(AbiEnv, GpusAndDriverFromAnInventoryDocument) {
  TempDir d;
  build_so(d / "libk.so", "extern \"C\" int k() { return 1; }");
  // Device code as nvcc emits it (sm_90 SASS + compute_90 PTX, from the fuzz corpus), added as .nv_fatbin.
  std::string seed = std::string(GPUCHECK_SOURCE_DIR) + "/tests/checks/abi/fuzz/corpus/fatbin/nvcc_sm90_compute90_compressed.bin";
  run_ok({"objcopy", "--add-section", ".nv_fatbin=" + seed, d / "libk.so", d / "libfat.so"});
  nlohmann::json env = {{"schema_version", "1"},
                        {"driver", {{"present", true}, {"version", "550.54.15"}, {"cuda_version", 12040}}},
                        {"gpus", {{{"index", 0}, {"name", "NVIDIA H100"}, {"cc_major", 9}, {"cc_minor", 0}},
                                  {{"index", 1}, {"name", "Tesla T4"}, {"cc_major", 7}, {"cc_minor", 5}},
                                  {{"index", 2}, {"name", "NVIDIA B200"}, {"cc_major", 10}, {"cc_minor", 0}}}}};
  write_file(d / "env.json", env.dump());
  auto r = gpucheck_abi({d / "libfat.so", "--from", d / "env.json", "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  auto& gpus = targets(j)[0]["details"]["cuda"]["gpus"];
  ASSERT_EQ(gpus.size(), 3u) << r.out;
  EXPECT_EQ(gpus[0]["gpu"], "GPU 0 (NVIDIA H100, sm_90)");
  EXPECT_EQ(gpus[0]["verdict"], "native");
  EXPECT_EQ(gpus[1]["verdict"], "none");
  EXPECT_NE(gpus[1]["detail"].get<std::string>().find("cudaErrorNoKernelImageForDevice"), std::string::npos);
  EXPECT_EQ(gpus[2]["verdict"], "ptx_too_new");  // PTX ISA 9.0 needs a CUDA 13.0 driver; this one is 12.4
  // --gpu overrides the inventory's GPUs but keeps its driver (--env: the former name of --from).
  auto o = nlohmann::json::parse(gpucheck_abi({d / "libfat.so", "--env", d / "env.json", "--gpu", "sm_90", "--json"}).out);
  ASSERT_EQ(targets(o)[0]["details"]["cuda"]["gpus"].size(), 1u);
  EXPECT_EQ(targets(o)[0]["details"]["cuda"]["gpus"][0]["verdict"], "native");
}

}  // namespace
