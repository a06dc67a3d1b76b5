#pragma once
// OS, kernel, glibc, CPU: read from files under `root` (/etc/os-release, /proc/cpuinfo) and from this
// process (uname, gnu_get_libc_version) when root is "/".
#include <map>
#include <string>

#include "inventory/model.h"
#include "platform/ld_cache.h"
#include "platform/root_fs.h"

namespace gpucheck::inventory {

System read_system(const std::string& root = "/");

/// read_system plus what needs the root-aware file view: the libstdc++ in use and its newest GLIBCXX_
/// version, glibc of an image (from libc.so.6's banner), and the allow-listed environment variables.
/// `ld_cache` is the inspected system's loader cache (read_loader_cache).
System read_system(const platform::RootFs& fs, const std::map<std::string, std::string>& env, const platform::LdCache& ld_cache);

/// Newest "GLIBCXX_3.4.N" version string found in a libstdc++ image ("3.4.30"); "" when none.
std::string newest_glibcxx(const std::string& bytes);

/// Parses os-release text into id / version_id / pretty name.
void parse_os_release(const std::string& text, System& out);
/// Parses /proc/cpuinfo text: model name, logical CPU count, and the ISA flags that matter here.
void parse_cpuinfo(const std::string& text, System& out);

}  // namespace gpucheck::inventory
