#include "core/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/errors.h"

namespace gpucheck {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  struct stat st {};
  if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw InputError("cannot read " + path + ": is a directory");
  if (!in) throw InputError("cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

nlohmann::json read_json_file(const std::string& path) {
  std::string text = read_file(path);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path + " is not valid JSON (byte " + std::to_string(e.byte) + ")");
  }
}

void make_dirs(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) throw InputError("cannot create directory " + path + ": " + ec.message());
}

void write_file_atomic(const std::string& path, const std::string& content, bool no_clobber) {
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (!dir.empty()) make_dirs(dir.string());
  std::string tmp_template = (dir / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
  int fd = mkstemp(tmp_template.data());
  if (fd < 0) throw InputError("cannot write " + path + ": " + std::strerror(errno));
  fchmod(fd, 0644);
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      ::unlink(tmp_template.c_str());
      throw InputError("cannot write " + path + ": " + std::strerror(e));
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (fsync(fd) != 0 || ::close(fd) != 0) {
    int e = errno;
    ::unlink(tmp_template.c_str());
    throw InputError("cannot write " + path + ": " + std::strerror(e));
  }
  if (no_clobber) {
    // link() fails if the target exists, so two writers can never overwrite each other's reports.
    if (::link(tmp_template.c_str(), path.c_str()) != 0) {
      int e = errno;
      ::unlink(tmp_template.c_str());
      throw InputError("cannot write " + path + ": " + (e == EEXIST ? "file exists (not overwritten)" : std::strerror(e)));
    }
    ::unlink(tmp_template.c_str());
    return;
  }
  if (::rename(tmp_template.c_str(), path.c_str()) != 0) {
    int e = errno;
    ::unlink(tmp_template.c_str());
    throw InputError("cannot write " + path + ": " + std::strerror(e));
  }
}

}  // namespace gpucheck
