#include "checks/explain/log_environment.h"

#include <algorithm>
#include <cctype>

namespace gpucheck::explain {
namespace {

bool path_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' || c == '.' ||
         c == '_' || c == '-' || c == '+' || c == '~' || c == '@';
}

/// The absolute path that ends just before `at` in `log` ("" when the text before is not one).
std::string path_ending_at(const std::string& log, std::size_t at) {
  std::size_t start = at;
  while (start > 0 && path_char(log[start - 1])) --start;
  std::string path = log.substr(start, at - start);
  return !path.empty() && path.front() == '/' ? path : "";
}

}  // namespace

std::vector<std::string> python_prefixes_named_in(const std::string& log) {
  std::vector<std::pair<std::size_t, std::string>> found;  // (position, prefix)
  // ".../lib/python3.11/site-packages" and ".../bin/python", "/bin/python3", "/bin/python3.11".
  for (const std::string marker : {"/lib/python", "/bin/python"}) {
    for (std::size_t p = log.find(marker); p != std::string::npos; p = log.find(marker, p + 1)) {
      std::size_t after = p + marker.size();
      if (marker == "/lib/python") {  // a version, then "/site-packages" or "/dist-packages"
        std::size_t v = after;
        while (v < log.size() && (std::isdigit(static_cast<unsigned char>(log[v])) || log[v] == '.')) ++v;
        if (v == after || (log.compare(v, 14, "/site-packages") != 0 && log.compare(v, 14, "/dist-packages") != 0))
          continue;
      } else {  // bin/python, bin/python3, bin/python3.11, then the end of the path
        std::size_t v = after;
        while (v < log.size() && (std::isdigit(static_cast<unsigned char>(log[v])) || log[v] == '.')) ++v;
        if (v < log.size() && path_char(log[v]) && log[v] != '.') continue;
      }
      std::string prefix = path_ending_at(log, p);
      if (prefix.empty() || prefix == "/usr" || prefix == "/usr/local" || prefix == "/") continue;
      found.emplace_back(p, prefix);
    }
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (const auto& [at, prefix] : found)
    if (std::find(out.begin(), out.end(), prefix) == out.end()) out.push_back(prefix);
  return out;
}

}  // namespace gpucheck::explain
