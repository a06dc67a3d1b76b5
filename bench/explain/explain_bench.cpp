// Throughput of `explain` on a 64 MiB synthetic log (realistic pip/nvcc/training lines with ANSI colour,
// pip boxes and a few real errors), reported against two baselines measured in the same run:
//   BM_BaselineLineSplit  memchr line splitting (the least any line-oriented tool must do)
//   BM_BaselineCopyLines  line splitting + copying each line into a std::string
// The scans report `vs_line_split` = their bytes/s divided by the line-split baseline's, measured on the same
// bytes right before them.
// BM_ExplainNoAutomaton shows what the Aho-Corasick prefilter saves (same rules, naive literal search).
// BM_ExplainAdversarial scans 8 MiB of the shape that made std::regex backtrack (lines of 'A ' * 2000
// followed by a signature's literal): with RE2 it stays within a small factor of noise.
#include <algorithm>
#include <cstring>
#include <ctime>
#include <string>

#include <benchmark/benchmark.h>

#include "checks/explain/log_scanner.h"
#include "checks/explain/signature.h"

namespace {

using gpucheck::explain::LogScanner;
using gpucheck::explain::ScanOptions;

const std::vector<gpucheck::explain::Signature>& signatures() {
  static const auto s = gpucheck::explain::load_signatures(std::string(GPUCHECK_SOURCE_DIR) + "/data/signatures");
  return s;
}

const std::string& corpus() {
  static const std::string text = [] {
    const char* lines[] = {
        "      copying bmtrain/optim/adam.py -> build/lib.linux-x86_64-cpython-310/bmtrain/optim\n",
        "  Downloading nvidia_cublas_cu12-12.1.3.1-py3-none-manylinux1_x86_64.whl (410.6 MB)\n",
        "[2024-01-01 10:00:00,000] [INFO] [engine.py:123:step] step=100 loss=2.3461 lr=0.0001\n",
        "/usr/local/cuda/bin/nvcc -I/opt/torch/include -c csrc/kernel.cu -o build/kernel.o -O3 --use_fast_math\n",
        "\x1b[32mRequirement already satisfied: numpy in ./venv/lib/python3.10/site-packages (1.26.4)\x1b[0m\n",
        "  \xe2\x94\x82 exit code: 1\n",
        "        File \"/tmp/pip-install-b8c4nobc/bmtrain_56a2/setup.py\", line 74, in <module>\n",
        "warning: variable 'x' set but not used [-Wunused-but-set-variable]\r\n",
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n",
        "ERROR: No matching distribution found for torch==1.8.1\n"};
    std::string t;
    std::size_t k = 0;
    while (t.size() < (64u << 20)) {
      // Errors are rare in real logs: one of the last two lines per 400.
      t += lines[(k % 400 == 399) ? 8 + (k / 400) % 2 : k % 8];
      ++k;
    }
    return t;
  }();
  return text;
}

// Lines of 'A ' * 2000 followed by each pattern's first literal in turn (tests/checks/explain/explain_linear_time_test).
const std::string& adversarial() {
  static const std::string text = [] {
    std::vector<std::string> tails;
    for (const auto& sig : signatures())
      for (const auto& p : sig.patterns) tails.push_back(p.literals.front());
    std::string filler;
    for (int i = 0; i < 2000; ++i) filler += "A ";
    std::string t;
    for (std::size_t k = 0; t.size() < (8u << 20); ++k) t += filler + tails[k % tails.size()] + "\n";
    return t;
  }();
  return text;
}

std::size_t split_lines(std::string_view t) {
  std::size_t lines = 0;
  const char* p = t.data();
  const char* end = p + t.size();
  while (p < end) {
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
    if (!nl) break;
    ++lines;
    p = static_cast<const char*>(nl) + 1;
  }
  return lines;
}

// CPU time of this thread: the build machine is shared, and wall time there measures the neighbours too.
// Baseline and scan are timed the same way, so their ratio holds either way.
double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Bytes per second of the line-split baseline over `t`: best of 5 passes, measured when asked.
double line_split_rate(std::string_view t) {
  double best = 1e30;
  for (int i = 0; i < 5; ++i) {
    double t0 = cpu_now();
    benchmark::DoNotOptimize(split_lines(t));
    best = std::min(best, cpu_now() - t0);
  }
  return static_cast<double>(t.size()) / best;
}

void BM_BaselineLineSplit(benchmark::State& state) {
  const std::string& t = corpus();
  for (auto _ : state) benchmark::DoNotOptimize(split_lines(t));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * t.size()));
}

void BM_BaselineCopyLines(benchmark::State& state) {
  const std::string& t = corpus();
  for (auto _ : state) {
    std::string line;
    std::size_t total = 0, pos = 0;
    while (pos < t.size()) {
      std::size_t nl = t.find('\n', pos);
      if (nl == std::string::npos) nl = t.size();
      line.assign(t, pos, nl - pos);
      total += line.size();
      pos = nl + 1;
    }
    benchmark::DoNotOptimize(total);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * t.size()));
}

// Manual timing (thread CPU time), so the scan's rate can be divided by the baseline's measured just before.
void scan(benchmark::State& state, ScanOptions options, std::size_t bytes, const std::string& t = corpus()) {
  std::string_view input(t.data(), std::min(bytes, t.size()));
  double baseline = line_split_rate(input);
  std::size_t causes = 0;
  double total = 0;
  for (auto _ : state) {
    double t0 = cpu_now();
    LogScanner s(signatures(), options);
    for (std::size_t i = 0; i < input.size(); i += 1u << 20) s.feed(input.substr(i, 1u << 20));
    s.finish();
    for (const auto& h : s.hits()) causes += h.hits > 0;
    double secs = cpu_now() - t0;
    total += secs;
    state.SetIterationTime(secs);
  }
  benchmark::DoNotOptimize(causes);
  double bytes_done = static_cast<double>(state.iterations()) * static_cast<double>(input.size());
  state.SetBytesProcessed(static_cast<int64_t>(bytes_done));
  state.counters["MB_per_s"] = bytes_done / total / 1e6;
  state.counters["line_split_MB_per_s"] = baseline / 1e6;
  state.counters["vs_line_split"] = bytes_done / total / baseline;
}

void BM_ExplainScan(benchmark::State& state) { scan(state, {}, corpus().size()); }
void BM_ExplainNoAutomaton(benchmark::State& state) { scan(state, ScanOptions{false}, 4u << 20); }
void BM_ExplainAdversarial(benchmark::State& state) { scan(state, {}, adversarial().size(), adversarial()); }

}  // namespace

BENCHMARK(BM_BaselineLineSplit)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_BaselineCopyLines)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_ExplainScan)->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseManualTime();
BENCHMARK(BM_ExplainNoAutomaton)->Unit(benchmark::kMillisecond)->MinTime(1.0)->UseManualTime();
BENCHMARK(BM_ExplainAdversarial)->Unit(benchmark::kMillisecond)->MinTime(1.0)->UseManualTime();

BENCHMARK_MAIN();
