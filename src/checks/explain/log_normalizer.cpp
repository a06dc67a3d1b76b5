#include "checks/explain/log_normalizer.h"

#include <cctype>

namespace gpucheck::explain {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// Removes CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \) and two-byte escapes.
void strip_escape(std::string_view s, std::size_t& i) {
  // s[i] == '\x1b'
  if (i + 1 >= s.size()) { i = s.size(); return; }
  char k = s[i + 1];
  if (k == '[') {
    std::size_t j = i + 2;
    while (j < s.size() && !(static_cast<unsigned char>(s[j]) >= 0x40 && static_cast<unsigned char>(s[j]) <= 0x7e)) ++j;
    i = j < s.size() ? j + 1 : s.size();
  } else if (k == ']') {
    std::size_t j = i + 2;
    while (j < s.size() && s[j] != '\a' && !(s[j] == '\x1b' && j + 1 < s.size() && s[j + 1] == '\\')) ++j;
    i = j >= s.size() ? s.size() : (s[j] == '\a' ? j + 1 : j + 2);
  } else {
    i += 2;
  }
}

// Length of a valid UTF-8 sequence starting at s[i], 0 when invalid or truncated.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  auto b = static_cast<unsigned char>(s[i]);
  std::size_t n = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b <= 0xdf ? 2 : 0;
  if (n == 0 || b > 0xf4 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return 0;
  return n;
}

// pip (rich) draws subprocess output in a box: "│ exit code: 1", "╰─> [6 lines of output]".
// Box-drawing characters are U+2500..U+257F: E2 94 80 .. E2 95 BF.
bool box_char_at(const std::string& s, std::size_t i) {
  return i + 2 < s.size() && static_cast<unsigned char>(s[i]) == 0xe2 &&
         (static_cast<unsigned char>(s[i + 1]) == 0x94 || static_cast<unsigned char>(s[i + 1]) == 0x95);
}

std::size_t skip_blanks(const std::string& s, std::size_t i) {
  while (i < s.size() && is_blank(s[i])) ++i;
  return i;
}

// Strips the decoration at the start of a line: box drawing + '>', shell prompts, CI timestamps.
std::size_t decoration_end(const std::string& s) {
  std::size_t i = skip_blanks(s, 0);
  // GitHub Actions / ISO timestamps: 2023-05-09T12:34:56.1234567Z
  if (s.size() >= i + 20 && std::isdigit(static_cast<unsigned char>(s[i])) && s[i + 4] == '-' && s[i + 10] == 'T') {
    std::size_t j = i + 10;
    while (j < s.size() && !is_blank(s[j])) ++j;
    if (j > i + 18 && s[j - 1] == 'Z') i = skip_blanks(s, j);
  }
  for (int round = 0; round < 3; ++round) {
    std::size_t before = i;
    while (box_char_at(s, i)) i += 3;
    if (i != before && i < s.size() && s[i] == '>') ++i;  // "╰─>"
    i = skip_blanks(s, i);
    // Python REPL and shell prompts: ">>> ", "... ", "$ ", "# ", "> ", "(env) user@host:~/dir$ ".
    if (s.compare(i, 4, ">>> ") == 0 || s.compare(i, 4, "... ") == 0) i += 4;
    else if ((s.compare(i, 2, "$ ") == 0 || s.compare(i, 2, "> ") == 0)) i += 2;
    else {
      std::size_t j = i;
      if (j < s.size() && s[j] == '(') {  // conda/venv name
        std::size_t close = s.find(") ", j);
        if (close != std::string::npos && close - j < 64) j = skip_blanks(s, close + 1);
      }
      // user@host:path$ or user@host:path#
      std::size_t at = s.find('@', j);
      if (at != std::string::npos && at > j && at - j < 40) {
        std::size_t colon = s.find(':', at);
        std::size_t end = colon == std::string::npos ? colon : s.find_first_of("$#", colon);
        bool plain = true;
        for (std::size_t k = j; k < at && plain; ++k) plain = !is_blank(s[k]);
        if (plain && end != std::string::npos && end - at < 200 && end + 1 < s.size() && s[end + 1] == ' ')
          i = skip_blanks(s, end + 1);
      }
    }
    if (i == before) break;
  }
  return i;
}

}  // namespace

std::string normalize_line(std::string_view raw, NormalizeStats& stats) {
  // A carriage return inside a line is a progress bar redrawing itself: the text after the last one is
  // what the terminal showed (a trailing CR from CRLF leaves that text intact).
  while (!raw.empty() && (raw.back() == '\r' || raw.back() == '\n')) raw.remove_suffix(1);
  if (auto cr = raw.rfind('\r'); cr != std::string_view::npos) {
    std::string_view tail = raw.substr(cr + 1);
    raw = tail;
  }

  std::string out;
  out.reserve(raw.size());
  bool plain = true;
  for (char c : raw) {
    auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b >= 0x7f) { plain = false; break; }
  }
  if (plain) {
    out.assign(raw.data(), raw.size());
  } else {
    for (std::size_t i = 0; i < raw.size();) {
      auto b = static_cast<unsigned char>(raw[i]);
      if (b == 0x1b) { strip_escape(raw, i); continue; }
      if (b == '\t') { out.push_back(' '); ++i; continue; }
      if (b < 0x20 || b == 0x7f) { out.push_back(' '); ++stats.control_bytes; ++i; continue; }
      if (b < 0x80) { out.push_back(static_cast<char>(b)); ++i; continue; }
      std::size_t n = utf8_length(raw, i);
      if (n == 0) { out.push_back('?'); ++stats.invalid_utf8_bytes; ++i; continue; }
      out.append(raw.data() + i, n);
      i += n;
    }
  }
  std::size_t start = decoration_end(out);
  std::size_t end = out.size();
  while (end > start && is_blank(out[end - 1])) --end;
  // Box characters on the right edge of rich tracebacks ("... │").
  while (end >= start + 3 && box_char_at(out, end - 3)) {
    end -= 3;
    while (end > start && is_blank(out[end - 1])) --end;
  }
  out.erase(end);
  out.erase(0, start);
  return out;
}

}  // namespace gpucheck::explain
