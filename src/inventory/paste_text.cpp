#include "inventory/paste_text.h"

#include <algorithm>
#include <cctype>

#include "core/text.h"

namespace gpucheck::inventory::paste_text {

std::string clean(std::string_view raw) {
  std::string s(raw);
  if (!s.empty() && s.back() == '\r') s.pop_back();
  std::size_t b = 0;
  while (b < s.size() && (s[b] == '>' || s[b] == '`' || std::isspace(static_cast<unsigned char>(s[b])))) ++b;
  std::size_t e = s.size();
  while (e > b && (s[e - 1] == '`' || std::isspace(static_cast<unsigned char>(s[e - 1])))) --e;
  return s.substr(b, e - b);
}

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> out;
  for (const auto& l : split(std::string(text), '\n')) out.push_back(clean(l));
  return out;
}

std::string first_word(const std::string& s) {
  auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_first_of(" \t,()", b) - b);
}

std::vector<std::string> words_of(const std::string& line) {
  auto words = split(line, ' ');
  words.erase(std::remove(words.begin(), words.end(), std::string()), words.end());
  return words;
}

bool distribution_name(const std::string& n) {
  return !n.empty() && std::isalnum(static_cast<unsigned char>(n[0])) &&
         std::all_of(n.begin(), n.end(), [](unsigned char c) { return std::isalnum(c) || c == '-' || c == '_' || c == '.'; });
}

std::string normalized(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) {
    return c == '_' || c == '.' ? '-' : static_cast<char>(std::tolower(c));
  });
  return name;
}

bool small_number(const std::string& s, int& out) {
  if (s.empty() || s.size() > 6 || !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); }))
    return false;
  out = std::stoi(s);
  return true;
}

bool is_version(const std::string& s) { return !s.empty() && std::isdigit(static_cast<unsigned char>(s[0])); }

std::string after(const std::string& line, const std::string& key) {
  auto at = line.find(key);
  if (at == std::string::npos) return "";
  return first_word(line.substr(at + key.size()));
}

std::string nvcc_release(const std::string& v) {
  if (auto r = after(v, "release "); is_version(r)) return r;
  if (auto r = after(v, "CUDA "); is_version(r)) return r;
  if (auto at = v.find("cuda_"); at != std::string::npos) {
    std::string r = v.substr(at + 5);
    r = r.substr(0, r.find(".r"));
    if (is_version(r)) return r;
  }
  return "";
}

}  // namespace gpucheck::inventory::paste_text
