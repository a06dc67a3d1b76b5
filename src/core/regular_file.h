#pragma once
// Opening files gpucheck finds in trees other users write (a venv, a conda env, a toolkit, a --root tree):
// only regular files are ever opened. As root, opening a device has effects (/dev/watchdog arms the reboot
// timer, a tape device rewinds), and opening a FIFO waits for a writer: a FIFO named like a library or a
// version file hung `env` and `abi` forever.
#include <sys/types.h>
#include <unistd.h>

#include <cstddef>
#include <string>

namespace gpucheck {

/// A file descriptor closed when it goes out of scope.
class UniqueFd {
 public:
  explicit UniqueFd(int fd = -1) : fd_(fd) {}
  ~UniqueFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }

 private:
  int fd_;
};

/// Opens `path` (symbolic links followed) for reading only when it is a regular file, and opens nothing
/// else: gpucheck runs as root over trees other users write (a venv, a conda env, a toolkit), where a file
/// it looks for may be a link to a device, whose open has effects as root (/dev/watchdog arms the reboot
/// timer, a tape device rewinds), or a FIFO, whose open waits for a writer. The path is taken with O_PATH
/// (no device's open runs), checked with fstat, then reopened through /proc/self/fd, so nothing can be
/// swapped in between. Returns the descriptor (O_CLOEXEC), or -1 with errno (EINVAL: not a regular file).
int open_regular_file(const std::string& path);

/// Reads until `n` bytes or the end of the file (EINTR retried): the count, less than `n` only at the end;
/// -1 on an error.
ssize_t read_fully(int fd, char* buf, std::size_t n);

/// At most `limit` bytes of the regular file `path` (open_regular_file); "" when it is no regular file or
/// cannot be read.
std::string read_regular_file(const std::string& path, std::size_t limit);

}  // namespace gpucheck
