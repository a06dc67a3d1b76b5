// Wall time of `gpucheck env` as ratios to baselines run in the same iteration, so machine load cancels out:
//   EnvNoPython/vs_python_start   gpucheck env --no-python --json   vs  python3 -c "import sys"
//                                 (warm: library versions reused from the cache after the first iteration)
//   EnvNoPythonNoCache/...        the same with --no-cache: every version read through dlopen
//   EnvNoPython/vs_ldconfig       gpucheck env --no-python --json   vs  ldconfig -p
//   EnvPython/vs_import_torch     gpucheck env --json (PATH=/usr/bin)  vs  python3 -c "import torch"   (delta_ms)
//   EnvPython/vs_collect_env      gpucheck env --json (PATH=/usr/bin)  vs  python3 -m torch.utils.collect_env
//   CublasVersionRead/audit_vs_plain  gpucheck-libversion on this machine's libcublas + libcublasLt with its
//                                 LD_AUDIT huge-page module  vs  without it (the floor of an uncached env run)
//   EnvNoPythonNoCache/vs_cublas_read  gpucheck env --no-python --json --no-cache  vs  that cuBLAS read alone
//                                 (delta_ms: what the rest of `env` adds to the critical path)
// Counters: subject_ms, baseline_ms, ratio (subject / baseline), delta_ms (subject - baseline).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/subprocess.h"

namespace {

using gpucheck::run_subprocess;
using gpucheck::SubprocessOptions;

const std::string kPython = "/usr/bin/python3";

double run_seconds(const std::vector<std::string>& argv, const SubprocessOptions& o, benchmark::State& state) {
  auto r = run_subprocess(argv, o);
  if (!r.ok()) state.SkipWithError((argv[0] + " failed: " + r.describe()).c_str());
  return r.elapsed_s;
}

void compare(benchmark::State& state, const std::vector<std::string>& subject, const std::vector<std::string>& baseline,
             const SubprocessOptions& subject_opts = {}, const SubprocessOptions& baseline_opts = {}) {
  double sum_s = 0, sum_b = 0;
  for (auto _ : state) {
    double b = run_seconds(baseline, baseline_opts, state);
    double s = run_seconds(subject, subject_opts, state);
    state.SetIterationTime(s);
    sum_s += s, sum_b += b;
  }
  double n = static_cast<double>(state.iterations());
  if (n == 0) return;
  state.counters["subject_ms"] = 1e3 * sum_s / n;
  state.counters["baseline_ms"] = 1e3 * sum_b / n;
  state.counters["ratio"] = sum_b > 0 ? sum_s / sum_b : 0;
  state.counters["delta_ms"] = 1e3 * (sum_s - sum_b) / n;
}

const std::string kGpucheck = std::string(GPUCHECK_STAGE_BIN) + "/gpucheck";

void EnvNoPython_vs_python_start(benchmark::State& state) {
  compare(state, {kGpucheck, "env", "--no-python", "--json"}, {kPython, "-c", "import sys"});
}
// Cold: every library version read through dlopen again (the first run on a machine, or --no-cache).
void EnvNoPythonNoCache_vs_python_start(benchmark::State& state) {
  compare(state, {kGpucheck, "env", "--no-python", "--json", "--no-cache"}, {kPython, "-c", "import sys"});
}
void EnvNoPython_vs_ldconfig(benchmark::State& state) {
  compare(state, {kGpucheck, "env", "--no-python", "--json"}, {"/sbin/ldconfig", "-p"});
}

// gpucheck-libversion with this machine's cuBLAS pair as arguments; empty when there is none.
std::vector<std::string> cublas_read_argv() {
  std::string helper = std::string(GPUCHECK_STAGE_BIN) + "/../libexec/gpucheck/gpucheck-libversion";
  std::error_code ec;
  for (const char* dir : {"/usr/local/cuda/lib64", "/usr/local/cuda/lib"}) {
    std::vector<std::string> argv = {helper};
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      std::string name = e.path().filename().string();
      // The SONAME files (libcublas.so.13, libcublasLt.so.13), as the scan reads them.
      bool lt = name.rfind("libcublasLt.so.", 0) == 0, blas = name.rfind("libcublas.so.", 0) == 0;
      if ((lt || blas) && name.find('.', name.find(".so.") + 4) == std::string::npos)
        argv.push_back(std::string(lt ? "cublasLt=" : "cublas=") + std::filesystem::canonical(e.path(), ec).string());
    }
    if (argv.size() == 3) return argv;
  }
  return {};
}

SubprocessOptions with_audit(bool on) {
  SubprocessOptions o;
  if (on) o.set_env["LD_AUDIT"] = std::string(GPUCHECK_STAGE_BIN) + "/../libexec/gpucheck/gpucheck-libversion-audit.so";
  else o.unset_env = {"LD_AUDIT"};
  return o;
}

void CublasVersionRead_audit_vs_plain(benchmark::State& state) {
  auto argv = cublas_read_argv();
  if (argv.empty()) return state.SkipWithError("no libcublas/libcublasLt pair under /usr/local/cuda/lib{64,}");
  compare(state, argv, argv, with_audit(true), with_audit(false));
}
void EnvNoPythonNoCache_vs_cublas_read(benchmark::State& state) {
  auto argv = cublas_read_argv();
  if (argv.empty()) return state.SkipWithError("no libcublas/libcublasLt pair under /usr/local/cuda/lib{64,}");
  compare(state, {kGpucheck, "env", "--no-python", "--json", "--no-cache"}, argv, {}, with_audit(true));
}

bool have_torch() { return run_subprocess({kPython, "-c", "import torch"}).ok(); }

SubprocessOptions system_python_only() {
  SubprocessOptions o;
  o.set_env["PATH"] = "/usr/bin:/bin";  // probe only the system Python (the one with torch), as the baseline
  return o;
}

void EnvPython_vs_import_torch(benchmark::State& state) {
  if (!have_torch()) return state.SkipWithError("no torch in /usr/bin/python3 (apt-get install python3-torch)");
  compare(state, {kGpucheck, "env", "--json"}, {kPython, "-c", "import torch"}, system_python_only());
}
void EnvPython_vs_collect_env(benchmark::State& state) {
  if (!have_torch()) return state.SkipWithError("no torch in /usr/bin/python3 (apt-get install python3-torch)");
  compare(state, {kGpucheck, "env", "--json"}, {kPython, "-m", "torch.utils.collect_env"}, system_python_only());
}

}  // namespace

BENCHMARK(EnvNoPython_vs_python_start)->UseManualTime()->Iterations(10)->Unit(benchmark::kMillisecond);
BENCHMARK(EnvNoPythonNoCache_vs_python_start)->UseManualTime()->Iterations(10)->Unit(benchmark::kMillisecond);
BENCHMARK(CublasVersionRead_audit_vs_plain)->UseManualTime()->Iterations(10)->Unit(benchmark::kMillisecond);
BENCHMARK(EnvNoPythonNoCache_vs_cublas_read)->UseManualTime()->Iterations(10)->Unit(benchmark::kMillisecond);
BENCHMARK(EnvNoPython_vs_ldconfig)->UseManualTime()->Iterations(10)->Unit(benchmark::kMillisecond);
BENCHMARK(EnvPython_vs_import_torch)->UseManualTime()->Iterations(5)->Unit(benchmark::kMillisecond);
BENCHMARK(EnvPython_vs_collect_env)->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
