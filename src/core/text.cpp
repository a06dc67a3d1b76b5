#include "core/text.h"

#include <algorithm>
#include <chrono>
#include <ctime>

namespace gpucheck {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string json_string(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::optional<std::string> nonempty(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return s;
}

std::string fit_middle(const std::string& s, std::size_t width) {
  if (s.size() <= width) return s;
  if (width < 5) return s.substr(0, width);
  const std::size_t head = (width - 2) / 2, tail = width - 2 - head;
  return s.substr(0, head) + ".." + s.substr(s.size() - tail);
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (auto& c : candidates) {
    std::size_t d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

std::string last_lines(const std::string& text, std::size_t n) {
  std::size_t end = text.size();
  while (end > 0 && text[end - 1] == '\n') --end;
  std::size_t pos = end;
  for (std::size_t count = 0; pos > 0; --pos) {
    if (text[pos - 1] == '\n' && ++count == n) break;
  }
  return text.substr(pos, end - pos);
}

namespace {
std::string format_now(const char* fmt) {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, fmt, &tm);
  return buf;
}
}  // namespace

std::string utc_now_iso() { return format_now("%Y-%m-%dT%H:%M:%SZ"); }
std::string utc_now_compact() { return format_now("%Y%m%dT%H%M%SZ"); }

std::string json_text(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

namespace {

// Length of the valid UTF-8 sequence starting at s[i] (1-4), or 0 when it is not one (overlong forms,
// surrogates and code points above U+10FFFF are not valid).
std::size_t utf8_length(const std::string& s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  if (n == 2 && c < 0xC2) return 0;                                  // overlong
  if (n == 3 && c == 0xE0 && b(i + 1) < 0xA0) return 0;              // overlong
  if (n == 3 && c == 0xED && b(i + 1) >= 0xA0) return 0;             // surrogate
  if (n == 4 && c == 0xF0 && b(i + 1) < 0x90) return 0;              // overlong
  if (n == 4 && (c > 0xF4 || (c == 0xF4 && b(i + 1) >= 0x90))) return 0;  // above U+10FFFF
  return n;
}

void append_hex(std::string& out, unsigned char c) {
  static const char* digits = "0123456789abcdef";
  out += "\\x";
  out += digits[c >> 4];
  out += digits[c & 0xF];
}

}  // namespace

std::string on_one_line(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else out += c;
  }
  return out;
}

std::string terminal_safe(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const std::size_t n = utf8_length(s, i);
    if (n == 0) {
      append_hex(out, c);
      ++i;
    } else if (n == 1) {
      if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) append_hex(out, c);
      else out += static_cast<char>(c);
      ++i;
    } else if (n == 2 && c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0) {
      append_hex(out, c);  // C1 control (U+0080-U+009F), e.g. the one-byte CSI
      append_hex(out, static_cast<unsigned char>(s[i + 1]));
      i += 2;
    } else {
      out.append(s, i, n);
      i += n;
    }
  }
  return out;
}

// Paths as text (no file system access): "/a" + "b" is "/a/b"; the parent of "x" is ".".
std::string path_join(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  bool sa = a.back() == '/', sb = b.front() == '/';
  if (sa && sb) return a + b.substr(1);
  if (sa || sb) return a + b;
  return a + "/" + b;
}

std::string parent_dir(const std::string& path) {
  auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_name(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace gpucheck
