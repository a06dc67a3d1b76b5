#pragma once
// XML 1.0 allows only #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]: one U+FFFE
// in a GPU name made the whole JUnit file unreadable to Jenkins and GitLab (reliability-3 N6).
#include <string>

namespace gpucheck::render {

/// `s` (UTF-8, as terminal_safe leaves it) with every character XML 1.0 forbids replaced by U+FFFD: C0
/// controls but tab, newline and carriage return, U+FFFE, U+FFFF, surrogates and malformed bytes.
std::string xml_allowed_chars(const std::string& s);

}  // namespace gpucheck::render
