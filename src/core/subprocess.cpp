#include "core/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

// Weak, so one binary runs on glibc 2.28 (no such function) and uses it where it exists.
#pragma weak posix_spawn_file_actions_addchdir_np

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>

#include "core/interrupt.h"
#include "core/process_environment.h"

namespace gpucheck {

namespace {

using Clock = std::chrono::steady_clock;

struct Pipe {
  int read = -1, write = -1;
  bool open() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return false;
    read = fds[0];
    write = fds[1];
    return true;
  }
  void close_read() { if (read >= 0) ::close(read); read = -1; }
  void close_write() { if (write >= 0) ::close(write); write = -1; }
  ~Pipe() { close_read(); close_write(); }
};

// Keeps the first `limit` bytes (head) or the last `limit` bytes (tail) of a stream.
struct Capture {
  std::string* data;
  std::size_t limit;
  bool keep_tail;
  bool* truncated;
  void append(const char* buf, std::size_t n) {
    if (!keep_tail) {
      std::size_t room = limit > data->size() ? limit - data->size() : 0;
      data->append(buf, std::min(room, n));
      if (n > room) *truncated = true;
      return;
    }
    data->append(buf, n);
    if (data->size() > 2 * limit) {  // amortised trimming keeps memory bounded at 2x the limit
      data->erase(0, data->size() - limit);
      *truncated = true;
    }
  }
  void finish() {
    if (keep_tail && data->size() > limit) {
      data->erase(0, data->size() - limit);
      *truncated = true;
    }
  }
};

}  // namespace

std::string signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGPIPE: return "SIGPIPE";
    case SIGHUP: return "SIGHUP";
    case SIGTRAP: return "SIGTRAP";
    case SIGSYS: return "SIGSYS";
    default: return "signal " + std::to_string(sig);
  }
}

std::string SubprocessResult::describe() const {
  std::ostringstream s;
  if (!started) s << "failed to start: " << spawn_error;
  else if (timed_out) s << "timed out after " << elapsed_s << " s";
  else if (interrupted) s << "stopped: gpucheck received " << signal_name(interrupted);
  else if (signal) s << "killed by " << signal_name(signal);
  else s << "exit " << exit_code;
  return s.str();
}

std::string find_in_path(const std::string& name, const std::string& path_env) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  std::string path = path_env;
  if (path.empty()) {
    const char* p = std::getenv("PATH");
    path = p ? p : "/usr/local/bin:/usr/bin:/bin";
  }
  std::istringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + name;
    struct stat st {};
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return "";
}

