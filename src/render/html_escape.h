#pragma once
// Text from a report (written on another node, possibly by anything) made inert in HTML and SVG: markup
// characters become entities, bytes that are not UTF-8 become U+FFFD, control characters (ESC, NUL, C1)
// become visible symbols. The result is also valid XML 1.0 character data, so the page parses as XHTML.
#include <string>

namespace gpucheck::render::html {

/// Element text and attribute values (double- or single-quoted) alike: & < > " ' escaped.
/// Keeps '\n' and '\t' (meaningful in <pre>); '\r' and the other C0 controls become U+2400 + c
/// (ESC -> U+241B), DEL U+2421, C1 controls, non-characters and malformed UTF-8 U+FFFD.
std::string escape(const std::string& s);

/// escape(), but at most `max_chars` characters of `s`, with "…" when cut (chart labels).
std::string escape_shortened(const std::string& s, std::size_t max_chars);

}  // namespace gpucheck::render::html
