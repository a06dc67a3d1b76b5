#include "render/xml_chars.h"

namespace gpucheck::render {

std::string xml_allowed_chars(const std::string& s) {
  static const char kReplacement[] = "\xEF\xBF\xBD";
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
      if (b0 < 0x20 && b0 != '\t' && b0 != '\n' && b0 != '\r') out += kReplacement;
      else out += static_cast<char>(b0);
      ++i;
      continue;
    }
    const int len = b0 >= 0xC2 && b0 <= 0xDF ? 2 : b0 >= 0xE0 && b0 <= 0xEF ? 3 : b0 >= 0xF0 && b0 <= 0xF4 ? 4 : 0;
    char32_t cp = len == 2 ? b0 & 0x1F : len == 3 ? b0 & 0x0F : b0 & 0x07;
    bool ok = len > 0 && i + len <= s.size();
    for (int k = 1; ok && k < len; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) ok = false;
      cp = (cp << 6) | (b & 0x3F);
    }
    if (ok && ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
               (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF))
      ok = false;
    if (ok) out.append(s, i, static_cast<std::size_t>(len));
    else out += kReplacement;
    i += ok ? static_cast<std::size_t>(len) : 1;
  }
  return out;
}

}  // namespace gpucheck::render
