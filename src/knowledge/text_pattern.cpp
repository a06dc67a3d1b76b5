#include "knowledge/text_pattern.h"

#include <re2/re2.h>

#include <stdexcept>

namespace gpucheck::knowledge {

TextPattern::TextPattern(const std::string& pattern) {
  RE2::Options options;
  options.set_encoding(RE2::Options::EncodingLatin1);
  options.set_log_errors(false);
  re_ = std::make_unique<const RE2>(pattern, options);
  if (!re_->ok()) throw std::logic_error("bad pattern '" + pattern + "': " + re_->error());
}

TextPattern::~TextPattern() = default;
TextPattern::TextPattern(TextPattern&&) noexcept = default;
TextPattern& TextPattern::operator=(TextPattern&&) noexcept = default;

std::optional<PatternMatch> TextPattern::find(std::string_view text, std::size_t from, bool whole) const {
  const int n = re_->NumberOfCapturingGroups() + 1;
  std::vector<re2::StringPiece> sub(static_cast<std::size_t>(n));
  const re2::StringPiece piece(text.data(), text.size());
  if (!re_->Match(piece, from, text.size(), whole ? RE2::ANCHOR_BOTH : RE2::UNANCHORED, sub.data(), n))
    return std::nullopt;
  PatternMatch m;
  for (const auto& s : sub)
    m.groups.push_back(s.data() ? std::optional<std::string_view>(std::string_view(s.data(), s.size())) : std::nullopt);
  return m;
}

std::optional<PatternMatch> TextPattern::match(std::string_view text) const { return find(text, 0, true); }

std::optional<PatternMatch> TextPattern::search(std::string_view text) const { return find(text, 0, false); }

std::vector<PatternMatch> TextPattern::search_all(std::string_view text) const {
  std::vector<PatternMatch> all;
  std::size_t from = 0;
  while (from <= text.size()) {
    auto m = find(text, from, false);
    if (!m) break;
    const auto& whole = *m->groups[0];
    const auto end = static_cast<std::size_t>(whole.data() - text.data()) + whole.size();
    from = whole.empty() ? end + 1 : end;
    all.push_back(std::move(*m));
  }
  return all;
}

}  // namespace gpucheck::knowledge
