#pragma once
// Quoting for the shell lines gpucheck prints (fixes, next steps): a value read from the machine (a path, a
// version) becomes one word that a POSIX shell does not expand.
#include <string>

namespace gpucheck {

/// Single-quotes `s` for POSIX shells when it holds anything but [A-Za-z0-9_./:@%+=,-].
std::string shell_quote(const std::string& s);

}  // namespace gpucheck
