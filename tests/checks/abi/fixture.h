#pragma once
#include <cstring>
#include <cstdint>
// Test helpers: a temporary directory, real compilers run through run_subprocess, and the real loader's
// answer (ldd) to compare with.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <cstdlib>
#include <functional>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/subprocess.h"
#include "core/text.h"

namespace abitest {

namespace fs = std::filesystem;

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/gpucheck-abi-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string operator/(const std::string& rel) const { return path + "/" + rel; }
};

inline void write_file(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Runs a command (argv) and fails the test with its stderr when it does not exit 0.
inline std::string run_ok(const std::vector<std::string>& argv, std::map<std::string, std::string> env = {}) {
  gpucheck::SubprocessOptions o;
  o.timeout = std::chrono::seconds(240);
  o.set_env = std::move(env);
  auto r = gpucheck::run_subprocess(argv, o);
  EXPECT_TRUE(r.ok()) << gpucheck::join(argv, " ") << ": " << r.describe() << "\n" << r.err;
  return r.out;
}

/// g++ -shared -fPIC SRC -o OUT EXTRA...; the source is written from `code`.
inline void build_so(const std::string& out, const std::string& code, const std::vector<std::string>& extra = {}) {
  std::string src = out + ".cpp";
  write_file(src, code);
  fs::create_directories(fs::path(out).parent_path());
  std::vector<std::string> argv{"g++", "-shared", "-fPIC", "-O0", src, "-o", out};
  argv.insert(argv.end(), extra.begin(), extra.end());
  run_ok(argv);
}

/// ldd's answer for each NEEDED name: path, or "not found".
inline std::map<std::string, std::string> ldd(const std::string& path, std::map<std::string, std::string> env = {}) {
  gpucheck::SubprocessOptions o;
  o.set_env = std::move(env);
  if (!o.set_env.count("LD_LIBRARY_PATH")) o.unset_env = {"LD_LIBRARY_PATH"};
  auto r = gpucheck::run_subprocess({"ldd", path}, o);
  std::map<std::string, std::string> out;
  for (const auto& raw : gpucheck::split(r.out, '\n')) {
    std::string line = gpucheck::trim(raw);
    auto arrow = line.find(" => ");
    if (arrow == std::string::npos) continue;
    std::string name = line.substr(0, arrow), rest = line.substr(arrow + 4);
    out[name] = gpucheck::starts_with(rest, "not found") ? "not found" : rest.substr(0, rest.find(" ("));
  }
  return out;
}

/// Build products shared by every process of one test binary (gtest_discover_tests runs each test in its
/// own process): built once into a temporary directory, renamed into place; rebuilt when the test binary
/// changes. Only for products that embed no absolute path of their directory and that tests never modify.
inline std::string shared_fixture_dir(const std::string& name, const std::function<void(const std::string&)>& build) {
  struct stat st {};
  ::stat("/proc/self/exe", &st);
  std::string base = std::string(GPUCHECK_ABI_FIXTURES) + "/" + name + "-" + std::to_string(st.st_mtime);
  if (fs::exists(base + "/.complete")) return base;
  // One process builds while the others (ctest -j) wait for it.
  fs::create_directories(GPUCHECK_ABI_FIXTURES);
  int lock = ::open((base + ".lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (lock >= 0) flock(lock, LOCK_EX);
  struct Unlock {
    int fd;
    ~Unlock() {
      if (fd >= 0) ::close(fd);  // closing releases the flock
    }
  } unlock{lock};
  if (fs::exists(base + "/.complete")) return base;
  std::string tmp = base + ".tmp" + std::to_string(getpid());
  fs::create_directories(tmp);
  build(tmp);
  write_file(tmp + "/.complete", "");
  std::error_code ec;
  fs::rename(tmp, base, ec);  // fails when another process got there first: use theirs
  if (ec) fs::remove_all(tmp, ec);
  // Products of earlier builds of this test binary are stale now.
  for (const auto& e : fs::directory_iterator(GPUCHECK_ABI_FIXTURES, ec)) {
    std::string n = e.path().filename().string();
    if (n.rfind(name + "-", 0) == 0 && e.path().string() != base && n.find(".lock") == std::string::npos &&
        n.find(".tmp") == std::string::npos)
      fs::remove_all(e.path(), ec);
  }
  return base;
}

/// A fat binary of `entries` SASS entries for sm_90 with `payload` bytes each (layout: fatbin.h).
inline std::string synthetic_fatbin(std::size_t entries, std::size_t payload) {
  std::string body;
  for (std::size_t i = 0; i < entries; ++i) {
    char h[64] = {};
    std::uint16_t kind = 2;
    std::uint32_t header = 64, arch = 90;
    std::uint64_t size = payload;
    std::memcpy(h, &kind, 2);
    std::memcpy(h + 4, &header, 4);
    std::memcpy(h + 8, &size, 8);
    std::memcpy(h + 28, &arch, 4);
    body.append(h, 64);
    body.append(payload, '\x5a');
  }
  char c[16] = {};
  std::uint32_t magic = 0xBA55ED50;
  std::uint16_t version = 1, header = 16;
  std::uint64_t size = body.size();
  std::memcpy(c, &magic, 4);
  std::memcpy(c + 4, &version, 2);
  std::memcpy(c + 6, &header, 2);
  std::memcpy(c + 8, &size, 8);
  return std::string(c, 16) + body;
}

}  // namespace abitest
