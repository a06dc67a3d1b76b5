// Follows the reference implementation, packaging 24 (packaging/version.py, specifiers.py, markers.py,
// requirements.py), rule for rule; the comments name the rule where it is not obvious.
#include "knowledge/pep440.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "core/text.h"
#include "platform/dist_info.h"

namespace gpucheck::pep440 {
namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

long long to_ll(const std::string& s) {
  if (s.empty()) return 0;
  if (s.size() > 18) return (1LL << 62);  // absurdly long numbers still order above all real ones
  return std::stoll(s);
}

std::vector<long long> stripped_release(const std::vector<long long>& r) {
  std::vector<long long> out = r;
  while (out.size() > 1 && out.back() == 0) out.pop_back();
  return out;
}

// Local parts compare numerically when numeric (and then after any alphanumeric part), else as text.
int compare_local(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return a.empty() == b.empty() ? 0 : (a.empty() ? -1 : 1);
  auto split = [](const std::string& s) {
    std::vector<std::string> parts;
    std::string cur;
    for (char c : s) {
      if (c == '.' || c == '-' || c == '_') parts.push_back(cur), cur.clear();
      else cur += c;
    }
    parts.push_back(cur);
    return parts;
  };
  auto pa = split(a), pb = split(b);
  for (std::size_t i = 0; i < std::max(pa.size(), pb.size()); ++i) {
    if (i >= pa.size()) return -1;
    if (i >= pb.size()) return 1;
    bool na = !pa[i].empty() && pa[i].find_first_not_of("0123456789") == std::string::npos;
    bool nb = !pb[i].empty() && pb[i].find_first_not_of("0123456789") == std::string::npos;
    if (na != nb) return na ? 1 : -1;
    if (na) {
      long long x = to_ll(pa[i]), y = to_ll(pb[i]);
      if (x != y) return x < y ? -1 : 1;
    } else if (pa[i] != pb[i]) {
      return pa[i] < pb[i] ? -1 : 1;
    }
  }
  return 0;
}

template <typename T>
int cmp(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

Version base_version(const Version& v) {
  Version b;
  b.epoch = v.epoch;
  b.release = v.release;
  return b;
}

bool equal_release_prefix(const Version& v, const Version& spec) {
  if (v.epoch != spec.epoch) return false;
  for (std::size_t i = 0; i < spec.release.size(); ++i)
    if ((i < v.release.size() ? v.release[i] : 0) != spec.release[i]) return false;
  return true;
}

}  // namespace

std::string normalize_name(const std::string& name) { return inventory::normalize_package_name(name); }

std::optional<Version> Version::parse(const std::string& text) {
  // packaging.version.VERSION_PATTERN
  static const std::regex re(
      R"(^\s*v?(?:([0-9]+)!)?([0-9]+(?:\.[0-9]+)*))"
      R"(([-_\.]?(alpha|a|beta|b|preview|pre|c|rc)[-_\.]?([0-9]+)?)?)"
      R"(((?:-([0-9]+))|(?:[-_\.]?(post|rev|r)[-_\.]?([0-9]+)?))?)"
      R"(([-_\.]?(dev)[-_\.]?([0-9]+)?)?)"
      R"((?:\+([a-z0-9]+(?:[-_\.][a-z0-9]+)*))?\s*$)",
      std::regex::icase);
  std::smatch m;
  if (text.size() > 256 || !std::regex_match(text, m, re)) return std::nullopt;
  Version v;
  v.epoch = m[1].matched ? static_cast<int>(to_ll(m[1].str())) : 0;
  std::string rel = m[2].str();
  std::size_t start = 0;
  while (true) {
    auto dot = rel.find('.', start);
    v.release.push_back(to_ll(rel.substr(start, dot - start)));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (m[3].matched) {
    std::string l = lower(m[4].str());
    char letter = (l == "alpha" || l == "a") ? 'a' : (l == "beta" || l == "b") ? 'b' : 'c';  // c, pre, preview, rc
    v.pre = std::make_pair(letter, m[5].matched ? to_ll(m[5].str()) : 0);
  }
  if (m[6].matched) v.post = m[7].matched ? to_ll(m[7].str()) : (m[9].matched ? to_ll(m[9].str()) : 0);
  if (m[10].matched) v.dev = m[12].matched ? to_ll(m[12].str()) : 0;
  if (m[13].matched) {
    v.local = lower(m[13].str());
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

std::string Version::str() const {
  std::string s = epoch ? std::to_string(epoch) + "!" : "";
  for (std::size_t i = 0; i < release.size(); ++i) s += (i ? "." : "") + std::to_string(release[i]);
  if (pre) s += (pre->first == 'c' ? std::string("rc") : std::string(1, pre->first)) + std::to_string(pre->second);
  if (post) s += ".post" + std::to_string(*post);
  if (dev) s += ".dev" + std::to_string(*dev);
  if (!local.empty()) s += "+" + local;
  return s;
}

int compare(const Version& a, const Version& b) {
  if (int c = cmp(a.epoch, b.epoch)) return c;
  if (int c = cmp(stripped_release(a.release), stripped_release(b.release))) return c;
  // pre: a dev release without pre/post sorts before any pre-release; no pre sorts after all of them.
  auto pre_key = [](const Version& v) -> std::pair<int, std::pair<char, long long>> {
    if (!v.pre && !v.post && v.dev) return {-1, {0, 0}};
    if (!v.pre) return {1, {0, 0}};
    return {0, *v.pre};
  };
  if (int c = cmp(pre_key(a), pre_key(b))) return c;
  auto post_key = [](const Version& v) { return v.post ? std::make_pair(1, *v.post) : std::make_pair(0, 0LL); };
  if (int c = cmp(post_key(a), post_key(b))) return c;
  auto dev_key = [](const Version& v) { return v.dev ? std::make_pair(0, *v.dev) : std::make_pair(1, 0LL); };
  if (int c = cmp(dev_key(a), dev_key(b))) return c;
  return compare_local(a.local, b.local);
}

bool Specifier::contains(const Version& v) const {
  if (op == "===") return lower(v.str()) == lower(trim(version));
  auto spec = Version::parse(version);
  if (!spec) return false;
  if (op == "==" || op == "!=") {
    bool eq;
    if (wildcard) {
      eq = equal_release_prefix(v.public_version(), *spec);
    } else {
      const Version p = spec->local.empty() ? v.public_version() : v;
      eq = compare(p, *spec) == 0;
    }
    return op == "==" ? eq : !eq;
  }
  if (op == "~=") {
    Specifier prefix{"==", "", true};
    Version pv = *spec;
    pv.release.pop_back();
    pv.pre.reset(), pv.post.reset(), pv.dev.reset(), pv.local.clear();
    prefix.version = pv.str();
    return compare(v.public_version(), *spec) >= 0 && prefix.contains(v);
  }
  if (op == "<=") return compare(v.public_version(), *spec) <= 0;
  if (op == ">=") return compare(v.public_version(), *spec) >= 0;
  if (op == "<") {
    if (compare(v, *spec) >= 0) return false;
    // <3.0 excludes 3.0rc1 unless the spec itself is a pre-release.
    if (!spec->is_prerelease() && v.is_prerelease() && compare(base_version(v), base_version(*spec)) == 0) return false;
    return true;
  }
  if (op == ">") {
    if (compare(v, *spec) <= 0) return false;
    // >1.0 excludes 1.0.post1 unless the spec is a post-release, and 1.0+local.
    if (!spec->post && v.post && compare(base_version(v), base_version(*spec)) == 0) return false;
    if (!v.local.empty() && compare(base_version(v), base_version(*spec)) == 0) return false;
    return true;
  }
  return false;
}

std::string Specifier::str() const { return op + version + (wildcard ? ".*" : ""); }

std::optional<SpecifierSet> SpecifierSet::parse(const std::string& text) {
  SpecifierSet set;
  std::string t = trim(text);
  if (t.size() >= 2 && t.front() == '(' && t.back() == ')') t = trim(t.substr(1, t.size() - 2));
  if (t.empty()) return set;
  std::size_t start = 0;
  while (start <= t.size()) {
    auto comma = t.find(',', start);
    std::string clause = trim(t.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    static const std::regex re(R"(^(===|==|!=|<=|>=|~=|<|>)\s*([^\s;,]+)$)");
    std::smatch m;
    if (!std::regex_match(clause, m, re)) return std::nullopt;
    Specifier s{m[1].str(), m[2].str(), false};
    if (s.op != "===") {
      if (s.version.size() > 2 && s.version.compare(s.version.size() - 2, 2, ".*") == 0) {
        if (s.op != "==" && s.op != "!=") return std::nullopt;
        s.wildcard = true;
        s.version.resize(s.version.size() - 2);
      }
      auto v = Version::parse(s.version);
      if (!v) return std::nullopt;
      if (s.op == "~=" && v->release.size() < 2) return std::nullopt;
      if (!v->local.empty() && s.op != "==" && s.op != "!=") return std::nullopt;
    }
    set.clauses.push_back(std::move(s));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return set;
}

bool SpecifierSet::contains(const Version& v, bool allow_prereleases) const {
  if (!allow_prereleases && v.is_prerelease()) {
    bool names_pre = false;
    for (const auto& c : clauses) {
      auto sv = Version::parse(c.version);
      names_pre |= sv && sv->is_prerelease();
    }
    if (!names_pre) return false;
  }
  for (const auto& c : clauses)
    if (!c.contains(v)) return false;
  return true;
}

bool SpecifierSet::contains(const std::string& version, bool allow_prereleases) const {
  auto v = Version::parse(version);
  if (!v) {  // packaging drops LegacyVersion: an invalid version satisfies only ===
    for (const auto& c : clauses)
      if (c.op != "===" || lower(trim(version)) != lower(trim(c.version))) return false;
    return !clauses.empty();
  }
  return contains(*v, allow_prereleases);
}

std::string SpecifierSet::str() const {
  std::string s;
  for (const auto& c : clauses) s += (s.empty() ? "" : ",") + c.str();
  return s;
}

MarkerEnvironment linux_marker_environment(const std::string& full, const std::string& machine) {
  std::string short_version = full;
  auto d1 = full.find('.');
  if (d1 != std::string::npos) {
    auto d2 = full.find('.', d1 + 1);
    short_version = full.substr(0, d2);
  }
  return {{"python_version", short_version},
          {"python_full_version", full},
          {"implementation_version", full},
          {"os_name", "posix"},
          {"sys_platform", "linux"},
          {"platform_system", "Linux"},
          {"platform_machine", machine},
          {"platform_python_implementation", "CPython"},
          {"implementation_name", "cpython"},
          {"platform_release", ""},
          {"platform_version", ""}};
}

namespace {

// A small recursive-descent reader of PEP 508 marker expressions.
class MarkerParser {
 public:
  MarkerParser(const std::string& text, const MarkerEnvironment& env) : s_(text), env_(env) {}

  std::optional<bool> run() {
    auto v = parse_or();
    skip_ws();
    if (!v || pos_ != s_.size()) return std::nullopt;
    return v;
  }

 private:
  void skip_ws() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool keyword(const char* k) {
    skip_ws();
    std::size_t n = std::char_traits<char>::length(k);
    if (s_.compare(pos_, n, k) != 0) return false;
    if (pos_ + n < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_ + n])) || s_[pos_ + n] == '_'))
      return false;
    pos_ += n;
    return true;
  }
  std::optional<bool> parse_or() {
    auto l = parse_and();
    if (!l) return std::nullopt;
    while (keyword("or")) {
      auto r = parse_and();
      if (!r) return std::nullopt;
      l = *l || *r;
    }
    return l;
  }
  std::optional<bool> parse_and() {
    auto l = parse_atom();
    if (!l) return std::nullopt;
    while (keyword("and")) {
      auto r = parse_atom();
      if (!r) return std::nullopt;
      l = *l && *r;
    }
    return l;
  }
  std::optional<bool> parse_atom() {
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == '(') {
      ++pos_;
      auto v = parse_or();
      skip_ws();
      if (!v || pos_ >= s_.size() || s_[pos_] != ')') return std::nullopt;
      ++pos_;
      return v;
    }
    bool lvar = false, rvar = false;
    std::string lname, rname;
    auto l = value(lvar, lname);
    if (!l) return std::nullopt;
    auto op = oper();
    if (!op) return std::nullopt;
    auto r = value(rvar, rname);
    if (!r) return std::nullopt;
    std::string a = *l, b = *r;
    if ((lvar && lname == "extra") || (rvar && rname == "extra")) a = normalize_name(a), b = normalize_name(b);
    return compare_op(*op, a, b);
  }
  std::optional<std::string> value(bool& is_var, std::string& name) {
    skip_ws();
    if (pos_ >= s_.size()) return std::nullopt;
    char q = s_[pos_];
    if (q == '"' || q == '\'') {
      auto end = s_.find(q, pos_ + 1);
      if (end == std::string::npos) return std::nullopt;
      std::string v = s_.substr(pos_ + 1, end - pos_ - 1);
      pos_ = end + 1;
      is_var = false;
      return v;
    }
    std::size_t b = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_' || s_[pos_] == '.'))
      ++pos_;
    name = s_.substr(b, pos_ - b);
    std::replace(name.begin(), name.end(), '.', '_');  // legacy os.name, sys.platform, platform.version
    if (name == "python_implementation") name = "platform_python_implementation";
    auto it = env_.find(name);
    if (it == env_.end()) return std::nullopt;
    is_var = true;
    return it->second;
  }
  std::optional<std::string> oper() {
    skip_ws();
    for (const char* o : {"===", "==", "!=", "<=", ">=", "~=", "<", ">"})
      if (s_.compare(pos_, std::char_traits<char>::length(o), o) == 0) {
        pos_ += std::char_traits<char>::length(o);
        return std::string(o);
      }
    if (keyword("in")) return std::string("in");
    std::size_t save = pos_;
    if (keyword("not") && keyword("in")) return std::string("not in");
    pos_ = save;
    return std::nullopt;
  }
  // packaging's _eval_op: a version comparison when the right side reads as one, else text.
  static bool compare_op(const std::string& op, const std::string& l, const std::string& r) {
    if (op == "in") return r.find(l) != std::string::npos;
    if (op == "not in") return r.find(l) == std::string::npos;
    auto spec = SpecifierSet::parse(op + r);
    auto lv = Version::parse(l);
    if (spec && lv) return spec->contains(*lv, true);
    if (op == "==" || op == "===") return l == r;
    if (op == "!=") return l != r;
    if (op == "<") return l < r;
    if (op == "<=") return l <= r;
    if (op == ">") return l > r;
    if (op == ">=") return l >= r;
    return false;
  }

  const std::string& s_;
  const MarkerEnvironment& env_;
  std::size_t pos_ = 0;
};

}  // namespace

std::optional<bool> evaluate_marker(const std::string& marker, const MarkerEnvironment& env) {
  return MarkerParser(marker, env).run();
}

std::optional<Requirement> Requirement::parse(const std::string& line_in) {
  std::string line = trim(line_in);
  if (auto hash = line.find(" #"); hash != std::string::npos) line = trim(line.substr(0, hash));
  static const std::regex head(R"(^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[([^\]]*)\])?\s*(.*)$)");
  std::smatch m;
  if (line.size() > 4096 || !std::regex_match(line, m, head)) return std::nullopt;
  Requirement r;
  r.name = normalize_name(m[1].str());
  std::string extras = m[2].str();
  std::size_t start = 0;
  while (m[2].matched && start <= extras.size()) {
    auto comma = extras.find(',', start);
    std::string e = trim(extras.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!e.empty()) r.extras.push_back(normalize_name(e));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::string rest = trim(m[3].str());
  std::string spec_text = rest;
  if (!rest.empty() && rest.front() == '@') {
    // "name @ url ; marker": the marker needs a space before ';' (a URL may contain ';').
    auto semi = rest.find(" ;");
    r.url = trim(rest.substr(1, semi == std::string::npos ? std::string::npos : semi - 1));
    if (semi != std::string::npos) r.marker = trim(rest.substr(semi + 2));
    if (r.url.empty()) return std::nullopt;
    return r;
  }
  if (auto semi = rest.find(';'); semi != std::string::npos) {
    r.marker = trim(rest.substr(semi + 1));
    spec_text = trim(rest.substr(0, semi));
    if (r.marker.empty()) return std::nullopt;
  }
  auto set = SpecifierSet::parse(spec_text);
  if (!set) return std::nullopt;
  r.specifiers = *set;
  return r;
}

bool Requirement::applies(const MarkerEnvironment& env, const std::string& extra) const {
  if (marker.empty()) return true;
  MarkerEnvironment e = env;
  e["extra"] = extra;
  return evaluate_marker(marker, e).value_or(true);
}

}  // namespace gpucheck::pep440
