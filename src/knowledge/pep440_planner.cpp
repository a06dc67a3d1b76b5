#include "knowledge/pep440_planner.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstring>
#include <regex>

#include "core/errors.h"
#include "core/text.h"
#include "platform/dist_info.h"

namespace gpucheck::compat::pep440 {
namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

int cmp(long a, long b) { return a < b ? -1 : a > b ? 1 : 0; }

int compare_release(const std::vector<long>& a, const std::vector<long>& b) {
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    int c = cmp(i < a.size() ? a[i] : 0, i < b.size() ? b[i] : 0);
    if (c) return c;
  }
  return 0;
}

int pre_rank(const std::string& kind) { return kind == "a" ? 0 : kind == "b" ? 1 : 2; }

int compare_local(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return a.empty() == b.empty() ? 0 : (a.empty() ? -1 : 1);
  auto sa = split(a, '.'), sb = split(b, '.');
  for (std::size_t i = 0; i < std::min(sa.size(), sb.size()); ++i) {
    bool na = !sa[i].empty() && std::all_of(sa[i].begin(), sa[i].end(), ::isdigit);
    bool nb = !sb[i].empty() && std::all_of(sb[i].begin(), sb[i].end(), ::isdigit);
    int c = 0;
    if (na && nb) c = cmp(std::stol(sa[i]), std::stol(sb[i]));
    else if (na != nb) c = na ? 1 : -1;  // numeric segments sort after alphanumeric ones
    else c = sa[i].compare(sb[i]) < 0 ? -1 : sa[i] == sb[i] ? 0 : 1;
    if (c) return c;
  }
  return cmp(static_cast<long>(sa.size()), static_cast<long>(sb.size()));
}

/// "2.0.*" -> the prefix release {2, 0}; nullopt when `text` is no wildcard.
std::optional<std::vector<long>> wildcard_prefix(const std::string& text) {
  if (text.size() < 3 || text.compare(text.size() - 2, 2, ".*") != 0) return std::nullopt;
  auto v = Version::parse(text.substr(0, text.size() - 2));
  if (!v || !v->local.empty()) return std::nullopt;
  return v->release;
}

bool release_starts_with(const Version& v, const std::vector<long>& prefix) {
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if ((i < v.release.size() ? v.release[i] : 0) != prefix[i]) return false;
  return true;
}

}  // namespace

std::string normalize_name(const std::string& name) { return inventory::normalize_package_name(name); }

std::optional<Version> Version::parse(const std::string& text) {
  static const std::regex re(
      R"(^v?(?:(\d+)!)?(\d+(?:\.\d+)*)(?:[-_.]?(a|b|c|rc|alpha|beta|pre|preview)[-_.]?(\d+)?)?)"
      R"((?:(-(\d+))|([-_.]?(post|rev|r)[-_.]?(\d+)?))?(?:([-_.]?dev)[-_.]?(\d+)?)?)"
      R"((?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?$)",
      std::regex::optimize);
  std::string t = lower(trim(text));
  std::smatch m;
  if (t.empty() || t.size() > 200 || !std::regex_match(t, m, re)) return std::nullopt;
  Version v;
  try {
    if (m[1].matched) v.epoch = std::stoi(m[1]);
    for (const auto& p : split(m[2], '.')) v.release.push_back(std::stol(p));
    if (m[3].matched) {
      std::string k = m[3];
      v.pre_kind = k == "alpha" ? "a" : k == "beta" ? "b" : (k == "c" || k == "pre" || k == "preview") ? "rc" : k;
      v.pre = m[4].matched ? std::stol(m[4]) : 0;
    }
    if (m[5].matched) v.post = std::stol(m[6]);
    else if (m[7].matched) v.post = m[9].matched ? std::stol(m[9]) : 0;
    if (m[10].matched) v.dev = m[11].matched ? std::stol(m[11]) : 0;
  } catch (const std::exception&) {
    return std::nullopt;  // a number too large for long
  }
  if (m[12].matched) {
    v.local = m[12];
    std::replace(v.local.begin(), v.local.end(), '-', '.');
    std::replace(v.local.begin(), v.local.end(), '_', '.');
  }
  return v;
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
  // Pre-release key: a dev-only release sorts before its pre-releases, a final after them.
  auto pre_key = [](const Version& v) -> std::pair<int, long> {
    if (v.pre_kind.empty()) return (!v.post && v.dev) ? std::pair<int, long>{-1, 0} : std::pair<int, long>{3, 0};
    return {pre_rank(v.pre_kind), v.pre};
  };
  auto a = pre_key(*this), b = pre_key(o);
  if (int c = cmp(a.first, b.first)) return c;
  if (int c = cmp(a.second, b.second)) return c;
  if (int c = cmp(post ? *post : -1, o.post ? *o.post : -1)) return c;
  if (int c = cmp(dev ? *dev : LONG_MAX, o.dev ? *o.dev : LONG_MAX)) return c;
  return with_local ? compare_local(local, o.local) : 0;
}

