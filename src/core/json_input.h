#pragma once
// JSON that gpucheck did not write (a report from another node, an inventory, a probe's result, a helper's
// or a Python child's answer, a toolkit's version.json) is parsed through here. nlohmann's parser is
// iterative, but copying, comparing and printing a document recurse once per level of nesting: a report of
// 100,000 nested arrays (a 200 KB file) overflowed the stack (SIGSEGV) as soon as a field was copied.
// Nesting deeper than kMaxJsonDepth is therefore refused before parsing, as bad input.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace gpucheck {

/// Deepest nesting of arrays and objects accepted; gpucheck's own documents use fewer than 16 levels.
constexpr std::size_t kMaxJsonDepth = 256;

/// Whether `text` nests arrays and objects deeper than kMaxJsonDepth, counted outside strings. Exact for
/// JSON; a text that is not JSON may be counted wrong and is refused by the parser anyway.
bool json_too_deep(std::string_view text);

/// `text` as JSON; a discarded value (is_discarded()) when it is not JSON, holds a number no C++ type
/// holds, or nests too deep: nlohmann's parse(text, nullptr, false), with the depth check.
nlohmann::json parse_json_or_discarded(std::string_view text);

/// `text` as JSON, or InputError "<what> is not valid JSON (why)".
nlohmann::json parse_json_input(std::string_view text, const std::string& what);

}  // namespace gpucheck
