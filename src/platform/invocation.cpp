#include "platform/invocation.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "core/files.h"
#include "core/shell_quote.h"
#include "core/text.h"

namespace gpucheck::platform {
namespace {

namespace fs = std::filesystem;

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// PREFIX/bin/gpucheck installed from a wheel file: PREFIX/lib/python3.*/site-packages/gpucheck-*.dist-info/
// direct_url.json (PEP 610) names it as file:///....whl. "" when not so, or the wheel is gone.
std::string wheel_installed_from(const std::string& self_exe) {
  std::error_code ec;
  const fs::path prefix = fs::path(self_exe).parent_path().parent_path();
  for (const auto& lib : fs::directory_iterator(prefix / "lib", ec)) {
    if (!starts_with(lib.path().filename().string(), "python3")) continue;
    std::error_code ec_sp;
    for (const auto& info : fs::directory_iterator(lib.path() / "site-packages", ec_sp)) {
      const std::string name = info.path().filename().string();
      if (!starts_with(name, "gpucheck-") || !ends_with(name, ".dist-info")) continue;
      try {
        const auto doc = read_json_file((info.path() / "direct_url.json").string());
        const std::string url = doc.value("url", "");
        if (!starts_with(url, "file://") || !ends_with(url, ".whl")) return "";
        const std::string file = url.substr(7);
        // A path with percent-escapes or shell-special bytes is not printed back as a word to run.
        if (file.find('%') != std::string::npos || !fs::is_regular_file(file, ec)) return "";
        return file;
      } catch (const std::exception&) {
        return "";
      }
    }
  }
  return "";
}

}  // namespace

std::string command_prefix(const Invocation& in) {
  const std::string self = shell_quote(in.self_exe);
  if (in.self_exe.empty()) return in.argv0.empty() ? "gpucheck" : shell_quote(in.argv0);
  if (in.under_uv) {
    const std::string wheel = wheel_installed_from(in.self_exe);
    return wheel.empty() ? self : "uvx --from " + shell_quote(wheel) + " gpucheck";
  }
  if (in.argv0.find('/') != std::string::npos) return shell_quote(in.argv0);
  const std::string name = in.argv0.empty() ? "gpucheck" : in.argv0;
  for (const auto& dir : split(in.path, ':')) {
    if (dir.empty() || dir.front() != '/') continue;
    const std::string candidate = dir + "/" + name;
    if (access(candidate.c_str(), X_OK) != 0) continue;
    return same_file(candidate, in.self_exe) ? shell_quote(name) : self;  // the first on PATH is what runs
  }
  return self;
}

Invocation this_invocation(const std::string& argv0) {
  Invocation in;
  in.argv0 = argv0;
  std::error_code ec;
  in.self_exe = fs::read_symlink("/proc/self/exe", ec).string();
  if (const char* p = std::getenv("PATH")) in.path = p;
  const char* uv = std::getenv("UV");
  in.under_uv = uv && *uv;
  return in;
}

}  // namespace gpucheck::platform
