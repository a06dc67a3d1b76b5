#include "render/wrap.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace gpucheck::render {
namespace {

// `s` without its ANSI escape sequences (CSI "ESC [ ... final").
std::string strip_escapes(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
      i += 2;
      while (i < s.size() && !(s[i] >= 0x40 && s[i] <= 0x7e)) ++i;
      continue;
    }
    out += s[i];
  }
  return out;
}

struct Word {
  std::size_t gap;   // spaces before it
  std::string text;  // may hold escape sequences
  std::size_t width;
};

// Scanned by hand, not with std::regex: compiling the two patterns was a tenth of the instructions of a
// whole `gpucheck abi` run (issue 21). \S is what std::regex's "C" locale calls not space.
bool is_space_char(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }
bool is_ascii_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

// The length of /^ *(\d{1,2}\.|[-*]) (?=\S)/ at the start of `s` ("1. ", "- "), 0 when none.
std::size_t list_item_prefix(const std::string& s) {
  std::size_t i = s.find_first_not_of(' ');
  if (i == std::string::npos) return 0;
  std::size_t j = i;
  if (s[j] == '-' || s[j] == '*') {
    ++j;
  } else {
    while (j < s.size() && j - i < 2 && s[j] >= '0' && s[j] <= '9') ++j;
    if (j == i || j >= s.size() || s[j] != '.') return 0;
    ++j;
  }
  if (j + 1 >= s.size() || s[j] != ' ' || is_space_char(s[j + 1])) return 0;
  return j + 1;
}

// The length of /^ *[A-Za-z][A-Za-z ,'()-]{0,20}: (?=\S)/ ("Fix: ", "Next step: "), 0 when none. The
// class has no ':', so the first character outside it must be the colon.
std::size_t label_prefix(const std::string& s) {
  std::size_t i = s.find_first_not_of(' ');
  if (i == std::string::npos || !is_ascii_letter(s[i])) return 0;
  auto in_class = [](char c) {
    return is_ascii_letter(c) || c == ' ' || c == ',' || c == '\'' || c == '(' || c == ')' || c == '-';
  };
  std::size_t p = i + 1;
  while (p < s.size() && p - (i + 1) < 20 && in_class(s[p])) ++p;
  if (p + 2 >= s.size() || s[p] != ':' || s[p + 1] != ' ' || is_space_char(s[p + 2])) return 0;
  return p + 2;
}

// The column a continuation of `plain` (no escapes) starts at.
std::size_t hanging_indent(const std::string& plain, std::size_t indent, std::size_t width) {
  const std::size_t limit = width > 20 ? width - 20 : width / 2;
  // A list item ("1. ", "- ", "* "): its text continues under the text, not under the marker.
  if (std::size_t n = list_item_prefix(plain); n && n <= width / 2) return n;
  std::size_t bar = plain.find(" | ");
  if (bar != std::string::npos && bar + 3 <= width / 2) return bar + 3;
  if (std::size_t n = label_prefix(plain); n && n <= width / 2) return n;
  std::size_t best = 0;
  for (std::size_t i = indent; i + 2 < plain.size(); ++i)
    if (plain[i] != ' ' && plain[i + 1] == ' ' && plain[i + 2] == ' ') {
      std::size_t c = plain.find_first_not_of(' ', i + 1);
      if (c == std::string::npos) break;
      if (display_width(plain.substr(0, c)) <= limit) best = display_width(plain.substr(0, c));
    }
  if (best > indent) return best;
  return indent + 2 <= limit ? indent + 2 : indent;
}

std::string wrap_line(const std::string& line, std::size_t width) {
  if (display_width(line) <= width) return line;
  const std::size_t lead = line.find_first_not_of(' ');
  if (lead == std::string::npos || line.compare(lead, 2, "$ ") == 0) return line;
  const std::string plain = strip_escapes(line);
  std::size_t hang = hanging_indent(plain, plain.find_first_not_of(' '), width);

  std::vector<Word> words;
  for (std::size_t i = lead; i < line.size();) {
    std::size_t start = line.find_first_not_of(' ', i);
    if (start == std::string::npos) break;
    std::size_t end = line.find(' ', start);
    if (end == std::string::npos) end = line.size();
    std::string text = line.substr(start, end - start);
    words.push_back({start - i, text, display_width(text)});
    i = end;
  }
  // A leading marker ("-", "1.", "|") stays with the word it introduces.
  if (words.size() > 1 && words[0].width <= 3 && strip_escapes(words[0].text).find_first_of(
                                                       "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == std::string::npos) {
    words[1].text = words[0].text + std::string(words[1].gap, ' ') + words[1].text;
    words[1].width += words[0].width + words[1].gap;
    words[1].gap = 0;
    words.erase(words.begin());
  }

  std::string out = line.substr(0, lead), current;
  std::size_t column = display_width(out);
  bool has_word = false;
  for (const auto& w : words) {
    if (has_word && column + w.gap + w.width > width) {
      out += current + "\n";
      // A word too long for the hanging indent goes further left rather than past the edge.
      // (and stays there: text that hops between two indents reads as two things).
      if (hang + w.width > width) hang = std::min(hang, plain.find_first_not_of(' ') + 2);
      current = std::string(hang, ' ');
      column = hang;
      has_word = false;
    }
    if (has_word) current += std::string(w.gap, ' '), column += w.gap;
    current += w.text;
    column += w.width;
    has_word = true;
  }
  return out + current;
}

}  // namespace

std::size_t display_width(const std::string& s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
      i += 2;
      while (i < s.size() && !(s[i] >= 0x40 && s[i] <= 0x7e)) ++i;
      continue;
    }
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) ++n;
  }
  return n;
}

std::string wrap_lines(const std::string& text, int width) {
  const std::size_t w = width < 20 ? 20 : static_cast<std::size_t>(width);
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    std::string line = text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    out += wrap_line(line, w);
    if (nl == std::string::npos) break;
    out += '\n';
    start = nl + 1;
  }
  return out;
}

std::string join_prose_lines(const std::string& text) {
  std::string out;
  bool joinable = false;  // the previous line is prose at column 0 that a next line may continue
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    const std::string_view line(text.data() + start, nl - start);
    const bool prose = !line.empty() && line.front() != ' ' && line.front() != '\t';
    if (start > 0) out += joinable && prose ? ' ' : '\n';
    out += line;
    joinable = prose && line.back() != ':';
    start = nl + 1;
  }
  return out;
}

}  // namespace gpucheck::render
