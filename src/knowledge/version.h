#pragma once
// Dotted versions as the GPU stack writes them ("2.0.1+cu118", "12.1.105", "520.61.05", "0.2.3.post2") and
// the subset of PEP 440 specifiers the knowledge base uses (">=1.10,<2.1", "<=0.2.2", "==2.0.*").
#include <optional>
#include <string>
#include <vector>

#include "core/cuda_version.h"

namespace gpucheck::knowledge {

struct Version {
  std::vector<int> parts;  // numeric release parts: {2, 0, 1}
  std::string suffix;      // what follows the release: ".post2", "rc1"
  std::string local;       // after '+': "cu118"

  /// nullopt when `text` does not start with a number.
  static std::optional<Version> parse(const std::string& text);
  int part(std::size_t i) const { return i < parts.size() ? parts[i] : 0; }
  int major() const { return part(0); }
  int minor() const { return part(1); }
  std::string major_minor() const;  // "2.0"
  /// Compares release parts only (missing parts are 0); a ".postN" suffix sorts after the plain release.
  int compare(const Version& other) const;
};

/// Numeric comparison of two version strings; unparsable strings compare as 0.0.
int compare_versions(const std::string& a, const std::string& b);

/// True when `version` satisfies every comma-separated clause of `specifiers` (empty: always): PEP 440 as
/// knowledge/pep440.h decides it (pre-releases judged as they are). A version PEP 440 cannot read is compared
/// numerically, with the operators == (with trailing .*), !=, >=, <=, >, <; anything else throws InputError.
bool satisfies(const std::string& version, const std::string& specifiers);

/// 12040 -> "12.4": the one conversion lives in core (probes use it too); named here for compat's users.
using gpucheck::cuda_int_to_string;

/// "cu118" -> "11.8", "cu121" -> "12.1", "cu130" -> "13.0"; "" when not a CUDA tag.
std::string cuda_tag_to_version(const std::string& tag);

}  // namespace gpucheck::knowledge
