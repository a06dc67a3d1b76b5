#include "process_pair.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#include "core/process_environment.h"

namespace gpucheck::bench {

ProcessRun run_process(const Command& c, double timeout_s) {
  ProcessRun r;
  std::map<std::string, std::string> set = c.set_env;
  std::string fresh;
  if (!c.fresh_dir_env.empty()) {
    char tmpl[] = "/tmp/gpucheck-bench-XXXXXX";
    if (!mkdtemp(tmpl)) return r;
    fresh = tmpl;
    set[c.fresh_dir_env] = fresh;
  }
  std::vector<std::string> argv_copy = c.argv, env_copy = environment_with(set);
  auto argv = null_terminated(argv_copy);
  auto envp = null_terminated(env_copy);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const auto t0 = std::chrono::steady_clock::now();
  int rc = posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc == 0) {
    int status = 0;
    rusage ru{};
    const auto deadline = t0 + std::chrono::duration<double>(timeout_s);
    for (;;) {
      pid_t w = wait4(pid, &status, WNOHANG, &ru);
      if (w == pid) break;
      if (w < 0 && errno != EINTR) break;
      if (std::chrono::steady_clock::now() > deadline) {
        kill(pid, SIGKILL);
        while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
        }
        break;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    r.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    auto ms = [](const timeval& t) { return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3; };
    r.cpu_ms = ms(ru.ru_utime) + ms(ru.ru_stime);
    r.peak_mib = static_cast<double>(ru.ru_maxrss) / 1024.0;  // kilobytes on Linux
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  }
  if (!fresh.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(fresh, ec);
  }
  return r;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

double PairStats::median(bool subject_side, double ProcessRun::*field) const {
  std::vector<double> v;
  for (const auto& r : subject_side ? subject : peer) v.push_back(r.*field);
  return bench::median(v);
}

namespace {
std::vector<double> ratios(const PairStats& s, double ProcessRun::*field) {
  std::vector<double> v;
  for (std::size_t i = 0; i < s.subject.size() && i < s.peer.size(); ++i)
    if (s.peer[i].*field > 0) v.push_back(s.subject[i].*field / s.peer[i].*field);
  return v;
}
}  // namespace

double PairStats::pair_ratio_median(double ProcessRun::*field) const { return bench::median(ratios(*this, field)); }
double PairStats::pair_ratio_min(double ProcessRun::*field) const {
  auto v = ratios(*this, field);
  return v.empty() ? 0 : *std::min_element(v.begin(), v.end());
}
double PairStats::pair_ratio_max(double ProcessRun::*field) const {
  auto v = ratios(*this, field);
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

PairStats run_pairs(const Command& subject, const Command& peer, int pairs, double timeout_s) {
  PairStats s;
  run_process(subject, timeout_s);  // hot caches
  run_process(peer, timeout_s);
  for (int i = 0; i < pairs; ++i) {
    if (i % 2 == 0) {
      s.subject.push_back(run_process(subject, timeout_s));
      s.peer.push_back(run_process(peer, timeout_s));
    } else {
      s.peer.push_back(run_process(peer, timeout_s));
      s.subject.push_back(run_process(subject, timeout_s));
    }
  }
  return s;
}

}  // namespace gpucheck::bench
