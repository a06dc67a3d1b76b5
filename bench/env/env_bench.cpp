// Wall time of `gpucheck env` as ratios to baselines run in the same iteration, so machine load cancels out:
//   EnvNoPython/vs_python_start   gpucheck env --no-python --json   vs  python3 -c "import sys"
//                                 (warm: library versions reused from the cache after the first iteration)
//   EnvNoPythonNoCache/...        the same with --no-cache: every version read through dlopen
//   EnvNoPython/vs_ldconfig       gpucheck env --no-python --json   vs  ldconfig -p
//   EnvPython/vs_import_torch     gpucheck env --json (PATH=/usr/bin)  vs  python3 -c "import torch"   (delta_ms)
//   EnvPython/vs_collect_env      gpucheck env --json (PATH=/usr/bin)  vs  python3 -m torch.utils.collect_env
// Counters: subject_ms, baseline_ms, ratio (subject / baseline), delta_ms (subject - baseline).
#include <benchmark/benchmark.h>

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
             const SubprocessOptions& subject_opts = {}) {
  double sum_s = 0, sum_b = 0;
  for (auto _ : state) {
    double b = run_seconds(baseline, {}, state);
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
BENCHMARK(EnvNoPython_vs_ldconfig)->UseManualTime()->Iterations(10)->Unit(benchmark::kMillisecond);
BENCHMARK(EnvPython_vs_import_torch)->UseManualTime()->Iterations(5)->Unit(benchmark::kMillisecond);
BENCHMARK(EnvPython_vs_collect_env)->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
