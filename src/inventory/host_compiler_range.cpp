#include "inventory/host_compiler_range.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include "core/text.h"
#include "inventory/pp_condition.h"
#include "platform/root_fs.h"

namespace gpucheck::inventory {

namespace {

// Comments out, continuation lines joined: what the preprocessor sees line by line.
std::vector<std::string> logical_lines(const std::string& text) {
  std::string code;
  code.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "/*") == 0) {
      auto end = text.find("*/", i + 2);
      for (std::size_t k = i; k < (end == std::string::npos ? text.size() : end); ++k)
        if (text[k] == '\n') code += '\n';
      code += ' ';
      if (end == std::string::npos) break;
      i = end + 1;
    } else if (text.compare(i, 2, "//") == 0) {
      while (i < text.size() && text[i] != '\n') ++i;
      if (i < text.size()) code += '\n';
    } else if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;  // line continuation
    } else {
      code += text[i];
    }
  }
  std::vector<std::string> lines;
  std::istringstream in(code);
  for (std::string l; std::getline(in, l);) lines.push_back(trim(l));
  return lines;
}

struct Guard {
  std::string family;     // gcc, clang
  std::string condition;  // the #if that leads to the #error
};

// The innermost #if/#elif condition in force at each `#error -- unsupported GNU/clang version`.
std::vector<Guard> find_guards(const std::string& text) {
  std::vector<Guard> guards;
  std::vector<std::string> conditions;  // "" where the condition is unknown (#else)
  for (const auto& line : logical_lines(text)) {
    if (line.empty() || line[0] != '#') continue;
    std::string rest = trim(line.substr(1));
    std::size_t n = 0;
    while (n < rest.size() && std::isalpha(static_cast<unsigned char>(rest[n]))) ++n;
    std::string directive = rest.substr(0, n), arg = trim(rest.substr(n));
    if (directive == "if") conditions.push_back(arg);
    else if (directive == "ifdef") conditions.push_back("defined(" + arg + ")");
    else if (directive == "ifndef") conditions.push_back("!defined(" + arg + ")");
    else if (directive == "elif" && !conditions.empty()) conditions.back() = arg;
    else if (directive == "else" && !conditions.empty()) conditions.back() = "";
    else if (directive == "endif" && !conditions.empty()) conditions.pop_back();
    else if (directive == "error" && !conditions.empty() && !conditions.back().empty()) {
      // Only the generic guards: "unsupported HOS clang" / "Grace clang" are other platforms' compilers.
      std::string family = arg.find("unsupported GNU version") != std::string::npos     ? "gcc"
                           : arg.find("unsupported clang version") != std::string::npos ? "clang"
                                                                                        : "";
      bool seen = std::any_of(guards.begin(), guards.end(), [&](const Guard& g) { return g.family == family; });
      if (!family.empty() && !seen) guards.push_back({family, conditions.back()});
    }
  }
  return guards;
}

constexpr int kMaxMajor = 99, kMaxMinor = 15;

std::string bound_text(int major, int minor, bool needs_minor) {
  return needs_minor ? std::to_string(major) + "." + std::to_string(minor) : std::to_string(major);
}

// Evaluates the guard for every major.minor; fills the bounds it enforces. False when it cannot be read
// or is no version range (it never fires, or always does).
bool evaluate_guard(const Guard& g, const std::string& source, HostCompilerRange& r) {
  bool rejected[kMaxMajor + 1][kMaxMinor + 1] = {};
  bool any_accepted = false, any_rejected = false;
  auto condition = PpCondition::parse(g.condition);
  if (!condition) return false;
  bool gcc = g.family == "gcc";
  // clang also defines __GNUC__ 4.2 (its GNU compatibility level).
  std::map<std::string, long long> m = gcc ? std::map<std::string, long long>{{"__GNUC_PATCHLEVEL__", 0}}
                                           : std::map<std::string, long long>{{"__clang__", 1}, {"__GNUC__", 4},
                                                                              {"__GNUC_MINOR__", 2}};
  long long& major_macro = m[gcc ? "__GNUC__" : "__clang_major__"];
  long long& minor_macro = m[gcc ? "__GNUC_MINOR__" : "__clang_minor__"];
  auto rejects = [&](int major, int minor) -> std::optional<bool> {
    major_macro = major, minor_macro = minor;
    auto v = condition->eval(m);
    if (!v) return std::nullopt;
    (*v ? any_rejected : any_accepted) = true;
    return *v != 0;
  };
  for (int major = 1; major <= kMaxMajor; ++major) {
    // Guards compare the minor only at one major (3.3, 4.9): where the lowest and highest minors agree,
    // the whole major does.
    auto lo = rejects(major, 0), hi = rejects(major, kMaxMinor);
    if (!lo || !hi) return false;
    for (int minor = 0; minor <= kMaxMinor; ++minor) {
      if (*lo == *hi || minor == 0 || minor == kMaxMinor) {
        rejected[major][minor] = minor == kMaxMinor ? *hi : *lo;
        continue;
      }
      auto v = rejects(major, minor);
      if (!v) return false;
      rejected[major][minor] = *v;
    }
  }
  if (!any_accepted || !any_rejected) return false;
  auto whole_major_accepted = [&](int major) {
    for (int minor = 0; minor <= kMaxMinor; ++minor)
      if (rejected[major][minor]) return false;
    return true;
  };
  r.compiler = g.family;
  if (rejected[1][0]) {
    for (int major = 1; major <= kMaxMajor && r.min.empty(); ++major)
      for (int minor = 0; minor <= kMaxMinor; ++minor)
        if (!rejected[major][minor]) {
          r.min = bound_text(major, minor, !whole_major_accepted(major));
          break;
        }
    r.min_source = source, r.min_enforced = true;
  }
  if (rejected[kMaxMajor][kMaxMinor]) {
    for (int major = kMaxMajor; major >= 1 && r.max.empty(); --major)
      for (int minor = kMaxMinor; minor >= 0; --minor)
        if (!rejected[major][minor]) {
          r.max = bound_text(major, minor, !whole_major_accepted(major));
          break;
        }
    r.max_source = source, r.max_enforced = true;
  }
  return true;
}

}  // namespace

std::vector<HostCompilerRange> parse_host_config(const std::string& text, const std::string& source) {
  std::vector<HostCompilerRange> out;
  for (const auto& g : find_guards(text)) {
    HostCompilerRange r;
    if (evaluate_guard(g, source, r)) out.push_back(r);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.compiler > b.compiler; });  // gcc, clang
  return out;
}

std::vector<HostCompilerRange> complete_host_compiler_ranges(std::vector<HostCompilerRange> enforced,
                                                             const std::optional<knowledge::HostCompilerPolicy>& policy) {
  std::vector<HostCompilerRange> out;
  const std::string source =
      policy ? "data/compat/host_compilers.json (CUDA " + policy->cuda + ": " + policy->source + ")" : "";
  for (const char* family : {"gcc", "clang"}) {
    HostCompilerRange r;
    r.compiler = family;
    for (const auto& e : enforced)
      if (e.compiler == family) r = e;
    if (policy) {
      bool gcc = r.compiler == "gcc";
      if (r.min.empty())
        r.min = std::to_string(gcc ? policy->gcc_min : policy->clang_min), r.min_source = source;
      if (r.max.empty())
        r.max = std::to_string(gcc ? policy->gcc_max : policy->clang_max), r.max_source = source;
    }
    if (!r.min.empty() || !r.max.empty()) out.push_back(r);
  }
  return out;
}

}  // namespace gpucheck::inventory