SubprocessResult run_subprocess(const std::vector<std::string>& argv_in, const SubprocessOptions& o) {
  SubprocessResult r;
  if (argv_in.empty()) {
    r.spawn_error = "empty argument vector";
    return r;
  }
  Pipe out, err, res, in;
  if (!out.open() || !err.open() || (o.result_fd >= 3 && !res.open()) || (o.stdin_data && !in.open())) {
    r.spawn_error = std::strerror(errno);
    return r;
  }

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (o.stdin_data) posix_spawn_file_actions_adddup2(&fa, in.read, 0);
  else posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out.write, 1);
  posix_spawn_file_actions_adddup2(&fa, err.write, 2);
  if (o.result_fd >= 3) posix_spawn_file_actions_adddup2(&fa, res.write, o.result_fd);
  if (!o.working_dir.empty()) {
    if (!posix_spawn_file_actions_addchdir_np) {  // weak: absent before glibc 2.29 (the wheel's floor is 2.28)
      posix_spawn_file_actions_destroy(&fa);
      r.spawn_error = "a working directory needs glibc 2.29 or newer (posix_spawn_file_actions_addchdir_np)";
      return r;
    }
    posix_spawn_file_actions_addchdir_np(&fa, o.working_dir.c_str());
  }

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setpgroup(&attr, 0);  // own process group: a timeout kills the child's children too
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);

  std::vector<std::string> argv_copy = argv_in;
  std::vector<std::string> env_copy = environment_with(o.set_env, o.unset_env);
  auto argv = null_terminated(argv_copy);
  auto envp = null_terminated(env_copy);
  std::string exe = argv_in[0].find('/') == std::string::npos ? find_in_path(argv_in[0]) : argv_in[0];
  if (exe.empty()) exe = argv_in[0];

  auto start = Clock::now();
  pid_t pid = -1;
  int rc = posix_spawn(&pid, exe.c_str(), &fa, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  out.close_write();
  err.close_write();
  res.close_write();
  in.close_read();
  if (rc != 0) {
    r.spawn_error = std::string(std::strerror(rc)) + " (" + argv_in[0] + ")";
    return r;
  }
  r.started = true;
  register_child_group(pid);  // a second stop signal SIGKILLs this group from the handler

  // Feed stdin without blocking: the child may not read it all.
  std::size_t stdin_off = 0;
  // A child that exits without reading its stdin must not kill us with SIGPIPE.
  if (o.stdin_data) signal(SIGPIPE, SIG_IGN);
  if (o.stdin_data) fcntl(in.write, F_SETFL, O_NONBLOCK);
  else in.close_write();

  Capture cap_out{&r.out, o.stdout_limit, false, &r.out_truncated};
  Capture cap_err{&r.err, o.stderr_limit, true, &r.err_truncated};
  Capture cap_res{&r.result, o.result_limit, false, &r.result_truncated};
  struct Stream { int* fd; Capture* cap; };
  Stream streams[] = {{&out.read, &cap_out}, {&err.read, &cap_err}, {&res.read, &cap_res}};

  auto deadline = start + o.timeout;
  std::optional<Clock::time_point> kill_at;
  bool reaped = false;
  int wstatus = 0;
  char buf[65536];
  int idle_ms = 0;

  while (true) {
    std::vector<pollfd> pfds;
    std::vector<Stream*> owners;
    for (auto& s : streams)
      if (*s.fd >= 0) { pfds.push_back({*s.fd, POLLIN, 0}); owners.push_back(&s); }
    if (in.write >= 0) { pfds.push_back({in.write, POLLOUT, 0}); owners.push_back(nullptr); }

    if (!reaped) {
      pid_t w = waitpid(pid, &wstatus, WNOHANG);
      if (w == pid) reaped = true;
    }
    bool streams_open = false;
    for (auto& s : streams) streams_open = streams_open || *s.fd >= 0;
    // Done when the child is gone and its pipes drained. A grandchild holding a pipe open is not waited
    // for past the kill deadline.
    if (reaped && !streams_open) break;

    auto now = Clock::now();
    if (!r.timed_out && !reaped && now >= deadline) {
      r.timed_out = true;
      kill(-pid, SIGTERM);
      kill_at = now + o.kill_grace;
    }
    // gpucheck itself was asked to stop: stop the child the same way, with the same grace period.
    if (!r.interrupted && !r.timed_out && !reaped && interrupt_signal() != 0) {
      r.interrupted = interrupt_signal();
      kill(-pid, SIGTERM);
      kill_at = now + o.kill_grace;
    }
    // Asked twice: no grace period left (the handler has already sent SIGKILL; this covers a signal that
    // came between the spawn and the registration).
    if (!reaped && interrupt_count() >= 2 && (!kill_at || *kill_at > now)) {
      if (!r.interrupted) r.interrupted = interrupt_signal();
      kill_at = now;
    }
    if (kill_at && now >= *kill_at) {
      kill(-pid, SIGKILL);
      if (reaped) break;  // only orphaned descendants held the pipes
      kill_at = now + std::chrono::milliseconds(200);
    }
    if (reaped && (r.timed_out || r.interrupted) && !kill_at) kill_at = now + o.kill_grace;

    // With every pipe closed, poll() only sleeps: the child is exiting, so look again soon (1, 2, 4 .. 50 ms)
    // instead of adding up to 50 ms to every run.
    idle_ms = streams_open ? 0 : std::min(50, idle_ms ? idle_ms * 2 : 1);
    int wait_ms = streams_open ? 50 : idle_ms;
    int n = poll(pfds.data(), pfds.size(), wait_ms);
    if (n < 0 && errno != EINTR) break;
    for (std::size_t i = 0; n > 0 && i < pfds.size(); ++i) {
      if (!pfds[i].revents) continue;
      if (!owners[i]) {  // stdin writable
        const std::string& data = *o.stdin_data;
        ssize_t wr = write(in.write, data.data() + stdin_off, data.size() - stdin_off);
        if (wr > 0) stdin_off += static_cast<std::size_t>(wr);
        if (wr < 0 && errno != EAGAIN) in.close_write();
        if (stdin_off >= data.size()) in.close_write();
        continue;
      }
      ssize_t got = read(pfds[i].fd, buf, sizeof buf);
      if (got > 0) owners[i]->cap->append(buf, static_cast<std::size_t>(got));
      else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        ::close(*owners[i]->fd);
        *owners[i]->fd = -1;
      }
    }
  }
  in.close_write();
  if (!reaped) {
    kill(-pid, SIGKILL);
    waitpid(pid, &wstatus, 0);
  }
  unregister_child_group(pid);
  cap_err.finish();
  r.elapsed_s = std::chrono::duration<double>(Clock::now() - start).count();
  if (WIFEXITED(wstatus)) {
    r.exited = true;
    r.exit_code = WEXITSTATUS(wstatus);
  } else if (WIFSIGNALED(wstatus)) {
    r.signal = WTERMSIG(wstatus);
  }
  return r;
}

}  // namespace gpucheck
