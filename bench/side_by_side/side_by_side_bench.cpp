// Issue 21's CPU rows: each gpucheck command against the tool it replaces (or its own cheaper mode), whole
// processes, alternated pair by pair in one run (process_pair.h). Every benchmark reports the same
// counters, which scripts/perf-table turns into docs/performance.md's table:
//   subject_{wall,cpu}_ms, peer_{wall,cpu}_ms, subject_peak_MiB, peer_peak_MiB   medians
//   wall_ratio, cpu_ratio               median(subject) / median(peer) (< 1: gpucheck is faster)
//   {wall,cpu}_ratio_{min,max}          the smallest and largest ratio of one pair (the spread)
//   pairs, subject_exit
// and its label names the two commands. Rows whose inputs are missing here skip with the reason.
//
//   GPUCHECK_BENCH_RUNS=N     pairs per row (default 11; the Python rows 5)
//   GPUCHECK_BENCH_VENV=DIR   the torch venv (default ~/.cache/gpucheck/test-venvs/torch211-bmtrain022,
//                             made by the abi repro tests: torch 2.11 + bmtrain 0.2.2 from PyPI)
//   GPUCHECK_BENCH_CUDA_VENV=DIR  a typical PyPI CUDA venv (default ~/.cache/gpucheck/bench-venvs/
//                             torch251-cu124): torch 2.5.1 + torchvision 0.20.1 + torchaudio 2.5.1 + numpy
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "process_pair.h"

namespace {

namespace fs = std::filesystem;
using gpucheck::bench::Command;
using gpucheck::bench::PairStats;
using gpucheck::bench::ProcessRun;

const std::string kGpucheck = std::string(GPUCHECK_STAGE_BIN) + "/gpucheck";

int pairs(int fallback) {
  const char* e = std::getenv("GPUCHECK_BENCH_RUNS");
  int n = e && *e ? std::atoi(e) : fallback;
  return n < 3 ? 3 : n;
}

std::string venv() {
  if (const char* e = std::getenv("GPUCHECK_BENCH_VENV"); e && *e) return e;
  const char* home = std::getenv("HOME");
  return std::string(home ? home : "/root") + "/.cache/gpucheck/test-venvs/torch211-bmtrain022";
}
std::string venv_python() { return venv() + "/bin/python"; }
std::string venv_site() {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(venv() + "/lib", ec))
    if (e.path().filename().string().rfind("python3", 0) == 0) return e.path().string() + "/site-packages";
  return "";
}

void report(benchmark::State& state, const PairStats& s, const std::string& label) {
  using R = ProcessRun;
  state.counters["subject_wall_ms"] = s.median(true, &R::wall_ms);
  state.counters["peer_wall_ms"] = s.median(false, &R::wall_ms);
  state.counters["subject_cpu_ms"] = s.median(true, &R::cpu_ms);
  state.counters["peer_cpu_ms"] = s.median(false, &R::cpu_ms);
  state.counters["subject_peak_MiB"] = s.median(true, &R::peak_mib);
  state.counters["peer_peak_MiB"] = s.median(false, &R::peak_mib);
  auto ratio = [](double a, double b) { return b > 0 ? a / b : 0; };
  state.counters["wall_ratio"] = ratio(s.median(true, &R::wall_ms), s.median(false, &R::wall_ms));
  state.counters["cpu_ratio"] = ratio(s.median(true, &R::cpu_ms), s.median(false, &R::cpu_ms));
  state.counters["wall_ratio_min"] = s.pair_ratio_min(&R::wall_ms);
  state.counters["wall_ratio_max"] = s.pair_ratio_max(&R::wall_ms);
  state.counters["cpu_ratio_min"] = s.pair_ratio_min(&R::cpu_ms);
  state.counters["cpu_ratio_max"] = s.pair_ratio_max(&R::cpu_ms);
  state.counters["pairs"] = static_cast<double>(s.subject.size());
  state.counters["subject_exit"] = s.subject.empty() ? -1 : s.subject.back().exit_code;
  state.SetLabel(label);
}

// Runs the pairs once (Iterations(1)); a subject that crashed, timed out or exited >= 2 is an error.
void compare(benchmark::State& state, const Command& subject, const Command& peer, int n, const std::string& label,
             int worst_exit = 1) {
  for (auto _ : state) {
    PairStats s = gpucheck::bench::run_pairs(subject, peer, n);
    for (const auto& r : s.subject)
      if (r.exit_code < 0 || r.exit_code > worst_exit) {
        state.SkipWithError(("subject exited " + std::to_string(r.exit_code) + ": " + label).c_str());
        return;
      }
    for (const auto& r : s.peer)
      if (r.exit_code < 0) {
        state.SkipWithError(("peer killed or not started: " + label).c_str());
        return;
      }
    report(state, s, label);
  }
}

