#include "checks/abi/loader_help.h"

#include <sys/auxv.h>
#include <sys/stat.h>

#include <cstdlib>
#include <sstream>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/files.h"
#include "core/json_input.h"
#include "core/subprocess.h"
#include "core/text.h"

namespace gpucheck::abi {
namespace {

constexpr int kFormat = 1;

// The CPU words glibc derives its hwcaps from. Leaf 1's EBX and EAX are left out: they hold the APIC id of
// the core this ran on and the stepping, which change nothing the loader picks.
std::string cpu_words() {
  std::ostringstream o;
  o << std::hex;
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d)) o << "1:" << c << ':' << d << ';';
  const bool osxsave = (c & bit_OSXSAVE) != 0;
  for (unsigned sub : {0u, 1u})
    if (__get_cpuid_count(7, sub, &a, &b, &c, &d)) o << "7." << sub << ':' << a << ':' << b << ':' << c << ':' << d << ';';
  if (__get_cpuid(0x80000001u, &a, &b, &c, &d)) o << "e1:" << c << ':' << d << ';';
  if (osxsave) {  // XCR0: the register states the kernel saves (AVX and AVX-512 are usable only with them)
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    o << "xcr0:" << hi << ':' << lo << ';';
  }
#endif
  o << "hwcap:" << getauxval(AT_HWCAP) << ':' << getauxval(AT_HWCAP2) << ';';
  return o.str();
}

// A remembered name becomes a path component ("glibc-hwcaps/" + name): only plain names are taken.
bool plain_name(const std::string& s) {
  return !s.empty() && s != "." && s != ".." && s.size() < 64 &&
         s.find_first_of("/\n\r\t ") == std::string::npos;
}

bool read_list(const nlohmann::json& j, const char* key, std::vector<std::string>& out, bool dirs) {
  if (!j.contains(key) || !j.at(key).is_array()) return false;
  for (const auto& v : j.at(key)) {
    if (!v.is_string()) return false;
    std::string s = v.get<std::string>();
    if (dirs ? (s.empty() || s[0] != '/' || s.find('\n') != std::string::npos || s.size() > 4096) : !plain_name(s))
      return false;
    out.push_back(std::move(s));
  }
  return true;
}

bool read_cache(const std::string& file, const std::string& key, LoaderHelp& h) {
  struct stat st {};
  if (file.empty() || ::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  std::string text;
  try {
    text = read_file(file, std::size_t{1} << 20);
  } catch (const InputError&) {
    return false;
  }
  auto j = parse_json_or_discarded(text);
  if (j.is_discarded() || !j.is_object() || j.value("format", 0) != kFormat || j.value("key", std::string()) != key)
    return false;
  LoaderHelp r;
  if (!j.contains("platform") || !j.at("platform").is_string()) return false;
  r.platform = j.at("platform").get<std::string>();
  if (!r.platform.empty() && !plain_name(r.platform)) return false;
  if (!read_list(j, "system_dirs", r.system_dirs, true) || r.system_dirs.empty() ||
      !read_list(j, "glibc_hwcaps", r.glibc_hwcaps, false) || !read_list(j, "legacy", r.legacy, false))
    return false;
  r.from_cache = true;
  h = std::move(r);
  return true;
}

void write_cache(const std::string& file, const std::string& key, const LoaderHelp& h) {
  nlohmann::json j = {{"format", kFormat},          {"key", key},
                      {"system_dirs", h.system_dirs}, {"platform", h.platform},
                      {"glibc_hwcaps", h.glibc_hwcaps}, {"legacy", h.legacy}};
  try {
    auto slash = file.find_last_of('/');
    if (slash != std::string::npos && slash > 0) make_dirs(file.substr(0, slash));
    write_file_atomic(file, json_text(j, 1) + "\n");
  } catch (const InputError&) {
    // read-only home, full disk: the answer is right, the next run asks again
  }
}

}  // namespace

LoaderHelp parse_loader_help(const std::string& text) {
  LoaderHelp h;
  enum { kOther, kHwcaps, kLegacy } section = kOther;
  for (const auto& raw : split(text, '\n')) {
    std::string line = trim(raw);
    if (starts_with(line, "Subdirectories of glibc-hwcaps")) section = kHwcaps;
    else if (starts_with(line, "Legacy HWCAP subdirectories")) section = kLegacy;
    else if (line.empty() || line.back() == ':') section = kOther;
    auto paren = line.find(" (");
    if (paren == std::string::npos) continue;
    std::string name = line.substr(0, paren);
    if (line.find("(system search path)") != std::string::npos) h.system_dirs.push_back(name);
    if (line.find("(AT_PLATFORM") != std::string::npos) h.platform = name;
    bool searched = line.find("searched") != std::string::npos;
    if (section == kHwcaps && searched) h.glibc_hwcaps.push_back(name);
    if (section == kLegacy && searched) h.legacy.push_back(name);
  }
  return h;
}

std::string loader_help_key(const std::string& interpreter) {
  std::string id = file_identity(interpreter);
  if (id.empty()) return "";
  const char* platform = reinterpret_cast<const char*>(getauxval(AT_PLATFORM));
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  return interpreter + "|" + id + "|" + cpu_words() + "|" + (platform ? platform : "") + "|" + (tunables ? tunables : "");
}

LoaderHelp query_loader_help(const std::string& interpreter, const std::string& cache_file) {
  const std::string key = cache_file.empty() ? "" : loader_help_key(interpreter);
  LoaderHelp h;
  if (!key.empty() && read_cache(cache_file, key, h)) return h;
  SubprocessOptions opt;
  opt.timeout = std::chrono::seconds(5);
  auto r = run_subprocess({interpreter, "--help"}, opt);
  if (!r.ok()) return h;
  h = parse_loader_help(r.out);
  if (!key.empty() && !h.system_dirs.empty()) write_cache(cache_file, key, h);
  return h;
}

std::string default_loader_help_cache() {
  std::string dir = cache_dir();
  return dir.empty() ? "" : dir + "/loader-help.json";
}

}  // namespace gpucheck::abi
