// chroot_exec ROOT DIR PROGRAM [ARGS...]: runs PROGRAM (a path inside ROOT) with ROOT as its root directory
// and DIR as its working directory, with this machine's /dev, /proc and /sys bound in, in a mount namespace
// of its own: the binds vanish with the process, so a crash leaves nothing mounted on the cached rootfs
// (and removing a test's files inside it can never reach the host's /dev). Needs root. The environment is
// a fixed minimal one, not the caller's. Exit status: PROGRAM's, or 127 with a one-line reason.
#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace {
int fail(const std::string& what) {
  std::fprintf(stderr, "chroot_exec: %s: %s\n", what.c_str(), std::strerror(errno));
  return 127;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: chroot_exec ROOT DIR PROGRAM [ARGS...]\n");
    return 2;
  }
  const std::string root = argv[1];
  if (::unshare(CLONE_NEWNS) != 0) return fail("unshare(CLONE_NEWNS)");
  // Private, so neither the binds nor their removal propagate back to the host's mounts.
  if (::mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return fail("mount --make-rprivate /");
  for (const char* d : {"/dev", "/proc", "/sys"}) {
    std::string target = root + d;
    if (::mount(d, target.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0) return fail("bind " + std::string(d) + " on " + target);
  }
  if (::chroot(root.c_str()) != 0) return fail("chroot " + root);
  if (::chdir(argv[2]) != 0) return fail(std::string("chdir ") + argv[2]);
  static char path[] = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  static char home[] = "HOME=/root";
  static char lang[] = "LANG=C.UTF-8";
  char* env[] = {path, home, lang, nullptr};
  ::execve(argv[3], argv + 3, env);
  return fail(std::string("exec ") + argv[3]);
}
