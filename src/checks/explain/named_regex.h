#pragma once
// A signature's regex: RE2 (linear time in the text, whatever the pattern and the input; no backtracking),
// with named groups. Signatures write `(?P<name>...)`; the older `(?<name>...)` is accepted and translated.
// RE2's syntax is the subset without lookaround and backreferences (https://github.com/google/re2/wiki/Syntax).
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace gpucheck::explain {

/// Where one search matched: [begin, end) of the whole match, and each group's text ("" when it did not
/// take part), parallel to NamedRegex::group_names.
struct RegexMatch {
  std::size_t begin = 0, end = 0;
  std::vector<std::string_view> groups;
  std::vector<bool> matched;
};

class NamedRegex {
 public:
  std::string source;                    // as written in the JSON
  std::vector<std::string> group_names;  // group_names[k] names capture group k+1 ("" = unnamed)

  /// The first match in `text` (at its start only when `anchored`); false when none.
  bool search(std::string_view text, bool anchored, RegexMatch* match = nullptr) const;
  /// The named groups of a match that took part, by name.
  std::map<std::string, std::string> captures(const RegexMatch& match) const;

 private:
  friend NamedRegex compile_named_regex(const std::string& pattern, bool icase);
  std::shared_ptr<const re2::RE2> re_;  // shared: signatures are copied, the compiled program is immutable
};

/// Compiles `pattern` (`(?<name>` translated to `(?P<name>`). Throws std::invalid_argument with RE2's reason
/// on an invalid pattern, including the constructs RE2 refuses by design (lookaround, backreferences).
NamedRegex compile_named_regex(const std::string& pattern, bool icase);

}  // namespace gpucheck::explain
