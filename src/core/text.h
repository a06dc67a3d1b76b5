#pragma once
// Small text helpers shared by commands and renderers.
#include <string>
#include <vector>

namespace gpucheck {

std::vector<std::string> split(const std::string& s, char sep);
std::string join(const std::vector<std::string>& parts, const std::string& sep);
std::string trim(const std::string& s);
bool starts_with(const std::string& s, const std::string& prefix);
bool ends_with(const std::string& s, const std::string& suffix);
/// Levenshtein distance, for "did you mean".
std::size_t edit_distance(const std::string& a, const std::string& b);
/// The candidate closest to `word` if it is close enough to be a plausible typo, else "".
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);
/// Last `n` lines of `text`.
std::string last_lines(const std::string& text, std::size_t n);
/// ISO-8601 UTC time "2026-11-29T19:31:51Z" of now.
std::string utc_now_iso();
/// Compact UTC time for file names: "20261129T193151Z".
std::string utc_now_compact();

}  // namespace gpucheck
