#include "core/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <sstream>
#include <streambuf>

#include "core/file_writer.h"
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

void check_stream_input(const std::string& path) {
  check_input_file(path);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISFIFO(st.st_mode)) return;
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw InputError("cannot read " + path + ": " + std::strerror(errno));
  char target[64] = {0};
  const std::string self = "/proc/self/fd/" + std::to_string(fd);
  ssize_t n = ::readlink(self.c_str(), target, sizeof target - 1);
  ::close(fd);
  // The kernel names an anonymous pipe "pipe:[inode]"; a named FIFO by its path.
  if (n > 0 && std::string(target, static_cast<std::size_t>(n)).rfind("pipe:", 0) == 0) return;
  throw InputError("cannot read " + path + ": is a FIFO, whose writer may never come (pipe the log in: CMD 2>&1 | gpucheck explain -)");
}

namespace {
std::string size_limit_text(std::size_t max_bytes) {
  return max_bytes >= (std::size_t{1} << 20) ? std::to_string(max_bytes >> 20) + " MiB" : std::to_string(max_bytes) + " bytes";
}
}  // namespace

std::string read_file(const std::string& path, std::size_t max_bytes) {
  check_input_file(path);
  // O_NONBLOCK so opening a FIFO cannot wait for a writer; reads then block as usual, and a FIFO that no
  // process writes to reads as empty.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw InputError("cannot read " + path + ": " + std::strerror(errno));
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  struct stat st {};
  // A regular file over the limit is refused from its size, before a byte is read.
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && static_cast<unsigned long long>(st.st_size) > max_bytes) {
    ::close(fd);
    throw InputError("cannot read " + path + ": larger than " + size_limit_text(max_bytes) +
                     ", more than any document gpucheck reads");
  }
  std::string out;
  if (S_ISREG(st.st_mode)) out.reserve(static_cast<std::size_t>(st.st_size));
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
      throw InputError("cannot read " + path + ": larger than " + size_limit_text(max_bytes) +
                       ", more than any document gpucheck reads");
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

std::string file_identity(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";
  std::ostringstream o;
  o << st.st_dev << ':' << st.st_ino << ':' << st.st_size << ':' << st.st_mtim.tv_sec << '.' << st.st_mtim.tv_nsec << ':'
    << st.st_ctim.tv_sec << '.' << st.st_ctim.tv_nsec;
  return o.str();
}

std::string cache_dir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x == '/') return std::string(x) + "/gpucheck";
  if (const char* h = std::getenv("HOME"); h && *h == '/') return std::string(h) + "/.cache/gpucheck";
  return "";
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

// An ostream onto a file descriptor, 64 KiB at a time, so a renderer writes a large report straight into
// the file instead of into a string first. The first write error is kept and ends the output.
class FdBuf : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd) { setp(buf_, buf_ + sizeof buf_); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!flush_buffer()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n < epptr() - pptr()) {
      std::memcpy(pptr(), s, static_cast<std::size_t>(n));
      pbump(static_cast<int>(n));
      return n;
    }
    return flush_buffer() && write_raw(s, static_cast<std::size_t>(n)) ? n : 0;
  }
  int sync() override { return flush_buffer() ? 0 : -1; }

 private:
  bool write_raw(const char* p, std::size_t left) {
    while (left > 0 && error_ == 0) {
      ssize_t n = ::write(fd_, p, left);
      if (n < 0) {
        if (errno != EINTR) error_ = errno;
        continue;
      }
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    return error_ == 0;
  }
  bool flush_buffer() {
    const bool ok = write_raw(pbase(), static_cast<std::size_t>(pptr() - pbase()));
    setp(buf_, buf_ + sizeof buf_);
    return ok;
  }

  int fd_;
  int error_ = 0;
  char buf_[1 << 16];
};

void write_all(int fd, const std::string& path, const FileWriter& write) {
  FdBuf buf(fd);
  std::ostream out(&buf);
  write(out);
  out.flush();
  if (buf.error() != 0) write_error(path, buf.error());
  if (!out) throw InputError("cannot write " + path + ": the output stream failed");
}

FileWriter text_writer(const std::string& content) {
  return [&content](std::ostream& out) { out.write(content.data(), static_cast<std::streamsize>(content.size())); };
}

// A FIFO, terminal, device node or socket (--out /dev/stdout, /dev/null, a pipe), or a symlink: written in
// place, the way a shell's `>` would; never replaced by a regular file. O_NONBLOCK on open so a FIFO without a reader
// is an error instead of a hang.
void write_in_place(const std::string& path, const FileWriter& content, bool create = false) {
  // `create`: a symlink, opened as `>` opens it (O_CREAT|O_TRUNC, mode 0666 less the umask).
  const int how = create ? O_CREAT | O_TRUNC : 0;
  int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC | how, 0666);
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

