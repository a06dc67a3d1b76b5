// Whole processes, side by side: `gpucheck abi FILE` and `ldd -r FILE` (the loader relocating everything:
// the tool it replaces), alternated in one run, each spawned from an argument vector with stdout/stderr
// on /dev/null. Reports the medians of wall time and of peak RSS (wait4's ru_maxrss) and the ratio
// gpucheck / ldd. Hot caches: one untimed run of each first.
//   GPUCHECK_BENCH_RUNS=N        alternated pairs per case (default 15, at least 11)
//   GPUCHECK_BENCH_ABI_CASES=a.so:b.so   other files (default: libcublasLt, a torch extension module)
//   GPUCHECK_BENCH_ABI_ARGS="--gpu sm_90"  extra gpucheck arguments for every case
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/text.h"

extern char** environ;

namespace {

struct ProcessRun {
  double wall_ms = 0;
  double cpu_ms = 0;   // user + system, the child's and its waited-for children's (steadier under load)
  double peak_mib = 0;
  int exit_code = -1;  // -1: killed or not started
};

ProcessRun run_process(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  ProcessRun r;
  pid_t pid = 0;
  auto t0 = std::chrono::steady_clock::now();
  int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return r;
  int status = 0;
  rusage ru{};
  while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
  }
  r.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  r.peak_mib = static_cast<double>(ru.ru_maxrss) / 1024.0;  // kilobytes on Linux
  auto ms = [](const timeval& t) { return t.tv_sec * 1e3 + t.tv_usec / 1e3; };
  r.cpu_ms = ms(ru.ru_utime) + ms(ru.ru_stime);
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  return r;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

int runs() {
  const char* e = std::getenv("GPUCHECK_BENCH_RUNS");
  int n = e ? std::atoi(e) : 15;
  return std::max(n, 11);
}

std::vector<std::string> cases() {
  if (const char* env = std::getenv("GPUCHECK_BENCH_ABI_CASES"); env && *env) return gpucheck::split(env, ':');
  // Each case: the first of its candidates that exists.
  const std::vector<std::vector<std::string>> candidates = {
      {"/usr/local/cuda/lib64/libcublasLt.so.13", "/usr/local/cuda/lib64/libcublasLt.so"},
      // a torch extension module (Debian's torch._C: libtorch_python, libtorch, libc10)
      {"/usr/lib/python3/dist-packages/torch/_C.cpython-311-x86_64-linux-gnu.so"}};
  std::vector<std::string> out;
  for (const auto& group : candidates)
    for (const auto& p : group)
      if (std::filesystem::exists(p)) {
        out.push_back(p);
        break;
      }
  return out;
}

std::vector<std::string> extra_args() {
  const char* e = std::getenv("GPUCHECK_BENCH_ABI_ARGS");
  return e && *e ? gpucheck::split(e, ' ') : std::vector<std::string>{};
}

void BM_AbiProcessVsLddR(benchmark::State& state, std::string file) {
  std::vector<std::string> abi{std::string(GPUCHECK_STAGE_BIN) + "/gpucheck", "abi"};
  for (const auto& a : extra_args()) abi.push_back(a);
  // An extension module is audited inside its interpreter: name the real one (a pyenv shim costs 0.3 s).
  if (file.find("cpython") != std::string::npos && std::filesystem::exists("/usr/bin/python3.11"))
    abi.insert(abi.end(), {"--python", "/usr/bin/python3.11"});
  abi.push_back(file);
  const std::vector<std::string> ldd{"ldd", "-r", file};
  std::vector<double> g_ms, g_mib, l_ms, l_mib, g_cpu, l_cpu;
  int g_exit = 0;
  for (auto _ : state) {
    run_process(abi);  // hot caches
    run_process(ldd);
    for (int i = 0; i < runs(); ++i) {
      // Alternated, so load changes on a shared machine hit both sides alike.
      ProcessRun g = run_process(abi);
      ProcessRun l = run_process(ldd);
      if (g.exit_code < 0 || g.exit_code > 1) {
        state.SkipWithError(("gpucheck abi exited " + std::to_string(g.exit_code) + " on " + file).c_str());
        return;
      }
      g_exit = g.exit_code;
      g_ms.push_back(g.wall_ms), g_mib.push_back(g.peak_mib);
      l_ms.push_back(l.wall_ms), l_mib.push_back(l.peak_mib);
      g_cpu.push_back(g.cpu_ms), l_cpu.push_back(l.cpu_ms);
    }
  }
  double gm = median(g_ms), lm = median(l_ms);
  state.counters["gpucheck_ms"] = gm;
  state.counters["ldd_r_ms"] = lm;
  state.counters["ratio"] = lm > 0 ? gm / lm : 0;  // < 1: gpucheck is faster
  state.counters["gpucheck_peak_MiB"] = median(g_mib);
  state.counters["ldd_r_peak_MiB"] = median(l_mib);
  state.counters["gpucheck_cpu_ms"] = median(g_cpu);
  state.counters["ldd_r_cpu_ms"] = median(l_cpu);
  state.counters["pairs"] = static_cast<double>(g_ms.size());
  state.counters["gpucheck_exit"] = g_exit;
  double gc = median(g_cpu), lc = median(l_cpu);
  std::printf("| `%s` | %.1f ms (CPU %.1f ms), %.1f MiB | %.1f ms (CPU %.1f ms), %.1f MiB | %.2fx (CPU %.2fx) |\n",
              file.c_str(), gm, gc, median(g_mib), lm, lc, median(l_mib), lm > 0 ? gm / lm : 0, lc > 0 ? gc / lc : 0);
}

int register_cases() {
  for (const auto& f : cases())
    benchmark::RegisterBenchmark(("BM_AbiProcessVsLddR/" + std::filesystem::path(f).filename().string()).c_str(),
                                 BM_AbiProcessVsLddR, f)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  return 0;
}
const int kRegistered = register_cases();

}  // namespace

BENCHMARK_MAIN();