bool Specifier::matches(const Version& v) const {
  if (op == "===") return lower(version) == v.str();
  if (op == "==" || op == "!=") {
    bool eq;
    if (auto prefix = wildcard_prefix(version)) {
      eq = release_starts_with(v, *prefix);
    } else {
      auto s = Version::parse(version);
      if (!s) return false;
      eq = s->local.empty() ? v.compare(*s, false) == 0 : v.compare(*s, true) == 0;
    }
    return op == "==" ? eq : !eq;
  }
  auto s = Version::parse(version);
  if (!s) return false;
  int c = v.compare(*s, false);
  if (op == ">=") return c >= 0;
  if (op == "<=") return c <= 0;
  if (op == "<") {
    if (c >= 0) return false;
    // <V excludes pre-releases of V itself unless V is one.
    bool same_release = compare_release(v.release, s->release) == 0 && v.epoch == s->epoch;
    return !(same_release && v.is_prerelease() && !s->is_prerelease());
  }
  if (op == ">") {
    if (c <= 0) return false;
    bool same_release = compare_release(v.release, s->release) == 0 && v.epoch == s->epoch;
    return !(same_release && v.post && !s->post);  // >V excludes post-releases of V
  }
  if (op == "~=") {
    if (s->release.size() < 2 || c < 0) return false;
    std::vector<long> prefix(s->release.begin(), s->release.end() - 1);
    return release_starts_with(v, prefix) && v.epoch == s->epoch;
  }
  return false;
}

SpecifierSet SpecifierSet::parse(const std::string& raw) {
  std::string text = trim(raw);
  if (!text.empty() && text.front() == '(' && text.back() == ')') text = trim(text.substr(1, text.size() - 2));
  SpecifierSet set;
  if (text.empty()) return set;
  static const std::regex clause(R"(^(===|~=|==|!=|<=|>=|<|>)\s*([A-Za-z0-9_.*+!-]+)$)");
  for (const auto& part : split(text, ',')) {
    std::string p = trim(part);
    std::smatch m;
    if (!std::regex_match(p, m, clause))
      throw InputError("'" + raw + "': '" + p + "' is not a version specifier (like >=1.10 or ==2.0.*)");
    Specifier s{m[1], m[2]};
    bool wildcard = s.version.find('*') != std::string::npos;
    if (s.op != "===" && !(wildcard ? (s.op == "==" || s.op == "!=") && wildcard_prefix(s.version)
                                    : Version::parse(s.version).has_value()))
      throw InputError("'" + raw + "': '" + s.version + "' is not a PEP 440 version");
    set.specs.push_back(s);
  }
  return set;
}

bool SpecifierSet::contains(const Version& v, bool prereleases) const {
  if (v.is_prerelease() && !prereleases) {
    bool named = std::any_of(specs.begin(), specs.end(), [](const Specifier& s) {
      auto sv = Version::parse(s.version);
      return sv && sv->is_prerelease();
    });
    if (!named) return false;
  }
  return std::all_of(specs.begin(), specs.end(), [&](const Specifier& s) { return s.matches(v); });
}

bool SpecifierSet::contains(const std::string& version, bool prereleases) const {
  auto v = Version::parse(version);
  return v && contains(*v, prereleases);
}

std::string SpecifierSet::str() const {
  std::vector<std::string> parts;
  for (const auto& s : specs) parts.push_back(s.str());
  return join(parts, ",");
}

SpecifierSet SpecifierSet::operator&(const SpecifierSet& o) const {
  SpecifierSet out = *this;
  for (const auto& s : o.specs)
    if (std::none_of(out.specs.begin(), out.specs.end(), [&](const Specifier& x) { return x.str() == s.str(); }))
      out.specs.push_back(s);
  return out;
}

// --- markers -------------------------------------------------------------------------------------------

namespace {

struct MarkerParser {
  const std::string& text;
  const MarkerEnv& env;
  std::size_t pos = 0;

