#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sys/resource.h>
#include <sys/stat.h>

#include <chrono>
#include <set>
#include <vector>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/errors.h"
#include "core/files.h"
#include "core/subprocess.h"
#include "support/sanitizers.h"

namespace gpucheck {
namespace {

namespace fs = std::filesystem;

fs::path temp_dir(const std::string& tag) {
  fs::path d = fs::temp_directory_path() / ("gpucheck-files-" + tag + "-" + std::to_string(getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

TEST(Files, AtomicWriteReplacesAndNoClobberRefuses) {
  auto d = temp_dir("a");
  std::string p = (d / "sub" / "r.json").string();
  write_file_atomic(p, "one");
  EXPECT_EQ(read_file(p), "one");
  write_file_atomic(p, "two");
  EXPECT_EQ(read_file(p), "two");
  EXPECT_THROW(write_file_atomic(p, "three", /*no_clobber=*/true), InputError);
  EXPECT_EQ(read_file(p), "two");
  int leftovers = 0;
  for (auto& e : fs::directory_iterator(d / "sub")) leftovers += e.path().filename() != "r.json";
  EXPECT_EQ(leftovers, 0);
  fs::remove_all(d);
}

TEST(Files, SpecialFilesAreWrittenInPlaceNeverReplaced) {
  // As root, replacing /dev/null by a regular file would break the whole machine: write through it instead.
  write_file_atomic("/dev/null", "discarded");
  struct stat st {};
  ASSERT_EQ(stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  // A FIFO with a reader receives the document; without one it is an error, not a hang.
  auto d = temp_dir("fifo");
  std::string fifo = (d / "pipe").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_THROW(write_file_atomic(fifo, "nobody reads"), InputError);
  std::string got;
  std::thread reader([&] {  // a blocking reader, as `cat FIFO` would be
    std::ifstream in(fifo);
    got.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  });
  for (int i = 0; i < 200; ++i) {  // the reader opens the FIFO; retry until it has
    try {
      write_file_atomic(fifo, "through the pipe");
      break;
    } catch (const InputError&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  reader.join();
  EXPECT_EQ(got, "through the pipe");
  ASSERT_EQ(lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  fs::remove_all(d);
}

TEST(Files, SymlinkTargetIsReplacedAndTheLinkKept) {
  auto d = temp_dir("link");
  std::string real = (d / "real.json").string(), link = (d / "link.json").string();
  write_file_atomic(real, "old");
  fs::create_symlink("real.json", link);
  write_file_atomic(link, "new");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read_file(real), "new");
  fs::remove_all(d);
}

TEST(Files, EmptyNameAndDirectoryAreRefused) {
  auto d = temp_dir("empty");
  EXPECT_THROW(write_file_atomic("", "x"), InputError);
  EXPECT_THROW(write_file_atomic(d.string(), "x"), InputError);
  EXPECT_THROW(write_new_file("", ".json", "x"), InputError);
  EXPECT_TRUE(fs::is_directory(d));
  fs::remove_all(d);
}

TEST(Files, ConcurrentNewFilesAllGetTheirOwnName) {
  auto d = temp_dir("race");
  const std::string stem = (d / "host-20260101T000000Z").string();
  std::vector<std::string> paths(12);
  std::vector<std::thread> writers;
  for (std::size_t i = 0; i < paths.size(); ++i)
    writers.emplace_back([&, i] { paths[i] = write_new_file(stem, ".json", "report " + std::to_string(i)); });
  for (auto& t : writers) t.join();
  std::set<std::string> unique(paths.begin(), paths.end());
  EXPECT_EQ(unique.size(), paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i) EXPECT_EQ(read_file(paths[i]), "report " + std::to_string(i));
  std::size_t files = 0;
  for (auto& e : fs::directory_iterator(d)) files += e.is_regular_file();
  EXPECT_EQ(files, paths.size());  // no temporary left behind
  fs::remove_all(d);
}

TEST(Files, InputsThatNeverEndOrAreNotFilesAreRefused) {
  try {
    read_file("/dev/zero");
    ADD_FAILURE() << "/dev/zero was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is a device"), std::string::npos) << e.what();
  }
  auto d = temp_dir("input");
  EXPECT_THROW(read_file(d.string()), InputError);
  EXPECT_THROW(read_file(""), InputError);
  // A FIFO nobody writes to reads as empty at once instead of waiting forever for a writer.
  std::string fifo = (d / "pipe").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(read_file(fifo), "");
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  // A document larger than the limit is refused, not read into memory without bound.
  std::string big = (d / "big.json").string();
  write_file_atomic(big, std::string(4096, ' '));
  EXPECT_THROW(read_file(big, 1024), InputError);
  EXPECT_EQ(read_file(big, 4096).size(), 4096u);
  fs::remove_all(d);
}

TEST(Files, KilledWriterLeavesTheOldFileIntact) {
  auto d = temp_dir("k");
  std::string p = (d / "report.json").string();
  write_file_atomic(p, "old report");
  // Start a writer of 2 GB, wait until its temporary file exists (it is mid-write), then SIGKILL it.
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    execl(ATOMIC_WRITER, ATOMIC_WRITER, p.c_str(), "2000000000", static_cast<char*>(nullptr));
    _exit(127);
  }
  // The writer first fills 2 GB in memory: under TSan on a loaded machine that took more than 15 s, so the
  // wait is for its temporary file or its end, whichever comes first, up to 3 minutes.
  bool saw_temp = false, ended = false;
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  while (!saw_temp && !ended && std::chrono::steady_clock::now() < deadline) {
    for (auto& e : fs::directory_iterator(d))
      saw_temp = saw_temp || e.path().filename().string().find(".tmp.") != std::string::npos;
    if (!saw_temp) {
      ended = waitpid(pid, &status, WNOHANG) == pid;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  if (!ended) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  EXPECT_TRUE(saw_temp) << "the writer never started writing";
  EXPECT_TRUE(WIFSIGNALED(status)) << "the writer finished before it could be killed";
  EXPECT_EQ(read_file(p), "old report");
  fs::remove_all(d);
}

TEST(Files, ReadErrorsAreInputErrors) {
  EXPECT_THROW(read_file("/nonexistent/file"), InputError);
  EXPECT_THROW(read_file("/"), InputError);
  auto d = temp_dir("j");
  write_file_atomic((d / "t.json").string(), "{\"a\": [1, 2");
  try {
    read_json_file((d / "t.json").string());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos);
  }
  fs::remove_all(d);
}

// reliability-3 N2: a new file gets the caller's umask (it was forced to 0644); an existing file keeps its
// mode and owner (a 0600 file of nobody's became root's 0644).
TEST(Files, NewFilesFollowTheUmaskAndExistingFilesKeepModeAndOwner) {
  auto d = temp_dir("mode");
  const mode_t old = umask(077);
  write_file_atomic((d / "new.json").string(), "x");
  write_new_file((d / "claimed").string(), ".json", "x");
  umask(old);
  struct stat st {};
  ASSERT_EQ(stat((d / "new.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(stat((d / "claimed.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  std::string kept = (d / "kept.json").string();
  write_file_atomic(kept, "old");
  ASSERT_EQ(chmod(kept.c_str(), 0640), 0);
  const bool root = geteuid() == 0;
  if (root) {
    ASSERT_EQ(chown(kept.c_str(), 65534, 65534), 0);
  }
  write_file_atomic(kept, "new");
  ASSERT_EQ(stat(kept.c_str(), &st), 0);
  EXPECT_EQ(read_file(kept), "new");
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  if (root) {
    EXPECT_EQ(st.st_uid, 65534u);
  }
  fs::remove_all(d);
}

// reliability-3 N2: another user's link in a sticky or world-writable directory is never followed (the
// kernel's fs.protected_symlinks rule, applied whatever the sysctl says); the caller's own link is written
// through, as `>` writes, and kept, dangling or not.
TEST(Files, PlantedLinksAreRefusedOwnLinksAreWrittenThroughAndKept) {
  auto d = temp_dir("planted");
  fs::path shared = d / "shared";
  fs::create_directories(shared);
  ASSERT_EQ(chmod(shared.c_str(), 01777), 0);
  std::string victim = (d / "victim").string();
  write_file_atomic(victim, "precious");
  fs::path own = shared / "own.json";
  fs::create_symlink(victim, own);
  write_file_atomic(own.string(), "through my own link");
  EXPECT_TRUE(fs::is_symlink(own));
  EXPECT_EQ(read_file(victim), "through my own link");
  fs::path dangling = shared / "dangling.json";
  fs::create_symlink(d / "created-through-the-link", dangling);
  write_file_atomic(dangling.string(), "new file");
  EXPECT_TRUE(fs::is_symlink(dangling));
  EXPECT_EQ(read_file((d / "created-through-the-link").string()), "new file");
  if (geteuid() == 0) {
    fs::path planted = shared / "planted.json";
    fs::create_symlink(victim, planted);
    ASSERT_EQ(lchown(planted.c_str(), 65534, 65534), 0);
    EXPECT_THROW(write_file_atomic(planted.string(), "replaced"), InputError);
    EXPECT_EQ(read_file(victim), "through my own link");
    EXPECT_TRUE(fs::is_symlink(planted));
  }
  fs::remove_all(d);
}

// reliability-3 N4: a document over the cap was refused only after the cap had been read (533 MB RSS).
// A regular file is refused from its size: under an address-space limit far below the cap, the refusal
// still comes as an InputError, not an allocation failure.
TEST(Files, OverSizeDocumentIsRefusedFromItsSizeBeforeReading) {
  if (gpucheck::test::kUnderAsan) GTEST_SKIP() << "an address-space limit and ASan's shadow memory do not mix";
  auto d = temp_dir("oversize");
  std::string big = (d / "big.json").string();
  {
    std::ofstream(big).put(' ');
  }
  fs::resize_file(big, kMaxDocumentBytes + 4096);  // sparse: no disk used
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    struct rlimit lim {};
    getrlimit(RLIMIT_AS, &lim);
    // What the process uses now, plus 64 MiB: reading the cap (256 MiB) into memory cannot fit.
    std::string status = read_proc_text("/proc/self/status");
    auto at = status.find("VmSize:");
    rlim_t now = at == std::string::npos ? 0 : std::strtoull(status.c_str() + at + 7, nullptr, 10) * 1024;
    lim.rlim_cur = now + (64u << 20);
    setrlimit(RLIMIT_AS, &lim);
    try {
      read_file(big);
      _exit(1);
    } catch (const InputError& e) {
      _exit(std::string(e.what()).find("larger than 256 MiB") != std::string::npos ? 0 : 2);
    } catch (...) {
      _exit(3);  // bad_alloc: it was being read
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  fs::remove_all(d);
}

TEST(Files, UnwritableDestinationIsAnInputError) {
  EXPECT_THROW(write_file_atomic("/proc/version/x.json", "x"), InputError);
}

}  // namespace
}  // namespace gpucheck
