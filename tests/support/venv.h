#pragma once
// Venvs for tests that install real packages from PyPI (label `repro`): a fresh one per test, or one
// built once and kept (large installs such as torch) under $GPUCHECK_TEST_VENV_DIR.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/subprocess.h"
#include "core/text.h"

namespace gpucheck::testing {

/// The heavy PyPI tests run only when asked: GPUCHECK_TEST_REPRO=1.
inline bool repro_enabled() {
  const char* v = std::getenv("GPUCHECK_TEST_REPRO");
  return v && std::string(v) == "1";
}

struct Venv {
  std::filesystem::path dir;  // removed by the test when done
  std::string python;         // dir/venv/bin/python
};

/// A new venv under the temporary directory, named by `tag` and this process; throws when venv fails.
inline Venv fresh_venv(const std::string& tag) {
  Venv v;
  v.dir = std::filesystem::temp_directory_path() / ("gpucheck_" + tag + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(v.dir);
  std::filesystem::create_directories(v.dir);
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(180);
  auto r = run_subprocess({find_in_path("python3"), "-m", "venv", (v.dir / "venv").string()}, o);
  if (!r.ok()) throw std::runtime_error("python3 -m venv failed: " + r.err);
  v.python = (v.dir / "venv/bin/python").string();
  return v;
}

/// Where kept venvs live: $GPUCHECK_TEST_VENV_DIR, else ~/.cache/gpucheck/test-venvs.
inline std::string kept_venv_root() {
  if (const char* d = std::getenv("GPUCHECK_TEST_VENV_DIR"); d && *d) return d;
  const char* home = std::getenv("HOME");
  return std::string(home ? home : "/tmp") + "/.cache/gpucheck/test-venvs";
}

/// The free space a venv with a CUDA torch needs while pip builds it: the installed venv (about 5 GiB) and
/// pip's unpacked wheels beside it.
constexpr std::uintmax_t kTorchVenvRoom = std::uintmax_t{10} << 30;

/// "" when the file system of `dir` has `bytes` free, else why not, in words (the caller skips: a full
/// shared disk is this machine's state, not the code's, and a half-written venv would fail for that reason).
inline std::string room_for(const std::filesystem::path& dir, std::uintmax_t bytes) {
  std::error_code ec;
  std::filesystem::path probe = dir;
  while (!probe.empty() && !std::filesystem::exists(probe, ec)) probe = probe.parent_path();
  const auto space = std::filesystem::space(probe.empty() ? "/" : probe, ec);
  if (ec || space.available >= bytes) return "";
  auto gib = [](std::uintmax_t b) { return std::to_string(b >> 30) + "." + std::to_string((b >> 20) % 1024 * 10 / 1024); };
  return "needs " + gib(bytes) + " GiB free under " + probe.string() + ", " + gib(space.available) + " GiB free";
}

/// Identical files of 1 MiB or more in the kept venvs under `root` (those marked .complete: one pip is still
/// writing is left alone) become hard links to one copy: the same CUDA wheels recur across the torch venvs
/// (4.2 GiB of 25 GiB here). util-linux's hardlink does it; file modes must match. Where it is missing,
/// nothing happens. Pip unlinks a file before writing it, so a venv installed into never changes another.
inline void link_identical_files(const std::filesystem::path& root) {
  const std::string tool = find_in_path("hardlink");
  std::error_code ec;
  if (tool.empty() || !std::filesystem::is_directory(root, ec)) return;
  std::vector<std::string> args = {tool, "--quiet", "--ignore-owner", "--ignore-time", "--minimum-size", "1M"};
  for (const auto& e : std::filesystem::directory_iterator(root, ec))
    if (std::filesystem::exists(e.path() / ".complete")) args.push_back(e.path().string());
  if (args.size() < 8) return;  // fewer than two venvs
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(10);
  if (run_subprocess(args, o).ok()) std::ofstream(root / ".identical-files-linked") << "hardlink\n";
}

/// Stamps a kept venv as used now: scripts/make-room removes the least recently used first.
inline void mark_used(const std::filesystem::path& kept) { std::ofstream(kept / ".last-used") << "used\n"; }

/// Holds an exclusive flock(2) on `path` (created) for its lifetime: the tests of one executable run as
/// parallel ctest processes, and two that need the same kept venv must not build it into one directory at
/// once (the second waits, then finds it complete). Closing the descriptor releases the lock.
class FileLock {
 public:
  explicit FileLock(const std::filesystem::path& path) : fd_(::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644)) {
    if (fd_ >= 0) ::flock(fd_, LOCK_EX);
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

/// A venv at `dir` built once and kept: when dir/.complete exists, nothing is done. Else `dir` is
/// recreated, `prepare` (when given) writes what the steps need into it, `python3 -m venv dir` runs, then
/// each step (an argument vector, run with `o`), then `finish` (when given: "" or why it failed); on
/// success dir/.complete records `note`, and identical files across the kept venvs are linked. Returns ""
/// on success, else why not (the caller skips: the registry may be unreachable, or the disk lack `room`
/// bytes).
inline std::string keep_venv(const std::filesystem::path& dir, const std::vector<std::vector<std::string>>& steps,
                             const SubprocessOptions& o, const std::string& note,
                             const std::function<void()>& prepare = {},
                             const std::function<std::string()>& finish = {}, std::uintmax_t room = 0) {
  const std::filesystem::path root = dir.parent_path();
  std::error_code ec;
  std::filesystem::create_directories(root, ec);
  const FileLock building(root / (dir.filename().string() + ".lock"));  // another test may be building it
  if (std::filesystem::exists(dir / ".complete")) {
    mark_used(dir);
    // Venvs kept by earlier runs, before identical files were linked: once.
    if (!std::filesystem::exists(root / ".identical-files-linked")) link_identical_files(root);
    return "";
  }
  if (std::string why = room_for(dir, room); !why.empty()) return why;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  if (prepare) prepare();
  std::vector<std::vector<std::string>> all = {{"python3", "-m", "venv", dir.string()}};
  all.insert(all.end(), steps.begin(), steps.end());
  for (const auto& s : all) {
    auto r = run_subprocess(s, o);
    if (!r.ok()) return join(s, " ") + ": " + r.describe() + " " + r.err.substr(0, 2000);
  }
  if (finish)
    if (std::string why = finish(); !why.empty()) return why;
  std::ofstream(dir / ".complete") << note << "\n";
  link_identical_files(root);
  return "";
}

/// torch 2.5.1 from PyPI (CUDA 12.4; cuDNN 9.1.0.70) with numpy<2, kept as `torch251-cu124`: "" or why
/// it could not be built. Its CUDA major differs from the CUDA 13 toolkit here: the seed's situation.
inline std::string keep_torch251_cu124_venv(std::filesystem::path& dir) {
  dir = std::filesystem::path(kept_venv_root()) / "torch251-cu124";
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(30);
  const std::string py = (dir / "bin/python").string();
  return keep_venv(dir, {{py, "-m", "pip", "install", "-q", "torch==2.5.1", "numpy<2"}}, o,
                   "torch 2.5.1 (cuDNN 9.1.0.70)", {}, {}, kTorchVenvRoom);
}

/// A hard-link copy (cp -al) of a kept venv under the temporary directory, removed with this object. Pip
/// unlinks a file before writing it, so what is installed into the copy never reaches the kept venv.
struct ScratchVenv {
  std::filesystem::path dir;  // the copy; its parent is this object's own directory
  std::string python;

  ScratchVenv() = default;
  /// "" when `kept` is copied, else why not (the test skips or fails).
  std::string copy_of(const std::filesystem::path& kept, const std::string& tag) {
    if (!std::filesystem::exists(kept / ".complete"))
      return kept.string() + " is not built (the repro test that keeps it builds it)";
    mark_used(kept);
    const auto base = std::filesystem::temp_directory_path() / ("gpucheck_" + tag + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(base);
    std::filesystem::create_directories(base);
    dir = base / "venv";
    SubprocessOptions o;
    o.timeout = std::chrono::minutes(5);
    auto r = run_subprocess({"cp", "-al", kept.string(), dir.string()}, o);
    python = (dir / "bin/python").string();
    return r.ok() ? "" : "cp -al " + kept.string() + ": " + r.err + " (the copy must be on the kept venv's file system)";
  }
  ~ScratchVenv() {
    std::error_code ec;
    if (!dir.empty()) std::filesystem::remove_all(dir.parent_path(), ec);
  }
  ScratchVenv(const ScratchVenv&) = delete;
  ScratchVenv& operator=(const ScratchVenv&) = delete;
};

}  // namespace gpucheck::testing
