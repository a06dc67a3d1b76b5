// A probe that misbehaves on purpose (mode from CHILD_MODE or from its own name):
// the runner tests use it to prove every failure mode is classified and none takes the suite down.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {
void write_fd3(const std::string& s) {
  if (::write(3, s.data(), s.size()) < 0) std::_Exit(99);
}
std::string g_id = "test.child";
std::string good() {
  return R"({"id":")" + g_id +
         R"(","title":"t","status":"pass","summary":"all good","metrics":[{"name":"x","value":1.5,"unit":"s","better":"lower"}],"evidence":{"k":"v"},"remedy":[],"duration_s":0,"devices":[]})";
}
}  // namespace

int main(int argc, char** argv) {
  // The mode comes from CHILD_MODE, or from the name it is invoked as ("test.segfault" -> "segfault"), so
  // one binary can play several probes of one suite through symlinks.
  std::string self = argv[0];
  self = self.substr(self.find_last_of('/') + 1);
  std::string mode = getenv("CHILD_MODE") ? getenv("CHILD_MODE") : "good";
  if (self.rfind("test.", 0) == 0 && self != "test_misbehaving_probe") {
    g_id = self;
    mode = self.substr(5);
  }
  if (mode == "good") {
    write_fd3(good());
    return 0;
  }
  if (mode == "args") {  // echoes its argv into the summary
    std::string all;
    for (int i = 1; i < argc; ++i) all += std::string(i > 1 ? "|" : "") + argv[i];
    write_fd3(R"({"id":")" + g_id + R"(","status":"pass","summary":")" + all + "\"}");
    return 0;
  }
  if (mode == "setsid_orphan") {  // leaves a detached descendant behind, then reports a pass
    pid_t pid = fork();
    if (pid == 0) {
      setsid();  // out of the probe's process group: killpg no longer reaches it
      if (fork() == 0) {
        for (int fd = 0; fd < 4; ++fd) close(fd);  // holds no pipe: nothing waits for it
        for (;;) pause();
      }
      _exit(0);
    }
    write_fd3(good());
    return 0;
  }
  if (mode == "segfault") {
    std::fputs("about to dereference null\n", stderr);
    std::fflush(stderr);
    volatile int* p = nullptr;
    return *p;
  }
  if (mode == "abort") std::abort();
  if (mode == "hang") {
    for (;;) pause();
  }
  if (mode == "hang_ignore_term") {  // needs SIGKILL after the grace period
    signal(SIGTERM, SIG_IGN);
    for (;;) pause();
  }
  if (mode == "hang_grandchild") {  // a grandchild keeps the pipes open after the child is gone
    if (fork() == 0) {
      for (;;) pause();
    }
    for (;;) pause();
  }
  if (mode == "stubborn") {  // ignores TERM, as does its child; a setsid grandchild; each appends its pid to $STUBBORN_PIDS
    signal(SIGTERM, SIG_IGN);
    auto note_pid = [] {
      if (const char* f = getenv("STUBBORN_PIDS")) {
        if (FILE* out = std::fopen(f, "a")) {
          std::fprintf(out, "%d\n", static_cast<int>(getpid()));
          std::fclose(out);
        }
      }
    };
    note_pid();
    if (fork() == 0) {  // in the probe's process group, TERM ignored too
      note_pid();
      for (;;) pause();
    }
    if (fork() == 0) {
      setsid();  // out of the group: only the subreaper's end_orphans() reaches it
      if (fork() == 0) {
        for (int fd = 0; fd < 4; ++fd) close(fd);
        note_pid();
        for (;;) pause();
      }
      _exit(0);
    }
    for (;;) pause();
  }
  if (mode == "hostile_text") {  // a valid result whose texts would clear the screen and retitle the terminal
    std::fputs("stderr \x1b[2J\x1b]0;pwned\x07 \xff\xfe end\n", stderr);
    write_fd3(R"({"id":")" + g_id + R"(","title":"t","status":"fail","summary":"\u001b[2J\u001b]0;pwned\u0007 cleared",)"
              R"("evidence":{"k\u001b[31m":"v\u001b[0m"},"duration_s":0})");
    return 0;
  }
  if (mode == "invalid_utf8") {  // bytes that are not UTF-8 in the result and on stderr (issue 15 item 9)
    std::fputs("stderr \xff\xc0\xaf overlong \xed\xa0\x80 surrogate \x1b[2J\n", stderr);
    write_fd3(std::string(R"({"id":")") + g_id + R"(","status":"pass","summary":"byte \xff here"})");
    return 0;
  }
  if (mode == "deep_json") {  // a valid result whose evidence nests 100,000 arrays (200 KB): copying it recursed
    write_fd3(R"({"id":")" + g_id + R"(","status":"pass","summary":"deep","evidence":{"k":)" + std::string(100000, '[') +
              std::string(100000, ']') + "}}");
    return 0;
  }
  if (mode == "garbage") {
    write_fd3("this is {not json at all\n");
    return 0;
  }
  if (mode == "wrong_status") {
    write_fd3(R"({"id":"test.child","status":"great","summary":"?"})");
    return 0;
  }
  if (mode == "wrong_id") {
    write_fd3(R"({"id":"other.probe","status":"pass","summary":"?"})");
    return 0;
  }
  if (mode == "exit7") {
    std::fputs("fatal: could not initialise\n", stderr);
    return 7;
  }
  if (mode == "result_then_exit3") {
    write_fd3(good());
    return 3;
  }
  if (mode == "stderr_flood") {  // 10 MB on stderr, then a valid result
    std::string chunk(1 << 16, 'e');
    chunk.back() = '\n';
    for (int i = 0; i < 160; ++i) fwrite(chunk.data(), 1, chunk.size(), stderr);
    std::fputs("last line of the flood\n", stderr);
    std::fflush(stderr);
    write_fd3(good());
    return 0;
  }
  if (mode == "stdout_flood") {  // stdout is not the result channel and must not block the child
    std::string chunk(1 << 16, 'o');
    for (int i = 0; i < 64; ++i) fwrite(chunk.data(), 1, chunk.size(), stdout);
    std::fflush(stdout);
    write_fd3(good());
    return 0;
  }
  std::fprintf(stderr, "unknown CHILD_MODE %s\n", mode.c_str());
  return 64;
}