  [[noreturn]] void fail(const std::string& why) const {
    throw InputError("marker '" + text + "': " + why);
  }
  void skip() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  }
  bool word(const std::string& w) {
    skip();
    if (text.compare(pos, w.size(), w) != 0) return false;
    std::size_t end = pos + w.size();
    if (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) return false;
    pos = end;
    return true;
  }
  // A quoted string or a variable, and whether it was a variable.
  std::pair<std::string, std::string> value() {
    skip();
    if (pos >= text.size()) fail("a value is missing");
    char q = text[pos];
    if (q == '\'' || q == '"') {
      auto end = text.find(q, pos + 1);
      if (end == std::string::npos) fail("unterminated string");
      std::string s = text.substr(pos + 1, end - pos - 1);
      pos = end + 1;
      return {s, ""};
    }
    std::size_t start = pos;
    while (pos < text.size() && (std::isalnum(static_cast<unsigned char>(text[pos])) || text[pos] == '_' || text[pos] == '.'))
      ++pos;
    if (start == pos) fail("unexpected '" + text.substr(pos, 1) + "'");
    std::string var = text.substr(start, pos - start);
    return {lookup(var), var};
  }
  std::string lookup(const std::string& var) const {
    if (var == "python_version") return env.python_version;
    if (var == "python_full_version") return env.python_full_version;
    if (var == "platform_system") return env.platform_system;
    if (var == "platform_machine") return env.platform_machine;
    if (var == "sys_platform") return env.sys_platform;
    if (var == "os_name") return env.os_name;
    if (var == "implementation_name") return env.implementation_name;
    if (var == "platform_python_implementation") return env.platform_python_implementation;
    if (var == "implementation_version") return env.python_full_version;
    return "";
  }
  std::string op() {
    skip();
    for (const char* o : {"===", "==", "!=", "<=", ">=", "~=", "<", ">"})
      if (text.compare(pos, std::strlen(o), o) == 0) {
        pos += std::strlen(o);
        return o;
      }
    if (word("not")) {
      if (!word("in")) fail("'not' without 'in'");
      return "not in";
    }
    if (word("in")) return "in";
    fail("an operator is missing");
  }
  bool compare() {
    auto [lhs, lvar] = value();
    std::string o = op();
    auto [rhs, rvar] = value();
    if (lvar == "extra" || rvar == "extra") {
      std::string want = normalize_name(lvar == "extra" ? rhs : lhs);
      bool has = env.extras.count(want) > 0;
      if (o == "==") return has;
      if (o == "!=") return !has;
      fail("extra only compares with == or !=");
    }
    if (o == "in") return rhs.find(lhs) != std::string::npos;
    if (o == "not in") return rhs.find(lhs) == std::string::npos;
    auto lv = Version::parse(lhs);
    if (lv && Version::parse(rhs)) {
      try {
        return Specifier{o, rhs}.matches(*lv);
      } catch (const std::exception&) {
      }
    }
    if (o == "==" || o == "===") return lhs == rhs;
    if (o == "!=") return lhs != rhs;
    return false;  // an ordering between texts that are not versions: PEP 508 leaves it undefined
  }
  bool atom() {
    skip();
    if (pos < text.size() && text[pos] == '(') {
      ++pos;
      bool v = any();
      skip();
      if (pos >= text.size() || text[pos] != ')') fail("')' is missing");
      ++pos;
      return v;
    }
    return compare();
  }
  bool all() {
    bool v = atom();
    while (word("and")) v = atom() && v;
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
  if (p.pos != marker.size()) p.fail("unexpected text at '" + marker.substr(p.pos) + "'");
  return v;
}

Requirement Requirement::parse(const std::string& raw) {
  std::string text = raw;
  if (auto hash = text.find(" #"); hash != std::string::npos) text = text.substr(0, hash);
  text = trim(text);
  static const std::regex head(R"(^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[([^\]]*)\])?\s*(.*)$)");
  std::smatch m;
  if (text.empty() || text.size() > 1000 || !std::regex_match(text, m, head))
    throw InputError("'" + raw + "' is not a requirement (like bmtrain>=0.2.1 or torch==2.5.1)");
  Requirement r;
  r.written_name = m[1];
  r.name = normalize_name(r.written_name);
  for (const auto& e : split(m[2], ','))
    if (!trim(e).empty()) r.extras.push_back(normalize_name(trim(e)));
  std::string rest = m[3];
  std::string marker;
  if (auto semi = rest.find(';'); semi != std::string::npos) {
    marker = trim(rest.substr(semi + 1));
    rest = trim(rest.substr(0, semi));
  }
  if (!rest.empty() && rest[0] == '@') {
    r.url = trim(rest.substr(1));
    if (r.url.empty()) throw InputError("'" + raw + "': '@' without a URL");
  } else {
    r.specifiers = SpecifierSet::parse(rest);
  }
  r.marker = marker;
  if (!marker.empty()) evaluate_marker(marker, MarkerEnv{});  // throws on a marker that cannot be parsed
  return r;
}

std::string Requirement::str() const {
  std::string s = name;
  if (!extras.empty()) s += "[" + join(extras, ",") + "]";
  if (!url.empty()) return s + " @ " + url;
  return s + specifiers.str();
}

bool Requirement::applies(const MarkerEnv& env) const { return evaluate_marker(marker, env); }

}  // namespace gpucheck::compat::pep440
