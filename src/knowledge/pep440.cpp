// Follows the reference implementation, packaging 24 (packaging/version.py, specifiers.py, markers.py,
// requirements.py), rule for rule; the comments name the rule where it is not obvious.
#include "knowledge/pep440.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "core/text.h"
#include "knowledge/text_pattern.h"
#include "platform/dist_info.h"

namespace gpucheck::knowledge::pep440 {
namespace {

// The grammar's patterns are TextPatterns (RE2: linear, no recursion; std::regex overflowed the stack on a
// 100 KB specifier). Whitespace is [[:space:]], the class libstdc++'s \s knew ([\t\n\v\f\r ]; RE2's \s
// has no \v); "[^\r\n]" stands for std::regex's ECMAScript `.`, which stopped at both.

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool is_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// Numbers of up to 18 digits fit a long long; a longer one makes the text "not a version" here.
std::optional<long long> number(const std::string& s) {
  if (s.empty()) return 0LL;
  std::size_t first = s.find_first_not_of('0');
  if (first == std::string::npos) return 0LL;
  if (s.size() - first > 18) return std::nullopt;
  return std::stoll(s.substr(first));
}

template <typename T>
int cmp(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int compare_release(const std::vector<long long>& a, const std::vector<long long>& b) {
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i)
    if (int c = cmp(i < a.size() ? a[i] : 0LL, i < b.size() ? b[i] : 0LL)) return c;
  return 0;
}

// Local labels: parts compare numerically when numeric (and then above any alphanumeric part), else as
// text; a label that is a prefix of another sorts first; no label sorts below any label.
int compare_local(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return a.empty() == b.empty() ? 0 : (a.empty() ? -1 : 1);
  auto pa = split(a, '.'), pb = split(b, '.');
  for (std::size_t i = 0; i < std::min(pa.size(), pb.size()); ++i) {
    bool na = is_digits(pa[i]), nb = is_digits(pb[i]);
    if (na != nb) return na ? 1 : -1;
    int c = na ? cmp(*number(pa[i]), *number(pb[i])) : cmp(pa[i], pb[i]);
    if (c) return c;
  }
  return cmp(pa.size(), pb.size());
}

// packaging's _version_split: epoch first ("0" when none), then each dot part, "2rc1" split in two.
std::vector<std::string> version_split(const std::string& version) {
  std::vector<std::string> out;
  auto bang = version.rfind('!');
  out.push_back(bang == std::string::npos || bang == 0 ? "0" : version.substr(0, bang));
  static const knowledge::TextPattern pre_suffix(R"(([0-9]+)((?:a|b|c|rc)[0-9]+))");
  for (const auto& item : split(bang == std::string::npos ? version : version.substr(bang + 1), '.')) {
    if (auto m = pre_suffix.match(item)) out.push_back(m->str(1)), out.push_back(m->str(2));
    else out.push_back(item);
  }
  return out;
}

// `==spec.*` (packaging 24's _compare_equal): the prospective's public version, its release padded with
// zeros to the spec's length, then shortened to the spec's parts, equals the spec's parts.
bool wildcard_equal(const Version& v, const std::string& spec_text) {
  auto sv = Version::parse(spec_text);
  auto spec = version_split(sv ? sv->str() : spec_text);  // canonicalize_version leaves a non-version as is
  auto prospective = version_split(v.public_str());
  auto digits = [](const std::vector<std::string>& side) {
    return static_cast<std::size_t>(
        std::find_if(side.begin(), side.end(), [](const std::string& s) { return !is_digits(s); }) - side.begin());
  };
  std::size_t have = digits(prospective), want = digits(spec);
  if (have < want) prospective.insert(prospective.begin() + static_cast<std::ptrdiff_t>(have), want - have, "0");
  if (prospective.size() > spec.size()) prospective.resize(spec.size());
  return prospective == spec;
}

// packaging's _is_not_suffix: the parts of a ~= version kept before the last one is dropped.
bool is_not_suffix(const std::string& part) {
  for (const char* p : {"dev", "a", "b", "rc", "post"})
    if (starts_with(part, p)) return false;
  return true;
}

[[noreturn]] void fail(const std::string& message) { throw ParseError(message); }

// packaging's Specifier equality (_canonical_spec): the operator and the canonical version, trailing ".0"s
// of the release dropped except for ~=; a set holds each clause once, the first one written.
std::string canonical_key(const Specifier& s) {
  auto v = Version::parse(s.version);
  if (!v || s.wildcard) return s.str();  // canonicalize_version leaves "1.0.*" and non-versions as written
  if (s.op != "~=")
    while (v->release.size() > 1 && v->release.back() == 0) v->release.pop_back();
  return s.op + v->str();
}

void add_once(std::vector<Specifier>& specs, Specifier s) {
  const std::string key = canonical_key(s);
  if (std::none_of(specs.begin(), specs.end(), [&](const Specifier& x) { return canonical_key(x) == key; }))
    specs.push_back(std::move(s));
}

}  // namespace

std::string normalize_name(const std::string& name) { return platform::normalize_package_name(name); }

// --- versions ------------------------------------------------------------------------------------------

std::optional<Version> Version::parse(const std::string& text) {
  // packaging.version.VERSION_PATTERN, case-insensitive, surrounding whitespace allowed
  static const knowledge::TextPattern re(
      R"(v?(?:([0-9]+)!)?([0-9]+(?:\.[0-9]+)*))"
      R"(([-_\.]?(alpha|a|beta|b|preview|pre|c|rc)[-_\.]?([0-9]+)?)?)"
      R"(((?:-([0-9]+))|(?:[-_\.]?(post|rev|r)[-_\.]?([0-9]+)?))?)"
      R"(([-_\.]?(dev)[-_\.]?([0-9]+)?)?)"
      R"((?:\+([a-z0-9]+(?:[-_\.][a-z0-9]+)*))?)");
  std::string t = lower(trim(text));
  std::optional<knowledge::PatternMatch> m;
  if (t.empty() || t.size() > 256 || !(m = re.match(t))) return std::nullopt;
  Version v;
  auto n = number(m->str(1));
  if (!n || *n > 1000000000) return std::nullopt;
  v.epoch = static_cast<int>(*n);
  for (const auto& part : split(m->str(2), '.')) {
    auto x = number(part);
    if (!x) return std::nullopt;
    v.release.push_back(*x);
  }
  if (m->matched(3)) {
    std::string l = m->str(4);
    v.pre_kind = (l == "alpha" || l == "a") ? "a" : (l == "beta" || l == "b") ? "b" : "rc";  // c, pre, preview
    auto x = number(m->str(5));
    if (!x) return std::nullopt;
    v.pre = *x;
  }
  if (m->matched(6)) {
    auto x = number(m->matched(7) ? m->str(7) : m->str(9));
    if (!x) return std::nullopt;
    v.post = *x;
  }
  if (m->matched(10)) {
    auto x = number(m->str(12));
    if (!x) return std::nullopt;
    v.dev = *x;
  }
  if (m->matched(13)) {
    v.local = m->str(13);
    std::replace(v.local.begin(), v.local.end(), '-', '.');
    std::replace(v.local.begin(), v.local.end(), '_', '.');
  }
  return v;
}

Version Version::public_version() const {
  Version v = *this;
  v.local.clear();
  return v;
}

Version Version::base_version() const {
  Version b;
  b.epoch = epoch;
  b.release = release;
  return b;
}

std::string Version::public_str() const {
  std::string s = epoch ? std::to_string(epoch) + "!" : "";
  for (std::size_t i = 0; i < release.size(); ++i) s += (i ? "." : "") + std::to_string(release[i]);
  if (!pre_kind.empty()) s += pre_kind + std::to_string(pre);
  if (post) s += ".post" + std::to_string(*post);
  if (dev) s += ".dev" + std::to_string(*dev);
  return s;
}

std::string Version::str() const { return public_str() + (local.empty() ? "" : "+" + local); }

int Version::compare(const Version& o, bool with_local) const {
  if (int c = cmp(epoch, o.epoch)) return c;
  if (int c = compare_release(release, o.release)) return c;
  // Pre-release key: a dev release without pre or post sorts before any pre-release, a final after all.
  auto pre_key = [](const Version& v) -> std::pair<int, long long> {
    if (v.pre_kind.empty()) return {(!v.post && v.dev) ? -1 : 3, 0};
    return {v.pre_kind == "a" ? 0 : v.pre_kind == "b" ? 1 : 2, v.pre};
  };
  if (int c = cmp(pre_key(*this), pre_key(o))) return c;
  auto post_key = [](const Version& v) { return v.post ? std::make_pair(1, *v.post) : std::make_pair(0, 0LL); };
  if (int c = cmp(post_key(*this), post_key(o))) return c;
  auto dev_key = [](const Version& v) { return v.dev ? std::make_pair(0, *v.dev) : std::make_pair(1, 0LL); };
  if (int c = cmp(dev_key(*this), dev_key(o))) return c;
  return with_local ? compare_local(local, o.local) : 0;
}

int compare(const Version& a, const Version& b) { return a.compare(b); }

// --- specifiers ----------------------------------------------------------------------------------------

Specifier Specifier::parse(const std::string& raw) {
  // The version may not start with an operator character: ">>0.2" is a bad operator, not a bad version.
  static const knowledge::TextPattern clause(R"((===|~=|==|!=|<=|>=|<|>)[[:space:]]*([^[:space:]<>=!~][^[:space:]]*))");
  std::string text = trim(raw);
  auto m = clause.match(text);
  if (!m) fail("'" + text + "' is not a version specifier (like >=1.10 or ==2.0.*)");
  Specifier s{m->str(1), m->str(2), false};
  if (s.op == "===") {
    if (s.version.find_first_of(";)") != std::string::npos) fail("'" + text + "' is not a version specifier");
    return s;
  }
  if (ends_with(s.version, ".*")) {
    if (s.op != "==" && s.op != "!=") fail("'" + text + "': a '.*' wildcard goes only with == or !=");
    s.wildcard = true;
    s.version.resize(s.version.size() - 2);
  }
  auto v = Version::parse(s.version);
  if (!v) fail("'" + text + "': '" + s.version + (s.wildcard ? ".*" : "") + "' is not a PEP 440 version");
  if (s.wildcard && (v->is_prerelease() || v->post || !v->local.empty()))
    fail("'" + text + "': a '.*' wildcard follows release numbers only (==2.0.*)");
  if (!v->local.empty() && s.op != "==" && s.op != "!=")
    fail("'" + text + "': a local label (+" + v->local + ") goes only with == or !=");
  if (s.op == "~=" && v->release.size() < 2) fail("'" + text + "': ~= needs at least two release numbers (~=1.4)");
  return s;
}

bool Specifier::names_prerelease() const {
  if (op != "==" && op != ">=" && op != "<=" && op != "~=" && op != "===") return false;
  auto v = Version::parse(version);
  return v && v->is_prerelease();
}

bool Specifier::contains(const Version& v, std::optional<bool> prereleases) const {
  if (v.is_prerelease() && !prereleases.value_or(names_prerelease())) return false;
  if (op == "===") return v.str() == lower(version);
  if (op == "==" || op == "!=") {
    bool eq;
    if (wildcard) {
      eq = wildcard_equal(v, version);
    } else {
      auto spec = Version::parse(version);
      eq = spec && v.compare(*spec, !spec->local.empty()) == 0;  // a public pin admits local builds
    }
    return (op == "==") == eq;
  }
  auto spec = Version::parse(version);
  if (!spec) return false;
  if (op == "~=") {
    // packaging: >=V and ==P.* where P is V's parts up to its suffixes, less the last one, as written.
    auto parts = version_split(version);
    auto suffix = std::find_if_not(parts.begin(), parts.end(), is_not_suffix);
    std::vector<std::string> kept(parts.begin(), suffix);
    if (!kept.empty()) kept.pop_back();
    std::string prefix = kept.empty() ? "" : kept.front() + "!";
    for (std::size_t i = 1; i < kept.size(); ++i) prefix += (i > 1 ? "." : "") + kept[i];
    return v.compare(*spec, false) >= 0 && wildcard_equal(v, prefix);
  }
  if (op == "<=") return v.compare(*spec, false) <= 0;
  if (op == ">=") return v.compare(*spec, false) >= 0;
  const bool same_base = v.base_version() == spec->base_version();
  if (op == "<") return v < *spec && !(same_base && v.is_prerelease() && !spec->is_prerelease());  // <3.0: no 3.0rc1
  if (op == ">")  // >1.0: neither 1.0.post1 (unless the spec is a post-release) nor 1.0+local
    return v > *spec && !(same_base && v.is_postrelease() && !spec->is_postrelease()) && !(same_base && !v.local.empty());
  return false;
}

SpecifierSet SpecifierSet::parse(const std::string& raw) {
  std::string text = trim(raw);
  if (text.size() >= 2 && text.front() == '(' && text.back() == ')') text = trim(text.substr(1, text.size() - 2));
  SpecifierSet set;
  for (const auto& part : split(text, ',')) {
    if (trim(part).empty()) continue;  // packaging drops empty items: ">=1,,<2", ""
    try {
      add_once(set.specs, Specifier::parse(part));
    } catch (const ParseError& e) {
      if (trim(raw) == trim(part)) throw;
      fail("'" + trim(raw) + "': " + e.what());
    }
  }
  return set;
}

std::optional<SpecifierSet> SpecifierSet::try_parse(const std::string& text) {
  try {
    return parse(text);
  } catch (const ParseError&) {
    return std::nullopt;
  }
}

bool SpecifierSet::names_prerelease() const {
  return std::any_of(specs.begin(), specs.end(), [](const Specifier& s) { return s.names_prerelease(); });
}

bool SpecifierSet::contains(const Version& v, std::optional<bool> prereleases) const {
  bool allow = prereleases.value_or(names_prerelease());
  if (v.is_prerelease() && !allow) return false;
  return std::all_of(specs.begin(), specs.end(), [&](const Specifier& s) { return s.contains(v, allow); });
}

bool SpecifierSet::contains(const std::string& version, std::optional<bool> prereleases) const {
  if (auto v = Version::parse(version)) return contains(*v, prereleases);
  // Not a version: only `===` compares texts (packaging's arbitrary equality).
  return !specs.empty() && std::all_of(specs.begin(), specs.end(), [&](const Specifier& s) {
    return s.op == "===" && lower(trim(version)) == lower(s.version);
  });
}

std::string SpecifierSet::str() const {
  std::vector<std::string> parts;
  for (const auto& s : specs) parts.push_back(s.str());
  return join(parts, ",");
}

SpecifierSet SpecifierSet::operator&(const SpecifierSet& o) const {
  SpecifierSet out = *this;
  for (const auto& s : o.specs) add_once(out.specs, s);
  return out;
}

// --- markers -------------------------------------------------------------------------------------------

MarkerEnv MarkerEnv::linux_cpython(const std::string& full, const std::string& machine) {
  MarkerEnv env;
  auto d1 = full.find('.');
  env.python_version = d1 == std::string::npos ? full : full.substr(0, full.find('.', d1 + 1));
  env.python_full_version = full;
  env.implementation_version = full;
  env.platform_machine = machine;
  return env;
}

namespace {

// A recursive-descent reader of PEP 508 marker expressions that evaluates as it reads.
struct MarkerParser {
  const std::string& text;
  const MarkerEnv& env;
  std::size_t pos = 0;
  int depth = 0;  // parentheses open: each one is a level of recursion, so they are bounded

