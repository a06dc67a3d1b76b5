#pragma once
// A fresh `python3 -m venv` for tests that install real packages from PyPI (label `repro`).
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "core/subprocess.h"

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

}  // namespace gpucheck::testing
