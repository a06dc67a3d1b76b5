#pragma once
// What PyPI publishes for the packages the planner judges (data/compat/pypi.json, written by
// scripts/gen-compat-pypi from each release's wheel METADATA or sdist PKG-INFO): which versions exist, their
// Requires-Dist and Requires-Python, and the Linux x86_64 wheels (CPython tags, oldest manylinux glibc).
#include <string>
#include <vector>

namespace gpucheck::knowledge {

struct PypiRelease {
  std::string version;                           // "0.2.3.post2"
  bool yanked = false;
  std::vector<std::string> linux_wheel_pythons;  // "cp311", "cp39-abi3", "py3", "py39"
  std::string manylinux_glibc;                   // "2.17"; "" when no Linux binary wheel
  bool sdist = false;
  std::string requires_python;                   // ">=3.8"
  std::vector<std::string> requires_dist;        // PEP 508 lines, markers kept
  std::string summary;                           // recorded only where it tells something (PyPI's apex)
  std::string uploaded;                          // "2024-06-16": when its first file appeared on PyPI
  std::string source;                            // the file the metadata was read from

  /// A Linux x86_64 wheel (or a pure-Python one) installs on CPython `python_mm` ("3.11").
  bool has_wheel_for(const std::string& python_mm) const;
  /// Requires-Python admits this interpreter (empty: any).
  bool python_allowed(const std::string& python_version) const;
};

struct PypiPackage {
  std::string name, index, source;
  std::vector<PypiRelease> releases;  // oldest first
  /// The release with exactly this version (PEP 440 equality, local label ignored); nullptr when none.
  const PypiRelease* find(const std::string& version) const;
  /// Every non-yanked final version, oldest first ("0.2.2", "0.2.3", ...).
  std::vector<std::string> versions() const;
};

/// A release that breaks the C ABI of packages built against older ones (numpy 2.0.0 for torch wheels).
struct AbiBreak {
  std::string package, version;         // "numpy", "2.0.0"
  std::vector<std::string> dependents;  // "torch": its wheels published before `version` need package < version
  std::string source;
};

class PypiIndex {
 public:
  const std::vector<AbiBreak>& abi_breaks() const { return abi_breaks_; }
  /// Reads and validates pypi.json; throws InputError naming the file and the release.
  static PypiIndex load(const std::string& path);
  const PypiPackage* package(const std::string& name) const;
  const std::vector<PypiPackage>& packages() const { return packages_; }

 private:
  std::vector<PypiPackage> packages_;
  std::vector<AbiBreak> abi_breaks_;
};

/// CUDA major.minor of PyPI's plain torch wheel from its Requires-Dist ("nvidia-cuda-runtime-cu12==12.4.127"
/// -> "12.4", "cuda-toolkit[...]==13.0.2" -> "13.0"); "" when the wheel names no CUDA runtime package.
std::string cuda_of_requires_dist(const std::vector<std::string>& requires_dist);

}  // namespace gpucheck::knowledge