bool need(benchmark::State& state, const std::string& path, const char* what) {
  if (fs::exists(path)) return true;
  for (auto _ : state) state.SkipWithError((path + " missing: " + what).c_str());
  return false;
}

// --- abi vs ldd -r -------------------------------------------------------------------------------------
const std::string kCublasLt = "/usr/local/cuda/lib64/libcublasLt.so.13";

// `first_run`: every run with a new empty cache directory (XDG_CACHE_HOME), as on a machine where gpucheck
// never ran: the loader's help and the fat-binary headers are read afresh. Otherwise the runs after the
// first find them remembered, as every later run on a machine does.
void Abi_cublasLt(benchmark::State& state, std::vector<std::string> extra, bool first_run) {
  if (!need(state, kCublasLt, "the CUDA 13 toolkit's cuBLASLt")) return;
  Command g{{kGpucheck, "abi"}, {}, first_run ? "XDG_CACHE_HOME" : ""};
  for (const auto& a : extra) g.argv.push_back(a);
  g.argv.push_back(kCublasLt);
  std::string args = extra.empty() ? "" : " " + extra[0] + " " + extra[1];
  compare(state, g, Command{{"ldd", "-r", kCublasLt}, {}, ""}, pairs(11),
          "`abi libcublasLt.so.13" + args + "`" + (first_run ? ", first run (no cache)," : "") + " vs `ldd -r`");
}

// An extension module in the venv: judged after that venv's `import torch`, inside its interpreter.
void Abi_extension(benchmark::State& state, std::string relative, std::string name) {
  std::string file = venv_site() + "/" + relative;
  if (!need(state, file, "make the venv with GPUCHECK_TEST_REPRO=1 ctest -R abi_torch_import_repro")) return;
  compare(state, Command{{kGpucheck, "abi", "--python", venv_python(), file}, {}, ""},
          Command{{"ldd", "-r", file}, {}, ""}, pairs(11), "`abi " + name + "` (torch 2.11 venv) vs `ldd -r`");
}

// --- env --python vs import torch / collect_env ---------------------------------------------------------
Command env_cmd(bool cold) {
  Command c{{kGpucheck, "env", "--python", venv_python(), "--json"}, {}, ""};
  if (cold) c.fresh_dir_env = "XDG_CACHE_HOME";  // no library-versions.json: every version read again
  else c.set_env["XDG_CACHE_HOME"] = "/tmp/gpucheck-bench-warm-cache";
  return c;
}

void Env_vs_import_torch(benchmark::State& state, bool cold) {
  if (!need(state, venv_python(), "the torch 2.11 venv")) return;
  compare(state, env_cmd(cold), Command{{venv_python(), "-c", "import torch"}, {}, ""}, pairs(5),
          std::string("`env --python VENV` (") + (cold ? "cold" : "warm") + " version cache) vs `import torch`");
}

void Env_vs_collect_env(benchmark::State& state, bool cold) {
  if (!need(state, venv_python(), "the torch 2.11 venv")) return;
  compare(state, env_cmd(cold), Command{{venv_python(), "-m", "torch.utils.collect_env"}, {}, ""}, pairs(5),
          std::string("`env --python VENV` (") + (cold ? "cold" : "warm") +
              " version cache) vs `python -m torch.utils.collect_env`");
}

// --- a typical PyPI CUDA venv (issue 38): env and doctor, cold and warm, vs import torch and collect_env ----
// Cold: a new empty XDG_CACHE_HOME per run (no library versions, no Python answer remembered); warm: the
// cache the untimed first run filled. The venv: PyPI's torch 2.5.1 (CUDA 12.4 build), torchvision 0.20.1,
// torchaudio 2.5.1 and numpy, made with
//   python3 -m venv DIR && DIR/bin/pip install torch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1 numpy
std::string cuda_venv_python() {
  if (const char* e = std::getenv("GPUCHECK_BENCH_CUDA_VENV"); e && *e) return std::string(e) + "/bin/python";
  const char* home = std::getenv("HOME");
  return std::string(home ? home : "/root") + "/.cache/gpucheck/bench-venvs/torch251-cu124/bin/python";
}

Command cuda_venv_cmd(const std::string& command, bool cold) {
  Command c{{kGpucheck, command, "--python", cuda_venv_python(), "--json"}, {}, ""};
  if (cold) c.fresh_dir_env = "XDG_CACHE_HOME";
  else c.set_env["XDG_CACHE_HOME"] = "/tmp/gpucheck-bench-warm-cache-cuda-venv";
  return c;
}

