#pragma once
// PEP 440 versions and specifiers and PEP 508 requirements with markers, as pip (packaging) reads them:
// what `pip check` needs to decide whether an installed distribution's Requires-Dist is met, and what a
// planner needs to read `--for 'bmtrain>=0.2.1'` or a requirements line. Pure functions, no I/O.
// (knowledge/version.h stays the loose reader of the GPU stack's own version texts: "520.61.05".)
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpucheck::pep440 {

/// A PEP 440 version, normalised: "1.0RC1" -> 1.0rc1, "2.1.2+cu121" -> release {2,1,2}, local "cu121".
struct Version {
  int epoch = 0;
  std::vector<long long> release;  // {2, 1, 2}
  std::optional<std::pair<char, long long>> pre;  // 'a', 'b' or 'c' (rc), with its number
  std::optional<long long> post;
  std::optional<long long> dev;
  std::string local;  // "cu121", lower case, '.'-separated parts

  /// nullopt when `text` is not a valid PEP 440 version.
  static std::optional<Version> parse(const std::string& text);
  bool is_prerelease() const { return pre.has_value() || dev.has_value(); }
  /// The version without its local part.
  Version public_version() const;
  /// Normalised text: "1!2.0rc1.post3.dev4+abc".
  std::string str() const;
};

/// PEP 440 ordering (epoch, release with trailing zeros ignored, dev < pre < final < post, local last).
int compare(const Version& a, const Version& b);

/// One clause: ">=2.3", "~=1.4.2", "==2.0.*", "!=1.5", "===foo".
struct Specifier {
  std::string op;       // "==", "!=", "<=", ">=", "<", ">", "~=", "==="
  std::string version;  // as written, without the ".*"
  bool wildcard = false;

  /// Whether `v` satisfies this clause (the prerelease question is the set's, see SpecifierSet).
  bool contains(const Version& v) const;
  std::string str() const;
};

/// A comma-separated set: every clause must hold. Prereleases are allowed only when a clause names one
/// or `allow_prereleases` says so, except that an installed version is always judged as it is (pip check
/// passes prereleases=True).
struct SpecifierSet {
  std::vector<Specifier> clauses;

  /// nullopt on a malformed clause (unknown operator, invalid version, ".*" where it is not allowed).
  static std::optional<SpecifierSet> parse(const std::string& text);
  bool contains(const Version& v, bool allow_prereleases = true) const;
  bool contains(const std::string& version, bool allow_prereleases = true) const;
  std::string str() const;  // "<2.1,>=1.10" in the written order
  bool empty() const { return clauses.empty(); }
};

/// The values markers are evaluated against (packaging's default_environment()).
using MarkerEnvironment = std::map<std::string, std::string>;

/// The environment of a CPython `python_full_version` ("3.11.7") on Linux x86_64 (or `machine`).
MarkerEnvironment linux_marker_environment(const std::string& python_full_version, const std::string& machine = "x86_64");

/// A PEP 508 requirement: name [extras] (specifiers | @ url) [; marker].
struct Requirement {
  std::string name;                  // normalised (PEP 503)
  std::vector<std::string> extras;   // normalised
  SpecifierSet specifiers;
  std::string url;                   // "name @ url" form
  std::string marker;                // the marker text, "" when none

  /// nullopt when `line` is not a requirement this parser reads.
  static std::optional<Requirement> parse(const std::string& line);
  /// Whether the marker holds in `env` with `extra` ("" : no extra requested). A marker this parser cannot
  /// read counts as true, so a requirement is never silently dropped.
  bool applies(const MarkerEnvironment& env, const std::string& extra = "") const;
};

/// Evaluates a PEP 508 marker expression; nullopt when it cannot be read.
std::optional<bool> evaluate_marker(const std::string& marker, const MarkerEnvironment& env);

/// PEP 503: lower case, runs of "-", "_", "." become "-".
std::string normalize_name(const std::string& name);

}  // namespace gpucheck::pep440
