#pragma once
// Text from a report made inert in Markdown (the format pasted into GitHub/GitLab issues): a value read from
// a package's METADATA, a probe, a collect_env paste or a fleet host name must not become a heading, an
// image that fetches a URL, a link, raw HTML, an @-mention or the end of a code fence (reliability-3 N7).
#include <string>
#include <vector>

namespace gpucheck::render::markdown {

/// One line of inline text: newlines become spaces; Markdown punctuation is backslash-escaped; < > & become
/// entities (never raw HTML); '@' is followed by U+2060 WORD JOINER, so no mention notifies anybody.
std::string text(const std::string& s);

/// text() for a table cell (also '|' escaped).
std::string cell(const std::string& s);

/// An inline code span that no backtick inside can end early; newlines become spaces, so a value can never
/// end the paragraph and start a block of its own.
std::string code(const std::string& s);

/// A fenced code block (`info` after the opening fence, e.g. "sh"), every line indented by `indent`, with
/// a fence longer than any run of backticks inside, so no line can close it.
std::string fence(const std::vector<std::string>& lines, const std::string& info = "", const std::string& indent = "");

}  // namespace gpucheck::render::markdown
