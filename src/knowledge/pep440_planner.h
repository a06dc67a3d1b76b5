#pragma once
// MERGE NOTE: knowledge/pep440.h (gpucheck::pep440, doctor-env) and this file (gpucheck::compat::pep440,
// the install planner's) were written in parallel and do the same job; they must be merged into one module.
// PEP 440 versions and specifiers, PEP 508 requirements and markers, as pip reads them: what users type
// (`'bmtrain>=0.2.1'`, `torch<2.0.0,>=1.10`, requirements.txt lines) and what wheels publish (Requires-Dist).
//
//   auto r = pep440::Requirement::parse("torch (!=1.12.0,>=1.9) ; extra == 'all'");
//   r.name == "torch"; r.specifiers.contains("1.13.1") == true; r.marker == "extra == 'all'"
//
// version.h keeps the lenient dotted-version compare the rest of the knowledge base uses for CUDA and driver
// numbers; this module is the strict one for Python packages (pre/post/dev releases, local labels, ~=, ===).
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gpucheck::compat::pep440 {

struct Version {
  int epoch = 0;
  std::vector<long> release;  // {2, 0, 1}
  std::string pre_kind;       // "a", "b", "rc"; "" when not a pre-release
  long pre = 0;
  std::optional<long> post, dev;
  std::string local;          // "cu118" (normalised: lower case, '.' separated)

  /// Normalised parse ("2.0.1+cu118", "0.2.3.post2", "1.0rc1", "v1.2"); nullopt when not PEP 440.
  static std::optional<Version> parse(const std::string& text);
  std::string str() const;        // the normalised text
  std::string public_str() const; // without the local label
  bool is_prerelease() const { return !pre_kind.empty() || dev.has_value(); }
  /// PEP 440 order; `with_local` false ignores the local labels (a public version specifier does).
  int compare(const Version& o, bool with_local = true) const;
  bool operator<(const Version& o) const { return compare(o) < 0; }
  bool operator==(const Version& o) const { return compare(o) == 0; }
};

struct Specifier {
  std::string op;       // "==", "!=", "<=", ">=", "<", ">", "~=", "==="
  std::string version;  // as written, without the operator ("2.0.*" keeps its wildcard)
  bool matches(const Version& v) const;
  std::string str() const { return op + version; }
};

struct SpecifierSet {
  std::vector<Specifier> specs;

  /// ">=1.10,<2.0.0", "(>=1.9,!=1.12.0)", "" (anything). Throws InputError naming the bad clause.
  static SpecifierSet parse(const std::string& text);
  /// Every clause holds. Pre-releases only match when `prereleases` or a clause names one (as pip).
  bool contains(const Version& v, bool prereleases = false) const;
  bool contains(const std::string& version, bool prereleases = false) const;
  bool empty() const { return specs.empty(); }
  std::string str() const;  // ">=1.10,<2.0.0" (clauses joined by ',')
  /// Both sets together (a requirement and a constraint on the same package).
  SpecifierSet operator&(const SpecifierSet& o) const;
};

/// The environment markers are evaluated in (defaults: Linux x86_64 CPython).
struct MarkerEnv {
  std::string python_version;       // "3.11"
  std::string python_full_version;  // "3.11.7"
  std::string platform_system = "Linux", platform_machine = "x86_64", sys_platform = "linux";
  std::string os_name = "posix", implementation_name = "cpython", platform_python_implementation = "CPython";
  std::set<std::string> extras;     // the extras asked for ("torch" for transformers[torch])
};

/// PEP 508 marker ("python_version < '3.12' and platform_system == \"Linux\""). Throws InputError when it
/// cannot be parsed. An unknown variable compares as "".
bool evaluate_marker(const std::string& marker, const MarkerEnv& env);

struct Requirement {
  std::string name;                 // PEP 503 normalised: "flash-attn"
  std::string written_name;         // as written: "flash_attn"
  std::vector<std::string> extras;  // "torch" of transformers[torch]
  SpecifierSet specifiers;
  std::string marker;               // "" when none
  std::string url;                  // "name @ URL" form; "" otherwise

  /// One PEP 508 requirement. Throws InputError for anything else (pip options, paths, empty text).
  static Requirement parse(const std::string& text);
  /// "torch>=1.10,<2.0.0" (normalised name, extras, specifiers; no marker).
  std::string str() const;
  bool applies(const MarkerEnv& env) const;
};

/// PEP 503: lower case, runs of -_. become '-'.
std::string normalize_name(const std::string& name);

}  // namespace gpucheck::compat::pep440
