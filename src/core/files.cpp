#include "core/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/json_input.h"
#include "core/errors.h"

namespace gpucheck {

void check_input_file(const std::string& path) {
  if (path.empty()) throw InputError("cannot read: the file name is empty");
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw InputError("cannot read " + path + ": " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw InputError("cannot read " + path + ": is a directory");
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
    throw InputError("cannot read " + path + ": is a device, not a file");  // /dev/zero never ends
  if (S_ISSOCK(st.st_mode)) throw InputError("cannot read " + path + ": is a socket, not a file");
}

std::string read_file(const std::string& path, std::size_t max_bytes) {
  check_input_file(path);
  // O_NONBLOCK so opening a FIFO cannot wait for a writer; reads then block as usual, and a FIFO that no
  // process writes to reads as empty.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw InputError("cannot read " + path + ": " + std::strerror(errno));
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  std::string out;
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      throw InputError("cannot read " + path + ": " + std::strerror(e));
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
    if (out.size() > max_bytes) {
      ::close(fd);
      throw InputError("cannot read " + path + ": larger than " + std::to_string(max_bytes >> 20) +
                       " MiB, more than any document gpucheck reads");
    }
  }
  ::close(fd);
  return out;
}

std::string read_proc_text(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string out;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || out.size() > (1u << 20)) break;  // an error mid-read keeps what was read; kernel files are small
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return out;
}

nlohmann::json read_json_file(const std::string& path) {
  return parse_json_input(read_file(path), path);
}

long long json_int(const nlohmann::json& j, const std::string& key, long long fallback, long long lo, long long hi) {
  if (!j.is_object() || !j.contains(key)) return fallback;
  const auto& v = j[key];
  // Compared as JSON (nlohmann compares mixed integer kinds by value) before any conversion.
  if (!v.is_number_integer() || v < lo || v > hi)
    throw InputError(key + " must be a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v.get<long long>();
}

void make_dirs(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) throw InputError("cannot create directory " + path + ": " + ec.message());
}

namespace {

[[noreturn]] void write_error(const std::string& path, int e) {
  throw InputError("cannot write " + path + ": " + std::strerror(e));
}

void write_all(int fd, const std::string& path, const std::string& content) {
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      write_error(path, errno);
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

// A FIFO, terminal, device node or socket (--out /dev/stdout, /dev/null, a pipe): written in place, the
// way a shell's `>` would; never replaced by a regular file. O_NONBLOCK on open so a FIFO without a reader
// is an error instead of a hang.
void write_in_place(const std::string& path, const std::string& content) {
  int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    if (e == ENXIO) throw InputError("cannot write " + path + ": a FIFO with no reader");
    write_error(path, e);
  }
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  try {
    write_all(fd, path, content);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

// The temporary file beside `target`, written and synced; returns its path.
std::string write_temporary(const std::filesystem::path& target, const std::string& shown, const std::string& content) {
  namespace fs = std::filesystem;
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (!dir.empty()) make_dirs(dir.string());
  std::string tmp = (dir / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
  int fd = mkstemp(tmp.data());
  if (fd < 0) write_error(shown, errno);
  fchmod(fd, 0644);
  try {
    write_all(fd, shown, content);
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  if (fsync(fd) != 0 || ::close(fd) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    write_error(shown, e);
  }
  return tmp;
}

}  // namespace

void write_file_atomic(const std::string& path, const std::string& content, bool no_clobber) {
  namespace fs = std::filesystem;
  if (path.empty()) throw InputError("cannot write: the file name is empty");
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;  // follows symlinks: what the name leads to
  if (exists && S_ISDIR(st.st_mode)) throw InputError("cannot write " + path + ": is a directory");
  if (exists && !S_ISREG(st.st_mode)) {
    if (no_clobber) throw InputError("cannot write " + path + ": file exists (not overwritten)");
    return write_in_place(path, content);
  }
  // A symlink to a file: replace the file it points to and keep the link, as `>` would.
  fs::path target(path);
  struct stat lst {};
  if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
    std::error_code ec;
    fs::path resolved = fs::weakly_canonical(target, ec);
    if (ec) throw InputError("cannot write " + path + ": cannot resolve the link: " + ec.message());
    target = resolved;
  }
  std::string tmp = write_temporary(target, path, content);
  if (no_clobber) {
    // link() fails if the target exists, so two writers can never overwrite each other's reports.
    if (::link(tmp.c_str(), target.c_str()) != 0) {
      int e = errno;
      ::unlink(tmp.c_str());
      throw InputError("cannot write " + path + ": " + (e == EEXIST ? "file exists (not overwritten)" : std::strerror(e)));
    }
    ::unlink(tmp.c_str());
    return;
  }
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    write_error(path, e);
  }
}

std::string write_new_file(const std::string& stem, const std::string& extension, const std::string& content) {
  if (stem.empty()) throw InputError("cannot write: the file name is empty");
  std::string tmp = write_temporary(std::filesystem::path(stem + extension), stem + extension, content);
  for (int n = 1; n < 10000; ++n) {
    std::string path = n == 1 ? stem + extension : stem + "-" + std::to_string(n) + extension;
    // link() claims the name atomically: of several writers racing for one name, exactly one wins.
    if (::link(tmp.c_str(), path.c_str()) == 0) {
      ::unlink(tmp.c_str());
      return path;
    }
    if (errno != EEXIST) {
      int e = errno;
      ::unlink(tmp.c_str());
      write_error(path, e);
    }
  }
  ::unlink(tmp.c_str());
  throw InputError("cannot write " + stem + extension + ": 9999 files of that name exist");
}

}  // namespace gpucheck
