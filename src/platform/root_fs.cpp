#include "platform/root_fs.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "core/regular_file.h"
#include "core/text.h"

namespace gpucheck::platform {

namespace {
// Lexically normalises an absolute path: collapses "//", "." and "..".
std::string normalize(const std::string& path) {
  std::vector<std::string> parts;
  for (const auto& p : split(path, '/')) {
    if (p.empty() || p == ".") continue;
    if (p == "..") {
      if (!parts.empty()) parts.pop_back();
    } else {
      parts.push_back(p);
    }
  }
  return "/" + join(parts, "/");
}
}  // namespace

RootFs::RootFs(std::string root) : root_(std::move(root)) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
  if (root_.empty()) root_ = "/";
  live_ = root_ == "/";
}

std::string RootFs::host(const std::string& guest) const {
  std::string g = guest.empty() || guest.front() != '/' ? "/" + guest : guest;
  return live_ ? g : root_ + g;
}

std::string RootFs::resolve(const std::string& guest) const {
  if (guest.empty()) return "";
  // Walk component by component so absolute link targets are re-rooted; 40 hops like the kernel.
  std::vector<std::string> todo = split(normalize(guest), '/');
  std::reverse(todo.begin(), todo.end());
  std::string done = "";
  int hops = 0;
  while (!todo.empty()) {
    std::string part = todo.back();
    todo.pop_back();
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      done = parent_dir(done.empty() ? "/" : done);
      if (done == "/") done = "";
      continue;
    }
    std::string next = done + "/" + part;
    struct stat st {};
    if (lstat(host(next).c_str(), &st) != 0) return "";
    if (S_ISLNK(st.st_mode)) {
      if (++hops > 40) return "";
      std::string target = link_target(next);
      auto tparts = split(target, '/');
      for (auto it = tparts.rbegin(); it != tparts.rend(); ++it) todo.push_back(*it);
      if (!target.empty() && target.front() == '/') done = "";
      continue;
    }
    done = next;
  }
  return done.empty() ? "/" : done;
}

bool RootFs::exists(const std::string& guest) const { return !resolve(guest).empty(); }

bool RootFs::is_dir(const std::string& guest) const {
  std::string r = resolve(guest);
  struct stat st {};
  return !r.empty() && stat(host(r).c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool RootFs::is_file(const std::string& guest) const {
  std::string r = resolve(guest);
  struct stat st {};
  return !r.empty() && stat(host(r).c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool RootFs::is_executable(const std::string& guest) const {
  std::string r = resolve(guest);
  return is_file(guest) && access(host(r).c_str(), X_OK) == 0;
}

bool RootFs::is_symlink(const std::string& guest) const {
  struct stat st {};
  return lstat(host(guest).c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

std::string RootFs::link_target(const std::string& guest) const {
  char buf[4096];
  ssize_t n = readlink(host(guest).c_str(), buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
}

std::string RootFs::read(const std::string& guest, std::size_t limit) const {
  std::string r = resolve(guest);
  if (r.empty()) return "";
  // Regular files only: a device or FIFO planted in a tree another user writes is never opened.
  return read_regular_file(host(r), limit);
}

std::vector<std::string> RootFs::list(const std::string& guest) const {
  std::vector<std::string> names;
  std::string r = resolve(guest);
  if (r.empty()) return names;
  DIR* d = opendir(host(r).c_str());
  if (!d) return names;
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> RootFs::glob_prefix(const std::string& dir, const std::string& prefix) const {
  std::vector<std::string> out;
  for (const auto& n : list(dir))
    if (starts_with(n, prefix)) out.push_back(path_join(dir, n));
  return out;
}

std::string RootFs::which(const std::string& name, const std::string& path_list) const {
  for (const auto& dir : split(path_list, ':')) {
    if (dir.empty() || dir.front() != '/') continue;  // relative PATH entries depend on the cwd: ignore
    std::string candidate = path_join(dir, name);
    if (is_executable(candidate)) return candidate;
  }
  return "";
}

}  // namespace gpucheck::platform
