#include "render/markdown_escape.h"

#include <algorithm>
#include <cctype>

namespace gpucheck::render::markdown {

std::string text(const std::string& s) {
  std::string out;
  out.reserve(s.size() + s.size() / 4);
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == ':' && s.compare(i + 1, 2, "//") == 0) {  // https://x would become a link (GFM autolink)
      out += "\\:";
      continue;
    }
    // An underscore inside a word (sm_90, host_info) can neither open nor close emphasis: kept readable.
    auto alnum = [](char x) { return std::isalnum(static_cast<unsigned char>(x)) != 0; };
    if (c == '_' && i > 0 && i + 1 < s.size() && alnum(s[i - 1]) && alnum(s[i + 1])) {
      out += c;
      continue;
    }
    switch (c) {
      case '\n': case '\r': case '\t': out += ' '; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '@': out += "@\u2060"; break;
      case '\\': case '`': case '*': case '_': case '[': case ']': case '#': case '!': case '~': case '|':
        out += '\\';
        out += c;
        break;
      default: out += c;
    }
  }
  return out;
}

std::string cell(const std::string& s) { return text(s); }  // text() already escapes '|'

std::string code(const std::string& s) {
  std::string one_line = s;
  std::replace(one_line.begin(), one_line.end(), '\n', ' ');
  std::replace(one_line.begin(), one_line.end(), '\r', ' ');
  std::string ticks = "`";
  while (one_line.find(ticks) != std::string::npos) ticks += '`';
  const bool pad = one_line.empty() || one_line.front() == '`' || one_line.back() == '`';
  return ticks + (pad ? " " + one_line + " " : one_line) + ticks;
}

std::string fence(const std::vector<std::string>& lines, const std::string& info, const std::string& indent) {
  std::size_t longest = 0;
  for (const auto& l : lines) {
    std::size_t run = 0;
    for (char c : l) {
      run = c == '`' ? run + 1 : 0;
      longest = std::max(longest, run);
    }
  }
  const std::string ticks(std::max<std::size_t>(3, longest + 1), '`');
  std::string out = indent + ticks + info + "\n";
  for (const auto& l : lines) {
    std::string one = l;
    std::replace(one.begin(), one.end(), '\r', ' ');
    out += indent + one + "\n";
  }
  return out + indent + ticks + "\n";
}

}  // namespace gpucheck::render::markdown
