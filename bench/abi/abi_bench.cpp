// Audits a set of real libraries (Debian's LibTorch, the CUDA toolkit's libraries, Open MPI) with
// gpucheck abi and with `ldd -r` (the loader relocating everything: the baseline), in the same run, and
// prints the ratio. GPUCHECK_BENCH_ABI_LIBS=a.so:b.so overrides the set.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>

#include "checks/abi/audit.h"
#include "core/subprocess.h"
#include "core/text.h"

namespace {

using namespace gpucheck;

std::vector<std::string> library_set() {
  if (const char* env = std::getenv("GPUCHECK_BENCH_ABI_LIBS"); env && *env) return split(env, ':');
  std::vector<std::string> out;
  for (const char* p : {"/usr/lib/x86_64-linux-gnu/libtorch_cpu.so", "/usr/lib/x86_64-linux-gnu/libtorch.so",
                        "/usr/lib/x86_64-linux-gnu/libtorch_python.so", "/usr/lib/x86_64-linux-gnu/libc10.so",
                        "/usr/lib/x86_64-linux-gnu/libtorch_global_deps.so", "/usr/local/cuda/lib64/libcublas.so",
                        "/usr/local/cuda/lib64/libcublasLt.so", "/usr/local/cuda/lib64/libcudart.so",
                        "/usr/local/cuda/lib64/libcufft.so", "/usr/local/cuda/lib64/libcusparse.so",
                        "/usr/local/cuda/lib64/libcusolver.so", "/usr/local/cuda/lib64/libnccl.so",
                        "/usr/local/cuda/lib64/libcudnn.so", "/usr/local/cuda/lib64/libnvrtc.so",
                        "/usr/lib/x86_64-linux-gnu/libmpi.so"})
    if (std::filesystem::exists(p)) out.push_back(p);
  return out;
}

const std::vector<std::string>& libs() {
  static const std::vector<std::string> l = library_set();
  return l;
}

void BM_LddR(benchmark::State& state) {
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(300);
  for (auto _ : state)
    for (const auto& f : libs()) {
      auto r = run_subprocess({"ldd", "-r", f}, o);
      benchmark::DoNotOptimize(r.out.size());
      if (!r.started) state.SkipWithError("ldd did not start");
    }
  state.counters["libraries"] = static_cast<double>(libs().size());
}

void BM_GpucheckAbiInProcess(benchmark::State& state) {
  static platform::LdCache cache = platform::LdCache::load();
  std::size_t parsed = 0;
  for (auto _ : state) {
    abi::AuditOptions opt;  // a fresh auditor each time: no state kept across iterations
    opt.loader = abi::LoaderConfig::for_this_host(&cache);
    opt.gpus = {abi::parse_gpu_spec("sm_80"), abi::parse_gpu_spec("sm_90")};
    abi::Auditor a(opt);
    auto rep = a.audit_all(libs());
    parsed = rep.objects_parsed;
    benchmark::DoNotOptimize(rep.targets.size());
  }
  state.counters["libraries"] = static_cast<double>(libs().size());
  state.counters["elf_files_parsed"] = static_cast<double>(parsed);
}

void BM_GpucheckAbiCli(benchmark::State& state) {
  std::vector<std::string> argv{std::string(GPUCHECK_STAGE_BIN) + "/gpucheck", "abi", "--json", "--gpu", "sm_80,sm_90"};
  argv.insert(argv.end(), libs().begin(), libs().end());
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(300);
  for (auto _ : state) {
    auto r = run_subprocess(argv, o);
    if (!r.exited || r.exit_code > 1) state.SkipWithError(("gpucheck abi failed: " + r.err).c_str());
    benchmark::DoNotOptimize(r.out.size());
  }
}

BENCHMARK(BM_LddR)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_GpucheckAbiInProcess)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_GpucheckAbiCli)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

/// Keeps each benchmark's real time per iteration for the ratio printed at the end.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs)
      if (!r.error_occurred) seconds[r.benchmark_name()] = r.GetAdjustedRealTime();
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, double> seconds;
};

}  // namespace

int main(int argc, char** argv) {
  // `gpucheck bench` reads stdout as one JSON document: under --benchmark_format=json nothing else goes
  // there (the library set went first, and `bench --suite abi` ended with no verdict: "not valid JSON").
  bool json = false;
  for (int i = 1; i < argc; ++i) json = json || std::string(argv[i]) == "--benchmark_format=json";
  benchmark::Initialize(&argc, argv);
  std::cerr << "library set (" << libs().size() << "): " << join(libs(), " ") << "\n";
  if (json) {
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
  }
  RatioReporter rep;
  benchmark::RunSpecifiedBenchmarks(&rep);
  auto find = [&](const std::string& prefix) {
    for (const auto& [k, v] : rep.seconds)
      if (k.rfind(prefix, 0) == 0) return v;
    return 0.0;
  };
  double ldd = find("BM_LddR"), inproc = find("BM_GpucheckAbiInProcess"), cli = find("BM_GpucheckAbiCli");
  if (ldd > 0 && inproc > 0) std::printf("ratio ldd -r / gpucheck abi (in process): %.2fx\n", ldd / inproc);
  if (ldd > 0 && cli > 0) std::printf("ratio ldd -r / gpucheck abi (CLI, one process for the set): %.2fx\n", ldd / cli);
  benchmark::Shutdown();
  return 0;
}
