#pragma once
// Regular expressions over text gpucheck did not write (a torch/version.py, a toolkit's version.txt, a
// Requires-Dist line, a compiler's banner): RE2 over bytes, linear in time and constant in stack on any
// input. std::regex is not used on such text: libstdc++ recurses once per character a `[^']*` or `\S*`
// consumes, and a 32 KB line of a file in a venv was enough to overflow the stack (SIGSEGV, the whole
// command lost). This layer is the lowest that links RE2 (probes link none of it).
//
//   static const TextPattern re(R"(__version__[\t ]*=[\t ]*'([^']*)')");
//   if (auto m = re.search(text)) version = m->str(1);
//
// Grammar: RE2's (https://github.com/google/re2/wiki/Syntax), bytes as Latin-1 (invalid UTF-8 is just bytes).
// Note RE2's \s is [\t\n\f\r ] (no \v): write [[:space:]] for the whitespace std::regex's \s meant
// ([\t\n\v\f\r ]). `.` matches \r but not \n.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace gpucheck::knowledge {

/// One match: group(0) the whole, group(i) the i-th capture; an unmatched group is nullopt.
struct PatternMatch {
  std::vector<std::optional<std::string_view>> groups;

  bool matched(std::size_t i) const { return i < groups.size() && groups[i].has_value(); }
  /// The group's text, "" when it did not take part in the match.
  std::string str(std::size_t i) const { return matched(i) ? std::string(*groups[i]) : std::string(); }
};

class TextPattern {
 public:
  /// Compiles `pattern`; a pattern RE2 rejects is a bug in gpucheck: std::logic_error.
  explicit TextPattern(const std::string& pattern);
  ~TextPattern();
  TextPattern(TextPattern&&) noexcept;
  TextPattern& operator=(TextPattern&&) noexcept;

  /// The match of all of `text` (std::regex_match), or nullopt. The views point into `text`.
  std::optional<PatternMatch> match(std::string_view text) const;
  /// The leftmost match in `text` (std::regex_search), or nullopt.
  std::optional<PatternMatch> search(std::string_view text) const;
  /// Every match, left to right, none overlapping (std::sregex_iterator); an empty match moves on a byte.
  std::vector<PatternMatch> search_all(std::string_view text) const;

 private:
  std::optional<PatternMatch> find(std::string_view text, std::size_t from, bool whole) const;
  std::unique_ptr<const re2::RE2> re_;
};

}  // namespace gpucheck::knowledge
