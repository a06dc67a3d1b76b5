#include "knowledge/version.h"

#include <cctype>

#include "core/errors.h"
#include "core/text.h"
#include "knowledge/pep440.h"

namespace gpucheck::knowledge {

std::optional<Version> Version::parse(const std::string& text) {
  std::string t = trim(text);
  if (!t.empty() && (t[0] == 'v' || t[0] == 'V')) t = t.substr(1);
  if (t.empty() || !std::isdigit(static_cast<unsigned char>(t[0]))) return std::nullopt;
  Version v;
  auto plus = t.find('+');
  if (plus != std::string::npos) {
    v.local = t.substr(plus + 1);
    t = t.substr(0, plus);
  }
  std::size_t i = 0;
  while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) {
    int n = 0;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) {
      n = n * 10 + (t[i] - '0');
      if (n > 100000000) return std::nullopt;
      ++i;
    }
    v.parts.push_back(n);
    if (i + 1 < t.size() && t[i] == '.' && std::isdigit(static_cast<unsigned char>(t[i + 1]))) ++i;
    else break;
  }
  v.suffix = t.substr(i);
  return v;
}

std::string Version::major_minor() const { return std::to_string(major()) + "." + std::to_string(minor()); }

int Version::compare(const Version& o) const {
  std::size_t n = std::max(parts.size(), o.parts.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (part(i) != o.part(i)) return part(i) < o.part(i) ? -1 : 1;
  }
  // "0.2.3.post2" > "0.2.3"; pre-releases ("rc1", "a0", ".dev") sort before the release.
  auto rank = [](const std::string& s) {
    if (s.empty()) return 0;
    if (s.find("post") != std::string::npos) return 1;
    return -1;
  };
  int ra = rank(suffix), rb = rank(o.suffix);
  return ra == rb ? 0 : (ra < rb ? -1 : 1);
}

int compare_versions(const std::string& a, const std::string& b) {
  auto va = Version::parse(a).value_or(Version{{0, 0}, "", ""});
  auto vb = Version::parse(b).value_or(Version{{0, 0}, "", ""});
  return va.compare(vb);
}

namespace {

bool clause_holds(const Version& v, const std::string& clause_in) {
  std::string clause = trim(clause_in);
  static const char* ops[] = {"==", "!=", ">=", "<=", ">", "<"};
  for (const char* op : ops) {
    std::string o(op);
    if (!starts_with(clause, o)) continue;
    std::string rhs = trim(clause.substr(o.size()));
    bool wildcard = ends_with(rhs, ".*");
    if (wildcard) rhs = rhs.substr(0, rhs.size() - 2);
    auto w = Version::parse(rhs);
    if (!w) throw InputError("bad version specifier '" + clause + "'");
    if (wildcard) {
      if (o != "==" && o != "!=") throw InputError("'.*' only goes with == or != in '" + clause + "'");
      bool prefix = true;
      for (std::size_t i = 0; i < w->parts.size(); ++i) prefix = prefix && v.part(i) == w->parts[i];
      return o == "==" ? prefix : !prefix;
    }
    int c = v.compare(*w);
    if (o == "==") return c == 0;
    if (o == "!=") return c != 0;
    if (o == ">=") return c >= 0;
    if (o == "<=") return c <= 0;
    if (o == ">") return c > 0;
    return c < 0;
  }
  throw InputError("bad version specifier '" + clause + "' (use ==, !=, >=, <=, > or <)");
}

}  // namespace

bool satisfies(const std::string& version, const std::string& specifiers) {
  // A package's version against a knowledge-base range is PEP 440's question, answered by the one module
  // that decides it (an installed pre-release judged as it is, as pip check does). Only texts PEP 440
  // cannot read (a distribution's "11.4.0-1ubuntu1~22.04") take the numeric comparison below.
  auto pv = pep440::Version::parse(version);
  auto ps = pep440::SpecifierSet::try_parse(specifiers);
  if (pv && ps) return ps->contains(*pv, true);
  auto v = Version::parse(version);
  if (!v) throw InputError("not a version: '" + version + "'");
  for (const auto& clause : split(specifiers, ',')) {
    if (trim(clause).empty()) continue;
    if (!clause_holds(*v, clause)) return false;
  }
  return true;
}

std::string cuda_tag_to_version(const std::string& tag) {
  if (!starts_with(tag, "cu") || tag.size() < 5) return "";
  std::string digits = tag.substr(2);
  for (char c : digits)
    if (!std::isdigit(static_cast<unsigned char>(c))) return "";
  return digits.substr(0, digits.size() - 1) + "." + digits.substr(digits.size() - 1);
}

}  // namespace gpucheck::knowledge
