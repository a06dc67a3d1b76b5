#pragma once
// Turns one raw log line into the text signatures match against: what a human reading the paste would see.
// Pasted logs carry terminal and tool decoration that breaks naive matching: ANSI colour codes, CRLF and
// progress-bar carriage returns, tabs, pip's boxed subprocess output (`│`, `╰─>`), shell prompts, CI
// timestamps and bytes that are not UTF-8.
#include <string>
#include <string_view>

namespace gpucheck::explain {

struct NormalizeStats {
  std::size_t invalid_utf8_bytes = 0;  // replaced by '?'
  std::size_t control_bytes = 0;       // NUL and other C0 controls (not \t \r \x1b), replaced by ' '
};

/// The displayed/matched form of `raw` (no trailing newline): escapes removed, box drawing and prompt
/// prefixes stripped, tabs as spaces, invalid UTF-8 replaced, leading/trailing blanks trimmed.
/// Never fails; adds what it replaced to `stats`.
std::string normalize_line(std::string_view raw, NormalizeStats& stats);

}  // namespace gpucheck::explain
