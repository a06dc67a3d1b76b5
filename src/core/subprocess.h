#pragma once
// Runs a child process from an argument vector (never a shell string), with a deadline, bounded capture
// of stdout/stderr and an optional extra pipe (the probe result channel). The child gets its own process
// group so a timeout kills everything it started.
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpucheck {

struct SubprocessOptions {
  std::chrono::milliseconds timeout{std::chrono::seconds(60)};
  std::chrono::milliseconds kill_grace{std::chrono::seconds(2)};  // SIGTERM, then SIGKILL after this
  std::size_t stdout_limit = 16u << 20;  // bytes kept from the start of stdout
  std::size_t stderr_limit = 64u << 10;  // bytes kept from the end of stderr (the tail explains crashes)
  std::size_t result_limit = 16u << 20;
  int result_fd = -1;                    // >= 3: the child's fd number of an extra pipe we read
  std::optional<std::string> stdin_data; // written to the child's stdin, then closed; /dev/null if unset
  std::map<std::string, std::string> set_env;  // added to (or replacing in) the inherited environment
  std::vector<std::string> unset_env;
  std::string working_dir;               // empty: inherit
};

struct SubprocessResult {
  bool started = false;
  std::string spawn_error;  // why it did not start (errno text)
  bool exited = false;      // exited normally (exit_code valid)
  int exit_code = -1;
  int signal = 0;           // terminated by this signal
  bool timed_out = false;
  int interrupted = 0;      // stopped because this process was asked to stop (core/interrupt.h): the signal
  std::string out, err, result;
  bool out_truncated = false, err_truncated = false, result_truncated = false;
  double elapsed_s = 0.0;

  bool ok() const { return started && exited && exit_code == 0 && !timed_out && !interrupted; }
  /// "exit 7", "killed by SIGSEGV", "timed out after 3.0 s", "failed to start: ..."
  std::string describe() const;
};

SubprocessResult run_subprocess(const std::vector<std::string>& argv, const SubprocessOptions& options = {});

/// Searches PATH (or the given list) for an executable; empty when not found.
std::string find_in_path(const std::string& name, const std::string& path_env = "");

/// "SIGSEGV" for 11, "signal 99" for unknown numbers.
std::string signal_name(int sig);

}  // namespace gpucheck
