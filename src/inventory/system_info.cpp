#include "inventory/system_info.h"

#include <gnu/libc-version.h>
#include <sys/utsname.h>

#include <fstream>
#include <set>
#include <sstream>

#include "core/text.h"

namespace gpucheck::inventory {

namespace {
std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

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

}  // namespace gpucheck::inventory
