#include "checks/explain/named_regex.h"

#include <stdexcept>

#include <re2/re2.h>

namespace gpucheck::explain {
namespace {

// `(?<name>` -> `(?P<name>` outside character classes and escapes; everything else is left to RE2.
std::string translate_group_syntax(const std::string& pattern) {
  std::string out;
  out.reserve(pattern.size() + 8);
  bool in_class = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '\\') {
      out.push_back(c);
      if (i + 1 < pattern.size()) out.push_back(pattern[++i]);
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      out.push_back(c);
      continue;
    }
    if (c == '[') {
      in_class = true;
      out.push_back(c);
      if (i + 1 < pattern.size() && pattern[i + 1] == '^') out.push_back(pattern[++i]);
      if (i + 1 < pattern.size() && pattern[i + 1] == ']') out.push_back(pattern[++i]);
      continue;
    }
    if (pattern.compare(i, 3, "(?<") == 0 && i + 3 < pattern.size() && pattern[i + 3] != '=' &&
        pattern[i + 3] != '!') {
      out += "(?P<";
      i += 2;
      continue;
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace

NamedRegex compile_named_regex(const std::string& pattern, bool icase) {
  NamedRegex out;
  out.source = pattern;
  RE2::Options opt;
  opt.set_log_errors(false);
  opt.set_case_sensitive(!icase);
  auto re = std::make_shared<const RE2>(translate_group_syntax(pattern), opt);
  if (!re->ok()) throw std::invalid_argument(re->error());
  out.group_names.assign(static_cast<std::size_t>(re->NumberOfCapturingGroups()), "");
  for (const auto& [index, name] : re->CapturingGroupNames())
    out.group_names[static_cast<std::size_t>(index - 1)] = name;
  out.re_ = std::move(re);
  return out;
}

bool NamedRegex::search(std::string_view text, bool anchored, RegexMatch* match) const {
  if (!re_) return false;
  const int groups = match ? static_cast<int>(group_names.size()) + 1 : 0;
  std::vector<re2::StringPiece> sub(static_cast<std::size_t>(groups));
  re2::StringPiece input(text.data(), text.size());
  if (!re_->Match(input, 0, text.size(), anchored ? RE2::ANCHOR_START : RE2::UNANCHORED, sub.data(), groups))
    return false;
  if (!match) return true;
  match->begin = static_cast<std::size_t>(sub[0].data() - text.data());
  match->end = match->begin + sub[0].size();
  match->groups.assign(group_names.size(), {});
  match->matched.assign(group_names.size(), false);
  for (std::size_t g = 0; g < group_names.size(); ++g) {
    const auto& piece = sub[g + 1];
    if (piece.data() == nullptr) continue;
    match->groups[g] = std::string_view(piece.data(), piece.size());
    match->matched[g] = true;
  }
  return true;
}

std::map<std::string, std::string> NamedRegex::captures(const RegexMatch& match) const {
  std::map<std::string, std::string> caps;
  for (std::size_t g = 0; g < group_names.size() && g < match.groups.size(); ++g)
    if (!group_names[g].empty() && match.matched[g]) caps.emplace(group_names[g], std::string(match.groups[g]));
  return caps;
}

}  // namespace gpucheck::explain
