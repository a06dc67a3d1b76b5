#pragma once
// What every fuzz target asserts besides "no crash, no sanitizer report": bad input is an InputError whose
// message is one line (the CLI prints it as `gpucheck: <message>` and exits 2), never another exception
// (which main() turns into "internal error", exit 3).
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace fuzzcheck {

inline void one_line(const std::string& message) {
  if (message.find('\n') != std::string::npos) std::abort();
}

/// `data` as the content of a file, for a reader that takes a path (one memfd per process, rewritten per
/// input): "/proc/self/fd/N".
inline std::string as_file(const std::uint8_t* data, std::size_t size) {
  static const int fd = memfd_create("fuzz-input", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, 0) != 0) std::abort();
  for (std::size_t done = 0; done < size;) {
    ssize_t n = pwrite(fd, data + done, size - done, static_cast<off_t>(done));
    if (n <= 0) std::abort();
    done += static_cast<std::size_t>(n);
  }
  return "/proc/self/fd/" + std::to_string(fd);
}

}  // namespace fuzzcheck
