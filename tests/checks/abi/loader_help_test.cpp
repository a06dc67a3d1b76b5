// `ld.so --help` is asked once per machine: the answer is remembered under the loader file's identity and
// the CPU's feature words, a remembered answer is used only for that key and only when every name in it is
// a plain path component, and the real loader's answer read back from the cache equals asking it.
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "checks/abi/loader_help.h"
#include "core/files.h"
#include "core/text.h"

#include <nlohmann/json.hpp>

using namespace gpucheck::abi;
namespace fs = std::filesystem;

namespace {

// glibc 2.36's `ld.so --help`, the parts the parser reads.
const char* kHelp = R"(Shared library search path:
  (libraries located via /etc/ld.so.cache)
  /lib/x86_64-linux-gnu (system search path)
  /usr/lib/x86_64-linux-gnu (system search path)
  /lib (system search path)
  /usr/lib (system search path)

Subdirectories of glibc-hwcaps directories, in priority order:
  x86-64-v4
  x86-64-v3 (supported, searched)
  x86-64-v2 (supported, searched)

Legacy HWCAP subdirectories under library search path directories:
  haswell (AT_PLATFORM; supported, searched)
  tls (supported, searched)
  x86_64 (supported, searched)
)";

struct FakeLoader {
  fs::path dir = fs::temp_directory_path() / ("gpucheck_loader_help_" + std::to_string(::getpid()));
  fs::path script = dir / "ld.so";
  fs::path calls = dir / "calls";
  fs::path cache = dir / "cache" / "loader-help.json";
  FakeLoader() {
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "help.txt") << kHelp;
    std::ofstream(script) << "#!/bin/sh\necho x >> '" << calls.string() << "'\ncat '" << (dir / "help.txt").string() << "'\n";
    fs::permissions(script, fs::perms::owner_all);
  }
  ~FakeLoader() { fs::remove_all(dir); }
  int asked() const {
    std::ifstream in(calls);
    int n = 0;
    for (std::string l; std::getline(in, l);) ++n;
    return n;
  }
};

}  // namespace

TEST(LoaderHelp, ParsesTheSystemDirectoriesPlatformAndHwcaps) {
  LoaderHelp h = parse_loader_help(kHelp);
  EXPECT_EQ(h.system_dirs, (std::vector<std::string>{"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib", "/usr/lib"}));
  EXPECT_EQ(h.platform, "haswell");
  EXPECT_EQ(h.glibc_hwcaps, (std::vector<std::string>{"x86-64-v3", "x86-64-v2"})) << "v4 is not supported here";
  EXPECT_EQ(h.legacy, (std::vector<std::string>{"haswell", "tls", "x86_64"}));
}

TEST(LoaderHelp, AskedOnceThenReadFromTheCacheUntilTheLoaderChanges) {
  FakeLoader f;
  LoaderHelp first = query_loader_help(f.script.string(), f.cache.string());
  EXPECT_FALSE(first.from_cache);
  EXPECT_EQ(f.asked(), 1);
  ASSERT_TRUE(fs::exists(f.cache));
  LoaderHelp second = query_loader_help(f.script.string(), f.cache.string());
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(f.asked(), 1) << "the second answer came from the cache";
  EXPECT_EQ(second.system_dirs, first.system_dirs);
  EXPECT_EQ(second.platform, first.platform);
  EXPECT_EQ(second.glibc_hwcaps, first.glibc_hwcaps);
  EXPECT_EQ(second.legacy, first.legacy);
  // A replaced loader (a glibc update) has a new identity: asked again.
  std::ofstream(f.script, std::ios::app) << "# updated\n";
  EXPECT_FALSE(query_loader_help(f.script.string(), f.cache.string()).from_cache);
  EXPECT_EQ(f.asked(), 2);
  // No cache file: asked every time, nothing written.
  EXPECT_FALSE(query_loader_help(f.script.string(), "").from_cache);
  EXPECT_EQ(f.asked(), 3);
}

TEST(LoaderHelp, ARememberedNameThatIsNotAPlainComponentIsNotTrusted) {
  FakeLoader f;
  query_loader_help(f.script.string(), f.cache.string());
  const std::string key = loader_help_key(f.script.string());
  ASSERT_FALSE(key.empty());
  auto write = [&](const std::string& hwcaps, const std::string& dirs) {
    gpucheck::write_file_atomic(f.cache.string(), R"({"format": 1, "key": )" + nlohmann::json(key).dump() +
                                                      R"(, "platform": "haswell", "system_dirs": )" + dirs +
                                                      R"(, "glibc_hwcaps": )" + hwcaps + R"(, "legacy": []})");
  };
  write(R"(["x86-64-v3"])", R"(["/lib"])");
  EXPECT_TRUE(query_loader_help(f.script.string(), f.cache.string()).from_cache) << "a well-formed entry is used";
  for (const auto& [hwcaps, dirs] : std::vector<std::pair<std::string, std::string>>{
           {R"(["../../tmp"])", R"(["/lib"])"}, {R"(["a/b"])", R"(["/lib"])"}, {R"([".."])", R"(["/lib"])"},
           {R"(["v3"])", R"(["lib"])"}, {R"(["v3"])", R"([])"}, {R"([3])", R"(["/lib"])"}}) {
    write(hwcaps, dirs);
    const int before = f.asked();
    LoaderHelp h = query_loader_help(f.script.string(), f.cache.string());
    EXPECT_FALSE(h.from_cache) << hwcaps << " " << dirs;
    EXPECT_EQ(f.asked(), before + 1);
    EXPECT_EQ(h.glibc_hwcaps, (std::vector<std::string>{"x86-64-v3", "x86-64-v2"}));
  }
  gpucheck::write_file_atomic(f.cache.string(), "{not json");
  EXPECT_FALSE(query_loader_help(f.script.string(), f.cache.string()).from_cache);
}

TEST(LoaderHelp, TheRealLoadersCachedAnswerIsItsAnswer) {
#if defined(__aarch64__)
  const std::string ld = "/lib/ld-linux-aarch64.so.1";
#else
  const std::string ld = "/lib64/ld-linux-x86-64.so.2";
#endif
  FakeLoader f;  // for its directory
  LoaderHelp asked = query_loader_help(ld, f.cache.string());
  if (asked.system_dirs.empty()) GTEST_SKIP() << ld << " --help says nothing (glibc older than 2.33)";
  LoaderHelp cached = query_loader_help(ld, f.cache.string());
  EXPECT_TRUE(cached.from_cache);
  EXPECT_EQ(cached.system_dirs, asked.system_dirs);
  EXPECT_EQ(cached.platform, asked.platform);
  EXPECT_EQ(cached.glibc_hwcaps, asked.glibc_hwcaps);
  EXPECT_EQ(cached.legacy, asked.legacy);
  // The key is the same on every core this may run on (CPUID leaf 1's EBX, the APIC id, is left out of it).
  cpu_set_t all;
  ASSERT_EQ(sched_getaffinity(0, sizeof all, &all), 0);
  const std::string key = loader_help_key(ld);
  int cores = 0;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (!CPU_ISSET(c, &all)) continue;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(c, &one);
    ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
    EXPECT_EQ(loader_help_key(ld), key) << "on core " << c;
    ++cores;
  }
  sched_setaffinity(0, sizeof all, &all);
  EXPECT_GE(cores, 1);
}
