#pragma once
// OS, kernel, glibc, CPU: read from files under `root` (/etc/os-release, /proc/cpuinfo) and from this
// process (uname, gnu_get_libc_version) when root is "/".
#include <string>

#include "inventory/model.h"

namespace gpucheck::inventory {

System read_system(const std::string& root = "/");

/// Parses os-release text into id / version_id / pretty name.
void parse_os_release(const std::string& text, System& out);
/// Parses /proc/cpuinfo text: model name, logical CPU count, and the ISA flags that matter here.
void parse_cpuinfo(const std::string& text, System& out);

}  // namespace gpucheck::inventory
