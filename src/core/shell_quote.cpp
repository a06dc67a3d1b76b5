#include "core/shell_quote.h"

#include <cctype>

namespace gpucheck {

std::string shell_quote(const std::string& s) {
  bool plain = !s.empty();
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c))) continue;
    if (std::string("_./:@%+=,-").find(c) != std::string::npos) continue;
    plain = false;
    break;
  }
  if (plain) return s;
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

}  // namespace gpucheck
