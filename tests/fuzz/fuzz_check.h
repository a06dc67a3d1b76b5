#pragma once
// What every fuzz target asserts besides "no crash, no sanitizer report": bad input is an InputError whose
// message is one line (the CLI prints it as `gpucheck: <message>` and exits 2), never another exception
// (which main() turns into "internal error", exit 3).
#include <cstdlib>
#include <string>

namespace fuzzcheck {

inline void one_line(const std::string& message) {
  if (message.find('\n') != std::string::npos) std::abort();
}

}  // namespace fuzzcheck