// A fresh temporary name beside `target`, created with O_EXCL (never an existing file or link) and
// mode `mode` less the caller's umask, as a shell's `>` creates files; returns its descriptor.
int create_temporary(const std::filesystem::path& dir, const std::string& name, mode_t mode, std::string& tmp) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 1000; ++attempt) {
    unsigned salt = (static_cast<unsigned>(getpid()) * 2654435761u) ^ (++counter * 40503u) ^
                    static_cast<unsigned>(std::chrono::steady_clock::now().time_since_epoch().count());
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "%08x", salt);
    tmp = (dir / ("." + name + ".tmp." + suffix)).string();
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

// The temporary file beside `target`, written and synced; returns its path. A new file gets 0666 less the
// umask; `keep` (an existing file's stat) gives it that file's mode and owner instead, as `>` keeps them.
std::string write_temporary(const std::filesystem::path& target, const std::string& shown, const FileWriter& content,
                            const struct stat* keep = nullptr) {
  namespace fs = std::filesystem;
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (!dir.empty()) make_dirs(dir.string());
  std::string tmp;
  // An existing file's copy starts private and gets its mode once its owner is set.
  int fd = create_temporary(dir, target.filename().string(), keep ? 0600 : 0666, tmp);
  if (fd < 0) write_error(shown, errno);
  if (keep) {
    if (keep->st_uid != geteuid() || keep->st_gid != getegid())
      (void)fchown(fd, keep->st_uid, keep->st_gid);  // only root may give a file away; others keep theirs
    fchmod(fd, keep->st_mode & 0777);  // never set-id bits on a report
  }
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

// The kernel's fs.protected_symlinks rule, applied whatever the sysctl says: in a sticky or world-writable
// directory, a link is followed only when it belongs to the caller or root (or to the directory's owner).
// Another user's link in /tmp is how root gets tricked into overwriting /etc/shadow.
void refuse_planted_link(const std::string& path, const struct stat& link) {
  namespace fs = std::filesystem;
  fs::path p(path);
  std::string dir = p.has_parent_path() ? p.parent_path().string() : ".";
  struct stat d {};
  if (::stat(dir.c_str(), &d) != 0) return;
  const bool shared_dir = (d.st_mode & S_ISVTX) || (d.st_mode & S_IWOTH);
  const uid_t me = geteuid();
  if (shared_dir && link.st_uid != me && link.st_uid != 0 && link.st_uid != d.st_uid)
    throw InputError("cannot write " + path + ": a symbolic link owned by uid " + std::to_string(link.st_uid) +
                     " in a shared directory (" + dir + "), not followed");
}

}  // namespace

void write_file_atomic(const std::string& path, const std::string& content, bool no_clobber) {
  write_file_atomic(path, text_writer(content), no_clobber);
}

void write_file_atomic(const std::string& path, const FileWriter& content, bool no_clobber) {
  if (path.empty()) throw InputError("cannot write: the file name is empty");
  struct stat lst {};
  const bool link = ::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode);
  if (link) {
    // Never resolved here and renamed over: the name is opened the way a shell's `>` opens it, so the kernel
    // applies its own link protections at every step, and the link (dangling or not) is kept.
    if (no_clobber) throw InputError("cannot write " + path + ": file exists (not overwritten)");
    refuse_planted_link(path, lst);
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) throw InputError("cannot write " + path + ": is a directory");
    return write_in_place(path, content, /*create=*/true);
  }
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) throw InputError("cannot write " + path + ": is a directory");
  if (exists && !S_ISREG(st.st_mode)) {
    if (no_clobber) throw InputError("cannot write " + path + ": file exists (not overwritten)");
    return write_in_place(path, content);
  }
  const std::filesystem::path target(path);
  std::string tmp = write_temporary(target, path, content, exists ? &st : nullptr);
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
  // rename() replaces the name itself: a link planted there meanwhile is replaced, never followed.
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    write_error(path, e);
  }
}

void check_writable_dir(const std::string& dir) {
  if (dir.empty()) throw InputError("cannot write: the directory name is empty");
  make_dirs(dir);
  std::string tmp;
  int fd = create_temporary(dir, "gpucheck-write-check", 0600, tmp);
  if (fd < 0) throw InputError("cannot write into " + dir + ": " + std::strerror(errno));
  ::close(fd);
  ::unlink(tmp.c_str());
}

std::string write_new_file(const std::string& stem, const std::string& extension, const std::string& content) {
  if (stem.empty()) throw InputError("cannot write: the file name is empty");
  std::string tmp = write_temporary(std::filesystem::path(stem + extension), stem + extension, text_writer(content));
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
