#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

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
  bool saw_temp = false;
  for (int i = 0; i < 3000 && !saw_temp; ++i) {
    for (auto& e : fs::directory_iterator(d))
      saw_temp = saw_temp || e.path().filename().string().find(".tmp.") != std::string::npos;
    if (!saw_temp) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
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

TEST(Files, UnwritableDestinationIsAnInputError) {
  EXPECT_THROW(write_file_atomic("/proc/version/x.json", "x"), InputError);
}

}  // namespace
}  // namespace gpucheck
