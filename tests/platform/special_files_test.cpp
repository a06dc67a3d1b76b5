// Files found in trees other users write (a venv, a conda env, a toolkit, a --root tree) are opened only when
// they are regular files: a FIFO there hung `env` and `abi` forever (std::ifstream and open() wait for a
// writer), and a link to a device was opened as root (opening /dev/watchdog arms the reboot timer).
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/regular_file.h"
#include "platform/dist_info.h"
#include "platform/elf_object.h"
#include "platform/ld_cache.h"
#include "platform/root_fs.h"

namespace fs = std::filesystem;

namespace gpucheck {
namespace {

struct Tree {
  fs::path root = fs::temp_directory_path() / ("gpucheck-special-" + std::to_string(::getpid()));
  Tree() {
    fs::remove_all(root);
    fs::create_directories(root / "lib");
  }
  ~Tree() { fs::remove_all(root); }
  std::string fifo(const std::string& rel) {
    fs::path p = root / rel;
    fs::create_directories(p.parent_path());
    EXPECT_EQ(mkfifo(p.c_str(), 0600), 0);
    return p.string();
  }
};

// Runs `read`; if it is still blocked after 5 s, a writer opens and closes `fifo` so the test ends, and the
// read counts as hung.
template <typename Read>
bool returned_without_a_writer(const std::string& fifo, Read read) {
  std::atomic<bool> done{false}, rescued{false};
  std::thread rescue([&] {
    for (int i = 0; i < 500 && !done; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!done) {
      rescued = true;
      int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
      if (fd >= 0) ::close(fd);
    }
  });
  read();
  done = true;
  rescue.join();
  return !rescued;
}

TEST(SpecialFiles, AFifoWhereAFileIsLookedForIsNeverOpened) {
  Tree t;
  const std::string version = t.fifo("usr/local/cuda/version.txt");
  const std::string lib = t.fifo("lib/libcudart.so.12");
  platform::RootFs rootfs(t.root.string());
  EXPECT_TRUE(returned_without_a_writer(version, [&] { EXPECT_EQ(rootfs.read("/usr/local/cuda/version.txt"), ""); }));
  EXPECT_TRUE(returned_without_a_writer(lib, [&] { EXPECT_FALSE(platform::ElfObject::is_elf_file(lib)); }));
  EXPECT_TRUE(returned_without_a_writer(lib, [&] { EXPECT_EQ(platform::ElfObject::read_soname(lib), ""); }));
  EXPECT_TRUE(returned_without_a_writer(lib, [&] { EXPECT_EQ(platform::ElfObject::not_elf_reason(lib), "not a regular file"); }));
  EXPECT_TRUE(returned_without_a_writer(lib, [&] { EXPECT_THROW(platform::ElfObject::open(lib), platform::ElfError); }));
  EXPECT_TRUE(returned_without_a_writer(lib, [&] { EXPECT_EQ(platform::record_hash_of_file(rootfs, "/lib/libcudart.so.12"), ""); }));
  EXPECT_TRUE(returned_without_a_writer(lib, [&] { EXPECT_THROW(platform::LdCache::load(lib), InputError); }));
}

TEST(SpecialFiles, OnlyRegularFilesOpenAlsoBehindALink) {
  Tree t;
  fs::create_symlink("/dev/null", t.root / "lib" / "libnccl.so.2");
  errno = 0;
  EXPECT_EQ(open_regular_file((t.root / "lib" / "libnccl.so.2").string()), -1);
  EXPECT_EQ(errno, EINVAL);
  EXPECT_EQ(open_regular_file(t.root.string()), -1);  // a directory
  EXPECT_EQ(open_regular_file((t.root / "absent").string()), -1);
  EXPECT_EQ(errno, ENOENT);
  std::ofstream(t.root / "lib" / "real.txt") << "0123456789";
  fs::create_symlink(t.root / "lib" / "real.txt", t.root / "lib" / "link.txt");
  const UniqueFd fd(open_regular_file((t.root / "lib" / "link.txt").string()));
  ASSERT_TRUE(fd.valid());
  char buf[16];
  EXPECT_EQ(read_fully(fd.get(), buf, sizeof buf), 10);
  EXPECT_EQ(read_regular_file((t.root / "lib" / "link.txt").string(), 4), "0123");
  EXPECT_EQ(read_regular_file((t.root / "lib" / "libnccl.so.2").string(), 4), "");
}

}  // namespace
}  // namespace gpucheck
