#pragma once
// PEP 440 versions and specifiers, PEP 508 requirements and markers, decided as packaging 24 decides them
// (the library pip vendors): what users type (`--for 'bmtrain>=0.2.1'`, requirements.txt lines), what wheels
// publish (Requires-Dist, Requires-Python) and what `pip check` asks of an installed distribution.
// The one implementation in gpucheck: doctor, explain and the planner all ask it. Pure functions, no I/O.
// tests/knowledge/pep440_reference_test.cpp compares it with packaging itself over a generated table.
//
//   auto r = pep440::Requirement::parse("torch (!=1.12.0,>=1.9) ; extra == 'all'");
//   r.name == "torch"; r.specifiers.contains("1.13.1") == true; r.marker == "extra == 'all'"
//
// Text a user or a file gave that is not PEP 440 / PEP 508 throws pep440::ParseError (an InputError: the CLI
// prints it on one line and exits 2); the try_parse forms return nullopt instead, for installed metadata,
// where a line that cannot be read names nothing to check. knowledge/version.h stays the loose reader of
// the GPU stack's own version texts ("520.61.05", "11.4.0-1ubuntu1"); its satisfies() asks this module.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/errors.h"

namespace gpucheck::knowledge::pep440 {

/// A version, specifier, requirement or marker that is not PEP 440 / PEP 508; the message names the text.
struct ParseError : InputError {
  explicit ParseError(const std::string& message) : InputError(message) {}
};

/// A PEP 440 version, normalised: "1.0RC1" -> 1.0rc1, "2.1.2+cu121" -> release {2,1,2}, local "cu121".
struct Version {
  int epoch = 0;
  std::vector<long long> release;  // {2, 1, 2}
  std::string pre_kind;            // "a", "b", "rc"; "" when not a pre-release
  long long pre = 0;
  std::optional<long long> post, dev;
  std::string local;               // "cu121": lower case, '.'-separated

  /// nullopt when `text` is not a PEP 440 version (or has a number of more than 18 digits).
  static std::optional<Version> parse(const std::string& text);
  bool is_prerelease() const { return !pre_kind.empty() || dev.has_value(); }
  bool is_postrelease() const { return post.has_value(); }
  Version public_version() const;  // without the local label
  Version base_version() const;    // epoch and release only
  std::string str() const;         // normalised: "1!2.0rc1.post3.dev4+abc"
  std::string public_str() const;  // str() without the local label
  /// PEP 440 order; `with_local` false ignores the local labels.
  int compare(const Version& o, bool with_local = true) const;
  bool operator<(const Version& o) const { return compare(o) < 0; }
  bool operator<=(const Version& o) const { return compare(o) <= 0; }
  bool operator>(const Version& o) const { return compare(o) > 0; }
  bool operator>=(const Version& o) const { return compare(o) >= 0; }
  bool operator==(const Version& o) const { return compare(o) == 0; }
  bool operator!=(const Version& o) const { return compare(o) != 0; }
};

/// PEP 440 ordering (epoch, release with trailing zeros ignored, dev < pre < final < post, local last).
int compare(const Version& a, const Version& b);

/// One clause: ">=2.3", "~=1.4.2", "==2.0.*", "!=1.5", "===foo".
struct Specifier {
  std::string op;       // "==", "!=", "<=", ">=", "<", ">", "~=", "==="
  std::string version;  // as written, without the ".*"
  bool wildcard = false;

  /// One clause; throws ParseError (unknown operator, invalid version, ".*" or "+local" where not allowed).
  static Specifier parse(const std::string& text);
  /// Whether this clause admits pre-releases by itself: an inclusive operator naming one (">=2.0rc1").
  bool names_prerelease() const;
  /// Whether `v` satisfies the clause. `prereleases` nullopt: as names_prerelease() says.
  bool contains(const Version& v, std::optional<bool> prereleases = std::nullopt) const;
  std::string str() const { return op + version + (wildcard ? ".*" : ""); }
};

/// A comma-separated set: every clause must hold.
struct SpecifierSet {
  std::vector<Specifier> specs;

  /// ">=1.10,<2.0.0", "(>=1.9,!=1.12.0)", "" (anything). Throws ParseError naming the bad clause.
  static SpecifierSet parse(const std::string& text);
  static std::optional<SpecifierSet> try_parse(const std::string& text);
  /// Pre-releases: `prereleases` true admits them, false never; nullopt (packaging's default) admits them
  /// only when a clause names one, so an empty set admits none. pip check asks with true.
  bool contains(const Version& v, std::optional<bool> prereleases = std::nullopt) const;
  /// A text that is not a PEP 440 version satisfies only `===` clauses written exactly so.
  bool contains(const std::string& version, std::optional<bool> prereleases = std::nullopt) const;
  bool names_prerelease() const;
  bool empty() const { return specs.empty(); }
  std::string str() const;  // "<2.1,>=1.10" in the written order
  /// Both sets together (a requirement and a constraint on the same package).
  SpecifierSet operator&(const SpecifierSet& o) const;
};

/// The environment markers are evaluated in (packaging's default_environment()); defaults: Linux x86_64
/// CPython.
struct MarkerEnv {
  std::string python_version;       // "3.11"
  std::string python_full_version;  // "3.11.7"
  std::string implementation_version;
  std::string platform_system = "Linux", platform_machine = "x86_64", sys_platform = "linux";
  std::string os_name = "posix", implementation_name = "cpython", platform_python_implementation = "CPython";
  std::string platform_release, platform_version;
  std::set<std::string> extras;     // the extras asked for, normalised ("torch" for transformers[torch])

  /// The environment of CPython `python_full_version` ("3.11.7") on Linux `machine`, no extra asked for.
  static MarkerEnv linux_cpython(const std::string& python_full_version, const std::string& machine = "x86_64");
};

/// A PEP 508 marker expression ("python_version < '3.12' and extra == 'cuda'"). Throws ParseError when it
/// cannot be read (syntax, a variable PEP 508 does not define); "" holds.
bool evaluate_marker(const std::string& marker, const MarkerEnv& env);

/// A PEP 508 requirement: name [extras] (specifiers | @ url) [; marker].
struct Requirement {
  std::string name;                 // PEP 503 normalised: "flash-attn"
  std::string written_name;         // as written: "flash_attn"
  std::vector<std::string> extras;  // normalised
  SpecifierSet specifiers;
  std::string marker;               // the marker text, "" when none
  std::string url;                  // "name @ URL" form; "" otherwise

  /// One requirement; throws ParseError for anything else (pip options, paths, empty text, a bad marker).
  static Requirement parse(const std::string& text);
  static std::optional<Requirement> try_parse(const std::string& text);
  /// "torch>=1.10,<2.0.0" (normalised name, extras, specifiers or URL; no marker).
  std::string str() const;
  /// Whether the marker holds in `env` (its extras are the ones asked for).
  bool applies(const MarkerEnv& env) const;
};

/// PEP 503: lower case, runs of "-", "_", "." become "-".
std::string normalize_name(const std::string& name);

}  // namespace gpucheck::knowledge::pep440
