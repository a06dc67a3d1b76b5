#pragma once
// Venvs for tests that install real packages from PyPI (label `repro`): a fresh one per test, or one
// built once and kept (large installs such as torch) under $GPUCHECK_TEST_VENV_DIR.
#include <unistd.h>

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

/// A venv at `dir` built once and kept: when dir/.complete exists, nothing is done. Else `dir` is
/// recreated, `prepare` (when given) writes what the steps need into it, `python3 -m venv dir` runs, then
/// each step (an argument vector, run with `o`), then `finish` (when given: "" or why it failed); on
/// success dir/.complete records `note`. Returns "" on success, else why not (the caller skips: the
/// registry may be unreachable).
inline std::string keep_venv(const std::filesystem::path& dir, const std::vector<std::vector<std::string>>& steps,
                             const SubprocessOptions& o, const std::string& note,
                             const std::function<void()>& prepare = {},
                             const std::function<std::string()>& finish = {}) {
  if (std::filesystem::exists(dir / ".complete")) return "";
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
  return "";
}

}  // namespace gpucheck::testing