  [[noreturn]] void bad(const std::string& why) const { fail("marker '" + text + "': " + why); }
  void skip() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  }
  bool word(const char* w) {
    skip();
    std::size_t n = std::strlen(w);
    if (text.compare(pos, n, w) != 0) return false;
    if (pos + n < text.size() && (std::isalnum(static_cast<unsigned char>(text[pos + n])) || text[pos + n] == '_'))
      return false;
    pos += n;
    return true;
  }
  // The value of a PEP 508 variable; the legacy dotted names (os.name, sys.platform, ...) read the same.
  std::optional<std::string> variable(std::string name) const {
    std::replace(name.begin(), name.end(), '.', '_');
    if (name == "python_version") return env.python_version;
    if (name == "python_full_version") return env.python_full_version;
    if (name == "implementation_version") return env.implementation_version;
    if (name == "platform_system") return env.platform_system;
    if (name == "platform_machine") return env.platform_machine;
    if (name == "sys_platform") return env.sys_platform;
    if (name == "os_name") return env.os_name;
    if (name == "implementation_name") return env.implementation_name;
    if (name == "platform_python_implementation" || name == "python_implementation")
      return env.platform_python_implementation;
    if (name == "platform_release") return env.platform_release;
    if (name == "platform_version") return env.platform_version;
    return std::nullopt;
  }
  // A quoted string, or a variable (then `var` names it).
  std::string value(std::string& var) {
    skip();
    if (pos >= text.size()) bad("a value is missing");
    char q = text[pos];
    if (q == '\'' || q == '"') {
      auto end = text.find(q, pos + 1);
      if (end == std::string::npos) bad("unterminated string");
      std::string s = text.substr(pos + 1, end - pos - 1);
      pos = end + 1;
      return s;
    }
    std::size_t start = pos;
    while (pos < text.size() && (std::isalnum(static_cast<unsigned char>(text[pos])) || text[pos] == '_' || text[pos] == '.'))
      ++pos;
    if (start == pos) bad("unexpected '" + text.substr(pos, 1) + "'");
    var = text.substr(start, pos - start);
    if (var == "extra") return "";
    auto v = variable(var);
    if (!v) bad("'" + var + "' is not a PEP 508 marker variable");
    return *v;
  }
  std::string op() {
    skip();
    for (const char* o : {"===", "==", "!=", "<=", ">=", "~=", "<", ">"})
      if (text.compare(pos, std::strlen(o), o) == 0) {
        pos += std::strlen(o);
        return o;
      }
    if (word("not")) {
      if (!word("in")) bad("'not' without 'in'");
      return "not in";
    }
    if (word("in")) return "in";
    bad("an operator is missing");
  }
  // packaging's _eval_op: a version comparison when `op rhs` is a specifier and lhs a version, else text.
  bool compare() {
    std::string lvar, rvar;
    std::string lhs = value(lvar);
    std::string o = op();
    std::string rhs = value(rvar);
    if (lvar == "extra" || rvar == "extra") {
      // Extras compare normalised; the environment may ask for several (pip evaluates each).
      if (o != "==" && o != "!=") bad("extra compares only with == or !=");
      bool has = env.extras.count(normalize_name(lvar == "extra" ? rhs : lhs)) > 0;
      return (o == "==") == has;
    }
    if (o == "in") return rhs.find(lhs) != std::string::npos;
    if (o == "not in") return rhs.find(lhs) == std::string::npos;
    auto lv = Version::parse(lhs);
    if (lv) {
      try {
        return Specifier::parse(o + rhs).contains(*lv, true);
      } catch (const ParseError&) {
      }
    }
    if (o == "==") return lhs == rhs;
    if (o == "!=") return lhs != rhs;
    if (o == "<") return lhs < rhs;
    if (o == "<=") return lhs <= rhs;
    if (o == ">") return lhs > rhs;
    if (o == ">=") return lhs >= rhs;
    return false;  // === or ~= between texts that are not versions: packaging's UndefinedComparison
  }
  bool atom() {
    skip();
    if (pos < text.size() && text[pos] == '(') {
      if (++depth > 64) bad("parentheses nested deeper than 64 levels");
      ++pos;
      bool v = any();
      --depth;
      skip();
      if (pos >= text.size() || text[pos] != ')') bad("')' is missing");
      ++pos;
      return v;
    }
    return compare();
  }
  bool all() {
    bool v = atom();
    while (word("and")) v = atom() && v;  // both sides are read, so an error on either is found
    return v;
  }
  bool any() {
    bool v = all();
    while (word("or")) v = all() || v;
    return v;
  }
};

}  // namespace

