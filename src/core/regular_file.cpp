#include "core/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>

namespace gpucheck {

int open_regular_file(const std::string& path) {
  const int pfd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (pfd < 0) return -1;
  struct stat st {};
  if (::fstat(pfd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(pfd);
    errno = EINVAL;
    return -1;
  }
  const std::string self = "/proc/self/fd/" + std::to_string(pfd);
  int fd = ::open(self.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0 && errno == ENOENT) {
    // No /proc (a bare chroot): open the path again and accept it only as the same regular file.
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    struct stat again {};
    if (fd >= 0 && (::fstat(fd, &again) != 0 || again.st_dev != st.st_dev || again.st_ino != st.st_ino)) {
      ::close(fd);
      fd = -1;
      errno = EINVAL;
    }
  }
  const int e = errno;
  ::close(pfd);
  errno = e;
  return fd;
}

ssize_t read_fully(int fd, char* buf, std::size_t n) {
  std::size_t got = 0;
  while (got < n) {
    ssize_t r = ::read(fd, buf + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  return static_cast<ssize_t>(got);
}

std::string read_regular_file(const std::string& path, std::size_t limit) {
  const UniqueFd fd(open_regular_file(path));
  if (!fd.valid()) return "";
  std::string out;
  char buf[1 << 16];
  while (out.size() < limit) {
    ssize_t n = read_fully(fd.get(), buf, std::min(sizeof buf, limit - out.size()));
    if (n > 0) out.append(buf, static_cast<std::size_t>(n));
    if (n < static_cast<ssize_t>(sizeof buf)) break;  // the end, an error, or the limit reached
  }
  return out;
}

}  // namespace gpucheck