void CudaVenv(benchmark::State& state, std::string command, bool cold, bool vs_collect_env) {
  if (!need(state, cuda_venv_python(), "set GPUCHECK_BENCH_CUDA_VENV to a torch 2.5.1 + torchvision + torchaudio venv"))
    return;
  Command peer = vs_collect_env ? Command{{cuda_venv_python(), "-m", "torch.utils.collect_env"}, {}, ""}
                                : Command{{cuda_venv_python(), "-c", "import torch"}, {}, ""};
  // doctor exits 1 when it finds an error (no driver here): a verdict, not a failure to run.
  compare(state, cuda_venv_cmd(command, cold), peer, pairs(5),
          "`" + command + " --python VENV` (CUDA venv, " + (cold ? "cold" : "warm") + " cache) vs " +
              (vs_collect_env ? "`python -m torch.utils.collect_env`" : "`import torch`"),
          1);
}

// --- explain LOG vs explain --no-env LOG (and vs the one `import torch` its Python facts cost) --------------
// PATH=/usr/bin:/bin: the Python a fix's facts come from is the system one (Debian's torch), on both sides.
Command explain_cmd(const std::string& log, bool no_env) {
  Command c{{kGpucheck, "explain"}, {{"PATH", "/usr/bin:/bin"}}, ""};
  if (no_env) c.argv.push_back("--no-env");
  c.argv.push_back(log);
  return c;
}

std::string log_path(const std::string& log) { return std::string(GPUCHECK_SOURCE_DIR) + "/tests/data/logs/" + log; }

void Explain_vs_no_env(benchmark::State& state, std::string log, std::string what) {
  if (!need(state, log_path(log), "the explain test corpus")) return;
  compare(state, explain_cmd(log_path(log), false), explain_cmd(log_path(log), true), pairs(11),
          "`explain " + log + "` (" + what + ") vs `explain --no-env`");
}

void Explain_vs_import_torch(benchmark::State& state, std::string log, std::string what) {
  if (!need(state, log_path(log), "the explain test corpus")) return;
  if (!need(state, "/usr/lib/python3/dist-packages/torch", "Debian's torch (apt-get install python3-torch)")) return;
  compare(state, explain_cmd(log_path(log), false), Command{{"/usr/bin/python3", "-c", "import torch"}, {}, ""},
          pairs(5), "`explain " + log + "` (" + what + ") vs `python3 -c \"import torch\"`");
}

int register_all() {
  auto reg = [](const std::string& name, auto fn, auto... args) {
    benchmark::RegisterBenchmark(name.c_str(), fn, args...)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
  };
  reg("Abi/libcublasLt", Abi_cublasLt, std::vector<std::string>{}, false);
  reg("Abi/libcublasLt_gpu_sm_90", Abi_cublasLt, std::vector<std::string>{"--gpu", "sm_90"}, false);
  reg("Abi/libcublasLt_first_run", Abi_cublasLt, std::vector<std::string>{}, true);
  reg("Abi/bmtrain_nccl_C", Abi_extension, std::string("bmtrain/nccl/_C.cpython-311-x86_64-linux-gnu.so"),
      std::string("bmtrain/nccl/_C"));
  reg("Abi/torch_C", Abi_extension, std::string("torch/_C.cpython-311-x86_64-linux-gnu.so"), std::string("torch/_C"));
  reg("Env/warm_vs_import_torch", Env_vs_import_torch, false);
  reg("Env/cold_vs_import_torch", Env_vs_import_torch, true);
  reg("Env/warm_vs_collect_env", Env_vs_collect_env, false);
  for (const char* command : {"env", "doctor"})
    for (bool cold : {true, false}) {
      const std::string name = std::string("CudaVenv/") + command + (cold ? "_cold" : "_warm");
      reg(name + "_vs_import_torch", CudaVenv, std::string(command), cold, false);
      reg(name + "_vs_collect_env", CudaVenv, std::string(command), cold, true);
    }
  reg("Explain/unknown_log", Explain_vs_no_env, std::string("heldout-detectron2-5162.log"),
      std::string("unknown log: no machine fact"));
  reg("Explain/driver_fact", Explain_vs_no_env, std::string("local-no-driver-cudagetdevicecount.log"),
      std::string("asks env_driver_absent: no Python probe"));
  reg("Explain/python_facts", Explain_vs_import_torch, std::string("vllm-1060.log"),
      std::string("asks env_toolkit_root, kb_torch_install: one Python probe"));
  return 0;
}
const int kRegistered = register_all();

}  // namespace

BENCHMARK_MAIN();