bool evaluate_marker(const std::string& marker, const MarkerEnv& env) {
  if (trim(marker).empty()) return true;
  MarkerParser p{marker, env};
  bool v = p.any();
  p.skip();
  if (p.pos != marker.size()) p.bad("unexpected text at '" + marker.substr(p.pos) + "'");
  return v;
}

// --- requirements --------------------------------------------------------------------------------------

Requirement Requirement::parse(const std::string& raw) {
  std::string text = raw;
  if (auto hash = text.find(" #"); hash != std::string::npos) text = text.substr(0, hash);
  text = trim(text);
  static const knowledge::TextPattern head(
      R"(([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)[[:space:]]*(?:\[([^\]]*)\])?[[:space:]]*([^\r\n]*))");
  std::optional<knowledge::PatternMatch> m;
  if (text.empty() || text.size() > 4096 || !(m = head.match(text)))
    fail("'" + trim(raw) + "' is not a requirement (like bmtrain>=0.2.1 or torch==2.5.1)");
  Requirement r;
  r.written_name = m->str(1);
  r.name = normalize_name(r.written_name);
  for (const auto& e : split(m->str(2), ','))
    if (!trim(e).empty()) r.extras.push_back(normalize_name(trim(e)));
  std::string rest = trim(m->str(3));
  if (!rest.empty() && rest.front() == '@') {
    // "name @ url ; marker": the marker needs a space before ';' (a URL may contain ';').
    auto semi = rest.find(" ;");
    r.url = trim(rest.substr(1, semi == std::string::npos ? std::string::npos : semi - 1));
    if (semi != std::string::npos) r.marker = trim(rest.substr(semi + 2));
    if (r.url.empty()) fail("'" + trim(raw) + "': '@' without a URL");
  } else {
    if (auto semi = rest.find(';'); semi != std::string::npos) {
      r.marker = trim(rest.substr(semi + 1));
      rest = trim(rest.substr(0, semi));
      if (r.marker.empty()) fail("'" + trim(raw) + "': ';' without a marker");
    }
    try {
      r.specifiers = SpecifierSet::parse(rest);
    } catch (const ParseError& e) {
      fail("'" + trim(raw) + "': " + e.what());
    }
  }
  if (!r.marker.empty()) evaluate_marker(r.marker, MarkerEnv{});  // throws on a marker that cannot be read
  return r;
}

std::optional<Requirement> Requirement::try_parse(const std::string& text) {
  try {
    return parse(text);
  } catch (const ParseError&) {
    return std::nullopt;
  }
}

std::string Requirement::str() const {
  std::string s = name;
  if (!extras.empty()) s += "[" + join(extras, ",") + "]";
  if (!url.empty()) return s + " @ " + url;
  return s + specifiers.str();
}

bool Requirement::applies(const MarkerEnv& env) const { return evaluate_marker(marker, env); }

}  // namespace gpucheck::knowledge::pep440
