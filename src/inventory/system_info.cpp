#include "inventory/system_info.h"

#include <gnu/libc-version.h>
#include <sys/utsname.h>

#include <fstream>
#include <set>
#include <sstream>

#include "core/regular_file.h"
#include "core/text.h"
#include "platform/environment.h"

namespace gpucheck::inventory {

namespace {
// Regular files only (a device or FIFO where os-release should be, under --root, is never opened).
std::string slurp(const std::string& path) { return read_regular_file(path, std::size_t{16} << 20); }

std::string unquote(std::string v) {
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front())
    v = v.substr(1, v.size() - 2);
  return v;
}

// The ISA extensions the CPU offload kernels and torch wheels care about.
const std::set<std::string> kInterestingFlags = {"sse4_2", "avx", "avx2", "fma", "f16c", "avx512f",
                                                 "avx512bw", "avx512vl", "avx512_bf16", "avx512_fp16",
                                                 "amx_bf16", "amx_tile"};
}  // namespace

void parse_os_release(const std::string& text, System& out) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = trim(line.substr(0, eq)), value = unquote(trim(line.substr(eq + 1)));
    if (key == "ID") out.os_id = value;
    else if (key == "VERSION_ID") out.os_version_id = value;
    else if (key == "PRETTY_NAME") out.os_pretty = value;
  }
}

void parse_cpuinfo(const std::string& text, System& out) {
  std::istringstream in(text);
  std::string line;
  int processors = 0;
  bool have_flags = false;
  while (std::getline(in, line)) {
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
    if (key == "processor") ++processors;
    else if (key == "model name" && out.cpu_model.empty()) out.cpu_model = value;
    else if (key == "flags" && !have_flags) {
      have_flags = true;
      std::istringstream flags(value);
      std::string f;
      while (flags >> f)
        if (kInterestingFlags.count(f)) out.cpu_flags.push_back(f);
    }
  }
  out.cpu_count = processors;
}

System read_system(const std::string& root) {
  System s;
  std::string prefix = root == "/" ? "" : root;
  std::string os = slurp(prefix + "/etc/os-release");
  if (os.empty()) os = slurp(prefix + "/usr/lib/os-release");
  parse_os_release(os, s);
  if (root == "/") {
    parse_cpuinfo(slurp("/proc/cpuinfo"), s);
    struct utsname u {};
    if (uname(&u) == 0) s.kernel = std::string(u.release);
    s.glibc = gnu_get_libc_version();
  }
  return s;
}

std::string newest_glibcxx(const std::string& bytes) {
  const std::string tag = "GLIBCXX_3.4";
  std::vector<int> best;
  std::string best_text;
  for (auto pos = bytes.find(tag); pos != std::string::npos; pos = bytes.find(tag, pos + 1)) {
    std::size_t end = pos + 8;  // after "GLIBCXX_"
    while (end < bytes.size() && (std::isdigit(static_cast<unsigned char>(bytes[end])) || bytes[end] == '.')) ++end;
    std::string v = bytes.substr(pos + 8, end - pos - 8);
    if (v.empty() || v.back() == '.') continue;
    std::vector<int> nums;
    for (const auto& p : split(v, '.')) nums.push_back(std::atoi(p.c_str()));
    if (nums > best) best = nums, best_text = v;
  }
  return best_text;
}

namespace {
// The libstdc++ this process (live) or the image's loader (--root) uses.
std::string libstdcxx_in_use(const platform::RootFs& fs, const platform::LdCache& ld_cache) {
  if (fs.live()) {
    std::istringstream maps(slurp("/proc/self/maps"));
    std::string line;
    while (std::getline(maps, line)) {
      auto slash = line.find('/');
      if (slash != std::string::npos && line.find("libstdc++.so") != std::string::npos) return line.substr(slash);
    }
  }
  return ld_cache.lookup("libstdc++.so.6").value_or("");
}
}  // namespace

System read_system(const platform::RootFs& fs, const std::map<std::string, std::string>& env, const platform::LdCache& ld_cache) {
  System s = read_system(fs.root());
  s.libstdcxx_path = libstdcxx_in_use(fs, ld_cache);
  if (!s.libstdcxx_path.empty()) s.glibcxx_max = newest_glibcxx(fs.read(s.libstdcxx_path, 8u << 20));
  if (!fs.live()) {
    // glibc's banner: "GNU C Library (Debian GLIBC 2.36-9) stable release version 2.36."
    if (auto libc_path = ld_cache.lookup("libc.so.6")) {
      std::string libc = fs.read(*libc_path, 4u << 20);
      auto pos = libc.find("release version ");
      if (pos != std::string::npos) {
        std::size_t end = pos + 16;
        while (end < libc.size() && (std::isdigit(static_cast<unsigned char>(libc[end])) || libc[end] == '.')) ++end;
        s.glibc = libc.substr(pos + 16, end - pos - 16);
        if (!s.glibc.empty() && s.glibc.back() == '.') s.glibc.pop_back();
      }
    }
  }
  for (const auto& [k, v] : env)
    if (platform::is_allowed_variable(k)) s.environment[k] = platform::recorded_value(k, v);
  return s;
}

}  // namespace gpucheck::inventory
