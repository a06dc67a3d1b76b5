#include "render/html_escape.h"

#include <cstdint>
#include <vector>

namespace gpucheck::render::html {
namespace {

constexpr char32_t kReplacement = 0xFFFD;

// Decodes `s` into code points; each malformed sequence (overlong, surrogate, beyond U+10FFFF, cut short)
// costs one byte and yields U+FFFD, so no byte of hostile input is lost silently or misread.
std::vector<char32_t> decode_utf8(const std::string& s) {
  std::vector<char32_t> out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
      out.push_back(b0);
      ++i;
      continue;
    }
    int len = b0 >= 0xC2 && b0 <= 0xDF ? 2 : b0 >= 0xE0 && b0 <= 0xEF ? 3 : b0 >= 0xF0 && b0 <= 0xF4 ? 4 : 0;
    char32_t cp = len == 2 ? b0 & 0x1F : len == 3 ? b0 & 0x0F : b0 & 0x07;
    bool ok = len > 0 && i + len <= s.size();
    for (int k = 1; ok && k < len; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) ok = false;
      cp = (cp << 6) | (b & 0x3F);
    }
    if (ok && ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
               (cp >= 0xD800 && cp <= 0xDFFF)))
      ok = false;
    out.push_back(ok ? cp : kReplacement);
    i += ok ? len : 1;
  }
  return out;
}

void append_utf8(char32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

void append_escaped(char32_t cp, std::string& out) {
  switch (cp) {
    case '&': out += "&amp;"; return;
    case '<': out += "&lt;"; return;
    case '>': out += "&gt;"; return;
    case '"': out += "&quot;"; return;
    case '\'': out += "&#39;"; return;
    case '\n': case '\t': out += static_cast<char>(cp); return;
    default: break;
  }
  if (cp < 0x20) cp = 0x2400 + cp;                               // ␛ for ESC, ␀ for NUL: seen, not obeyed
  else if (cp == 0x7F) cp = 0x2421;                              // ␡
  else if ((cp >= 0x80 && cp <= 0x9F) || (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE)
    cp = kReplacement;                                           // C1 (CSI, ...) and non-characters: not XML
  append_utf8(cp, out);
}

}  // namespace

std::string escape(const std::string& s) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (char32_t cp : decode_utf8(s)) append_escaped(cp, out);
  return out;
}

std::string escape_shortened(const std::string& s, std::size_t max_chars) {
  if (max_chars == 0) return "";
  std::vector<char32_t> cps = decode_utf8(s);
  std::string out;
  const bool cut = cps.size() > max_chars;
  for (std::size_t i = 0; i < cps.size() && i < (cut ? max_chars - 1 : max_chars); ++i) append_escaped(cps[i], out);
  if (cut) out += "\u2026";
  return out;
}

}  // namespace gpucheck::render::html
