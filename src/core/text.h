#pragma once
// Small text helpers shared by commands and renderers.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpucheck {

std::vector<std::string> split(const std::string& s, char sep);
std::string join(const std::vector<std::string>& parts, const std::string& sep);
std::string trim(const std::string& s);
bool starts_with(const std::string& s, const std::string& prefix);
bool ends_with(const std::string& s, const std::string& suffix);
/// Whether `v` holds `s`.
bool contains(const std::vector<std::string>& v, const std::string& s);
/// `s`, or nothing when it is empty.
std::optional<std::string> nonempty(const std::string& s);
/// `s` cut to `width` columns, keeping its head and tail joined by ".." ("BM_Offload..1048576").
std::string fit_middle(const std::string& s, std::size_t width);
/// Levenshtein distance, for "did you mean".
std::size_t edit_distance(const std::string& a, const std::string& b);
/// The candidate closest to `word` if it is close enough to be a plausible typo, else "".
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);
/// Last `n` lines of `text`.
std::string last_lines(const std::string& text, std::size_t n);
/// The JSON text of `j` (compact with indent < 0). Bytes that are not UTF-8 (a DT_NEEDED entry, a probe's
/// output, an environment value) become U+FFFD instead of throwing, so a document is always written.
std::string json_text(const nlohmann::json& j, int indent = -1);
/// `j[key]` when it is a string, else "".
std::string json_string(const nlohmann::json& j, const char* key);

/// `s` made safe to print on a terminal: control bytes (ESC, CR, BEL, ... but not newline and tab), DEL,
/// C1 controls and bytes that are not UTF-8 are shown as \xHH, so text read from files or probes can
/// never move the cursor, retitle the window or hide lines.
std::string terminal_safe(const std::string& s);

/// `s` on one line: newline and CR shown as \n and \r (nothing else changed). The CLI prints an InputError
/// as one line, so outside text inside one (a JSON key, a probe id, a file name) goes through this.
std::string on_one_line(const std::string& s);

/// ISO-8601 UTC time "2026-11-29T19:31:51Z" of now.
std::string utc_now_iso();
/// Compact UTC time for file names: "20261129T193151Z".
std::string utc_now_compact();

/// Paths as text, never touching the file system: one "/" between the parts, "." as the parent of a bare
/// name, "/" as the parent of "/x".
std::string path_join(const std::string& a, const std::string& b);
std::string parent_dir(const std::string& path);
std::string base_name(const std::string& path);

}  // namespace gpucheck
