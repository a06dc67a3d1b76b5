#pragma once
// File access relative to the inspected root ("/" for the live machine, or a mounted image/chroot given with
// --root). Paths given to and returned by RootFs are the paths as seen *inside* the root; symlinks with
// absolute targets are resolved inside the root too, so /usr/local/cuda -> /usr/local/cuda-12.1 in an image
// never escapes to the host's toolkit.
#include <string>
#include <vector>

#include "core/text.h"  // path_join, parent_dir, base_name: what users of RootFs join paths with

namespace gpucheck::platform {

class RootFs {
 public:
  explicit RootFs(std::string root = "/");

  bool live() const { return live_; }
  const std::string& root() const { return root_; }

  /// The host path of a guest path (root + path).
  std::string host(const std::string& guest) const;
  /// Guest path with every symlink resolved inside the root; "" when it does not exist.
  std::string resolve(const std::string& guest) const;
  bool exists(const std::string& guest) const;
  bool is_dir(const std::string& guest) const;
  bool is_file(const std::string& guest) const;
  bool is_executable(const std::string& guest) const;
  bool is_symlink(const std::string& guest) const;
  /// Target of a symlink as written ("" if not a symlink).
  std::string link_target(const std::string& guest) const;
  /// Whole file, or "" when unreadable or not a regular file (a device or FIFO is never opened: `open_regular_file`).
  /// `limit` caps the bytes read (headers of huge libraries).
  std::string read(const std::string& guest, std::size_t limit = 1u << 22) const;
  /// Names in a directory (not paths), sorted; empty when not a directory.
  std::vector<std::string> list(const std::string& guest) const;
  /// Guest paths matching `dir/prefix*` (one level, no recursion), sorted.
  std::vector<std::string> glob_prefix(const std::string& dir, const std::string& prefix) const;
  /// First executable `name` in a ':'-separated PATH list, resolved against the root; "" if none.
  std::string which(const std::string& name, const std::string& path_list) const;

 private:
  std::string root_;
  bool live_;
};

}  // namespace gpucheck::platform
