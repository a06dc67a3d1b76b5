// The cuBLAS version prefetch (started before the scans, see version_prefetch.h) and the helper's LD_AUDIT
// module: the real libcublas/libcublasLt of this machine are covered and give exactly the reading the scan
// gets by itself; a cuBLAS the prefetch cannot guess is still read by the scan; nothing is prefetched under
// --root; the audit module leaves every reading as it is.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/subprocess.h"
#include "inventory/library_scan.h"
#include "inventory/library_version.h"
#include "inventory/loader_cache.h"
#include "inventory/version_prefetch.h"
#include "test_support.h"

namespace gpucheck::inventory {
namespace {

using testing::TempDir;
using testing::write_file;

// The real libcublasLt behind /usr/local/cuda; "" when this machine has none.
std::string real_cublaslt() {
  platform::RootFs fs("/");
  for (const char* sub : {"lib64", "lib", "targets/x86_64-linux/lib"})
    for (const auto& name : fs.list(std::string("/usr/local/cuda/") + sub))
      if (library_kind(name) == "cublasLt") return fs.resolve(std::string("/usr/local/cuda/") + sub + "/" + name);
  return "";
}

const Library* find(const std::vector<Library>& libs, const std::string& path) {
  for (const auto& l : libs)
    if (l.path == path) return &l;
  return nullptr;
}

TEST(InvVersionPrefetch, RealCublasCoveredAndReadAsTheScanReadsIt) {
  std::string lt = real_cublaslt();
  if (lt.empty()) GTEST_SKIP() << "no libcublasLt under /usr/local/cuda";
  platform::RootFs fs("/");
  EnvMap env = {{"PATH", "/usr/bin:/bin"}, {"CUDA_HOME", "/usr/local/cuda"}};
  auto ld_cache = read_loader_cache(fs).cache;
  VersionPrefetch prefetch;
  prefetch.start(fs, env, "", ld_cache);
  ASSERT_TRUE(prefetch.covers(lt)) << "prefetched: " << prefetch.paths().size() << " files";
  auto reading = prefetch.take(lt);
  ASSERT_TRUE(reading.has_value());
  EXPECT_EQ(reading->error, "");
  EXPECT_EQ(reading->source, "cublasLtGetVersion via dlopen");

  // The scan with and without the prefetch: the same versions from the same functions.
  LibraryScanInput in;
  in.env = env;
  in.ld_cache = &ld_cache;
  auto without = scan_libraries(fs, in);
  in.prefetch = &prefetch;
  auto with = scan_libraries(fs, in);
  ASSERT_EQ(with.size(), without.size());
  int cublas_seen = 0;
  for (const auto& l : without) {
    const Library* p = find(with, l.path);
    ASSERT_NE(p, nullptr) << l.path;
    EXPECT_EQ(p->version, l.version) << l.path;
    EXPECT_EQ(p->version_source, l.version_source) << l.path;
    if (l.name == "cublas" || l.name == "cublasLt") {
      ++cublas_seen;
      EXPECT_TRUE(prefetch.covers(l.path)) << l.path;
      EXPECT_NE(l.version_source.find("via dlopen"), std::string::npos) << l.path;
    }
  }
  EXPECT_GE(cublas_seen, 1);
}

TEST(InvVersionPrefetch, WhatItCannotGuessTheScanStillReads) {
  // A cuBLAS only the toolkit scan finds (no CUDA_HOME, not in ld.so.cache): not prefetched, read by the scan
  // (a copy of libcudart under cuBLAS's name: it loads, has no cublasGetProperty, and the error says so).
  TempDir tmp;
  write_file(tmp / "cuda-x/bin/nvcc", "#!/bin/sh\nexit 99\n", true);
  std::filesystem::create_directories(tmp / "cuda-x/lib64");
  std::filesystem::copy_file(platform::RootFs("/").resolve("/usr/local/cuda/lib64/libcudart.so"),
                             tmp / "cuda-x/lib64/libcublas.so.12.9.1.4");
  EnvMap env = {{"PATH", tmp / "cuda-x/bin"}};
  platform::RootFs fs("/");
  auto ld_cache = read_loader_cache(fs).cache;
  VersionPrefetch prefetch;
  prefetch.start(fs, env, "", ld_cache);
  std::string fake = tmp / "cuda-x/lib64/libcublas.so.12.9.1.4";
  EXPECT_FALSE(prefetch.covers(fake));
  ToolkitScanInput ti;
  ti.env = env;
  LibraryScanInput in;
  in.env = env;
  in.toolkits = scan_toolkits(fs, ti);
  in.prefetch = &prefetch;
  in.ld_cache = &ld_cache;
  auto libs = scan_libraries(fs, in);
  const Library* l = find(libs, fake);
  ASSERT_NE(l, nullptr);
  EXPECT_NE(l->version_error.find("dlsym cublasGetProperty"), std::string::npos) << l->version_error;  // the scan read it
}

TEST(InvVersionPrefetch, NothingUnderRoot) {
  TempDir tmp;
  write_file(tmp / "usr/local/cuda/lib64/libcublasLt.so.12", "x");
  VersionPrefetch prefetch;
  prefetch.start(platform::RootFs(tmp.path()), {{"CUDA_HOME", "/usr/local/cuda"}}, "", read_loader_cache(platform::RootFs(tmp.path())).cache);
  EXPECT_TRUE(prefetch.paths().empty());
}

TEST(InvVersionHelperAudit, SameReadingsWithTheHugePageModule) {
  std::string helper = version_helper_path(), audit = version_helper_audit_path();
  ASSERT_FALSE(helper.empty()) << "gpucheck-libversion not built";
  ASSERT_FALSE(audit.empty()) << "gpucheck-libversion-audit.so not built";
  std::string cudart = platform::RootFs("/").resolve("/usr/local/cuda/lib64/libcudart.so");
  std::vector<std::string> argv = {helper, "cudart=" + cudart};
  if (auto lt = real_cublaslt(); !lt.empty()) argv.push_back("cublasLt=" + lt);
  SubprocessOptions plain, audited;
  plain.unset_env = {"LD_AUDIT"};
  audited.set_env["LD_AUDIT"] = audit;
  audited.set_env["LD_DEBUG"] = "files";  // shows the loader really took the module
  auto a = run_subprocess(argv, plain), b = run_subprocess(argv, audited);
  ASSERT_TRUE(a.ok()) << a.describe() << a.err;
  ASSERT_TRUE(b.ok()) << b.describe() << b.err;
  EXPECT_NE(a.out.find("\"raw\":["), std::string::npos) << a.out;
  EXPECT_EQ(b.out, a.out);
  EXPECT_NE(b.err.find("gpucheck-libversion-audit.so"), std::string::npos) << b.err.substr(0, 2000);
}

}  // namespace
}  // namespace gpucheck::inventory
