// stress.gemm: every GPU runs the same product back to back for the whole duration, each result compared
// bit for bit with its first one (same GPU, same algorithm, same inputs: any difference is corruption),
// while NVML is sampled. One thread per GPU; no exception leaves a thread and every thread is joined.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/cuda_support.h"
#include "common/device_identity.h"
#include "core/peer_outlier.h"
#include "core/text.h"
#include "gemm/cublaslt.h"
#include "gemm/gemm_cuda.h"
#include "hwmon/nvml_lite.h"
#include "hwstats/measure_stats.h"
#include "hwstats/stress_rules.h"
#include "probe/probe.h"

namespace {

using namespace gpucheck;
using namespace gpucheck::kernels;
using Clock = std::chrono::steady_clock;

const PeerRule kPeerRule{};  // THE peer rule (core/peer_outlier.h) with the thresholds' defaults
constexpr int kBatch = 4;           // products queued between host checks

std::string num(double v) {
  std::ostringstream o;
  o << std::setprecision(4) << v;
  return o.str();
}

struct GpuRun {
  int dev = 0;
  std::string error;                  // what stopped it early; "" when it ran the whole duration
  std::uint64_t products = 0;
  unsigned long long mismatches = 0;  // 32-bit words different from the first product, summed over products
  std::uint64_t first_bad_product = 0;
  double seconds = 0;
  std::vector<double> batch_seconds;  // wall time of each batch of kBatch products (compare included)
  std::vector<NvmlSample> samples;
};

struct Options {
  double duration_s = 60;
  std::int64_t n = 8192;
};

void stress_one(const CublasLtApi& api, const Options& o, const std::atomic<bool>& stop, std::atomic<int>& finished,
                GpuRun& run) {
  try {
    cuda_check(cudaSetDevice(run.dev), "cudaSetDevice");
    LtHandle handle(api);
    cublasLtHandle_t h = handle.get();
    const std::size_t elems = std::size_t(o.n) * o.n;
    LtMatmul mm(api, h, GemmType::kBf16, o.n, o.n, o.n);
    if (!mm.supported()) throw CublasLtError(mm.unsupported_reason());
    DeviceBuffer a(elems * 2), b(elems * 2), first(elems * 4), again(elems * 4), bad(sizeof(unsigned long long));
    cudaStream_t st = nullptr;
    cuda_check(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), "cudaStreamCreate");
    struct StreamGuard {
      cudaStream_t s;
      ~StreamGuard() { cudaStreamDestroy(s); }
    } sguard{st};
    cuda_check(launch_gemm_fill(GemmType::kBf16, a.get(), elems, 101, st), "fill A");
    cuda_check(launch_gemm_fill(GemmType::kBf16, b.get(), elems, 202, st), "fill B");
    cuda_check(cudaMemsetAsync(bad.get(), 0, bad.bytes(), st), "cudaMemset");
    mm.run(a.get(), b.get(), first.as<float>(), st);
    cuda_check(cudaStreamSynchronize(st), "first product");
    auto t0 = Clock::now();
    unsigned long long seen = 0;
    while (!stop.load()) {
      auto b0 = Clock::now();
      for (int i = 0; i < kBatch; ++i) {
        mm.run(a.get(), b.get(), again.as<float>(), st);
        cuda_check(launch_compare_words(first.as<std::uint32_t>(), again.as<std::uint32_t>(), elems,
                                        bad.as<unsigned long long>(), st), "compare launch");
      }
      cuda_check(cudaStreamSynchronize(st), "stress products");
      run.products += kBatch;
      run.batch_seconds.push_back(std::chrono::duration<double>(Clock::now() - b0).count());
      cuda_check(cudaMemcpy(&seen, bad.get(), sizeof seen, cudaMemcpyDeviceToHost), "read mismatches");
      if (seen && !run.mismatches) run.first_bad_product = run.products;  // within the last batch
      run.mismatches = seen;
      run.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      if (run.seconds >= o.duration_s) break;
    }
  } catch (const std::exception& e) {
    run.error = e.what();
  } catch (...) {
    run.error = "unknown exception";
  }
  ++finished;
}

Options parse(const probe::Context& ctx) {
  Options o;
  // --duration, else GPUCHECK_STRESS_S (how `gpucheck run --level long` and gpu-check set it), else 60.
  std::string v = ctx.arg("--duration");
  if (const char* env = std::getenv("GPUCHECK_STRESS_S"); v.empty() && env && *env) v = env;
  if (!v.empty()) {
    char* end = nullptr;
    o.duration_s = std::strtod(v.c_str(), &end);
    if (!end || *end || !(o.duration_s >= 1 && o.duration_s <= 86400))
      throw std::invalid_argument("--duration must be seconds in [1, 86400], got '" + v + "'");
  }
  if (v = ctx.arg("--size"); !v.empty()) {
    o.n = std::atoll(v.c_str());
    if (o.n < 256 || o.n > 32768 || o.n % 16) throw std::invalid_argument("--size must be a multiple of 16 in [256, 32768], got '" + v + "'");
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  return probe::run(argc, argv, [](const probe::Context& ctx, Finding& r) {
    Options o = parse(ctx);
    if (!require_gpu(r)) return;
    CublasLtApi api;
    if (!load_cublaslt(api)) {
      r.evidence["tried"] = join(api.tried, "\n");
      return probe::skip(r, "no usable cuBLASLt: " + cublaslt_soname() + " could not be loaded (" +
                                (api.tried.empty() ? std::string("no candidate") : api.tried.front()) + ")");
    }
    r.evidence["cublasLt"] = api.path + " (version " + std::to_string(api.version) + ")";
    int count = 0;
    cuda_check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    NvmlLite nvml;
    std::vector<void*> nvml_dev(count, nullptr);
    for (int d = 0; d < count; ++d) {
      char bus[32] = {0};
      if (cudaDeviceGetPCIBusId(bus, sizeof bus, d) == cudaSuccess) nvml_dev[d] = nvml.device_by_pci_bus_id(bus);
    }
    if (!nvml.ok()) r.evidence["nvml"] = "no clocks, power or temperature samples: " + nvml.why();

    std::vector<GpuRun> runs(count);
    std::atomic<bool> stop{false};
    std::atomic<int> finished{0};
    {
      std::vector<std::thread> threads;
      // Joins every started thread however this scope ends; stop first so none outlives a failure here.
      struct Joiner {
        std::vector<std::thread>& t;
        std::atomic<bool>& stop;
        ~Joiner() {
          stop = true;
          for (auto& th : t)
            if (th.joinable()) th.join();
        }
      } joiner{threads, stop};
      for (int d = 0; d < count; ++d) {
        runs[d].dev = d;
        threads.emplace_back(stress_one, std::cref(api), std::cref(o), std::cref(stop), std::ref(finished),
                             std::ref(runs[d]));
      }
      // Sample once a second until every GPU has finished (each stops itself after the duration).
      while (finished.load() < count) {
        std::this_thread::sleep_for(std::chrono::seconds(1));
        for (int d = 0; d < count; ++d)
          if (nvml_dev[d]) runs[d].samples.push_back(nvml.sample(nvml_dev[d]));
      }
      stop = true;
    }

    // Sustained TFLOP/s: the median over the run's batches. The peer rule compares only GPUs that ran.
    std::vector<double> tflops(count, 0), measured;
    std::vector<int> measured_dev;
    for (auto& run : runs) {
      std::vector<double> per_batch;
      for (double s : run.batch_seconds)
        if (s > 0) per_batch.push_back(2.0 * double(o.n) * o.n * o.n * kBatch / s / 1e12);
      if (per_batch.empty()) continue;
      tflops[run.dev] = summarize(per_batch).median;
      measured.push_back(tflops[run.dev]);
      measured_dev.push_back(run.dev);
    }
    std::vector<std::size_t> slow;
    const PeerJudgement peers = judge_peers(measured, kPeerRule);
    std::vector<double> peer_z(count, 0);
    for (std::size_t i = 0; i < measured.size() && peers.judged; ++i) {
      peer_z[measured_dev[i]] = peers.z[i];
      if (peers.low[i]) slow.push_back(std::size_t(measured_dev[i]));
    }
    if (!peers.judged)
      r.evidence["peers"] = std::to_string(measured.size()) + " GPU(s) measured: fewer than " +
                            std::to_string(kPeerRule.min_peers) + ", no peer verdict";
    Status overall = Status::kPass;
    std::uint64_t total_mismatch = 0;
    for (auto& run : runs) {
      DeviceFinding d;
      set_device_identity(d, run.dev);
      d.evidence["dtype"] = "bf16";  // bf16 inputs, fp32 accumulate and output
      if (run.products) d.metrics.push_back({"mismatches", static_cast<double>(run.mismatches), "count", "lower"});
      if (tflops[run.dev] > 0) d.metrics.push_back({"tflops_sustained", tflops[run.dev], "TFLOP/s", "higher"});
      d.evidence["products"] = std::to_string(run.products) + " in " + std::to_string(run.seconds).substr(0, 6) + " s";
      std::vector<std::optional<unsigned long long>> reasons;
      std::vector<double> clocks, watts, temps;
      unsigned long long ever = 0;
      for (auto& s : run.samples) {
        reasons.push_back(s.clocks_event_reasons);
        if (s.clocks_event_reasons) ever |= *s.clocks_event_reasons;
        if (s.sm_clock_mhz) clocks.push_back(*s.sm_clock_mhz);
        if (s.power_mw) watts.push_back(*s.power_mw / 1000.0);
        if (s.temperature_c) temps.push_back(*s.temperature_c);
      }
      if (!clocks.empty()) {
        RunStats c = summarize(clocks);
        d.metrics.push_back({"sm_clock_median_MHz", c.median, "MHz", ""});
        d.evidence["sm_clock"] = "median " + std::to_string(int(c.median)) + " MHz, min " + std::to_string(int(c.min)) +
                                 ", max " + std::to_string(int(c.max)) + " (" + std::to_string(c.n) + " samples)";
      }
      if (!watts.empty()) d.metrics.push_back({"power_median_W", summarize(watts).median, "W", ""});
      if (!temps.empty()) d.metrics.push_back({"temperature_max_C", summarize(temps).max, "C", ""});
      bool persists = throttle_persists(reasons, kClocksEventSlowdownMask);
      std::string slowdown = describe_slowdown(ever);
      if (!slowdown.empty()) d.evidence["slowdown_seen"] = slowdown + (persists ? " (still set at the end)" : " (cleared)");
      total_mismatch += run.mismatches;
      std::vector<std::string> why;
      Status s = Status::kPass;
      if (!run.error.empty()) {
        s = Status::kFail;
        why.push_back("stopped after " + std::to_string(run.products) + " products: " + run.error);
      }
      if (run.mismatches) {
        s = Status::kFail;
        why.push_back(std::to_string(run.mismatches) + " words differ from the first product (first in products " +
                      std::to_string(run.first_bad_product - kBatch + 1) + "-" + std::to_string(run.first_bad_product) + ")");
      }
      if (persists) {
        s = Status::kFail;
        unsigned long long last = 0;  // the last sample that had a reading (persists implies one)
        for (auto& rs : reasons)
          if (rs) last = *rs;
        why.push_back("clocks still slowed at the end: " + describe_slowdown(last));
      }
      if (std::find(slow.begin(), slow.end(), std::size_t(run.dev)) != slow.end()) {
        s = Status::kFail;
        why.push_back(num(tflops[run.dev]) + " TFLOP/s, a low outlier among " + std::to_string(measured.size()) +
                      " GPUs: median " + num(peers.median) + ", MAD " + num(peers.mad) + ", robust z " +
                      num(peer_z[run.dev]) + ", below (1 - " + num(kPeerRule.min_relative) + ") x median = " +
                      num(peers.floor));
      }
      if (s == Status::kPass && !slowdown.empty()) s = Status::kWarn;
      d.status = s;
      d.summary = why.empty() ? std::to_string(run.products) + " products bit-identical, " +
                                    std::to_string(tflops[run.dev]).substr(0, 6) + " TFLOP/s sustained" +
                                    (slowdown.empty() ? "" : "; slowed (" + slowdown + ") but it cleared")
                              : join(why, "; ");
      overall = worst(overall, s);
      r.devices.push_back(std::move(d));
    }
    r.details = {{"size", o.n}, {"type", "bf16 in, fp32 out"}, {"duration_s", o.duration_s},
                 {"peer_rule", {{"z", kPeerRule.outlier_z}, {"min_relative", kPeerRule.min_relative},
                                {"min_peers", kPeerRule.min_peers}}}};
    r.status = overall;
    r.summary = std::to_string(count) + " GPU(s) for " + std::to_string(int(o.duration_s)) + " s: " +
                (total_mismatch ? std::to_string(total_mismatch) + " mismatching words (silent data corruption)"
                                : overall == Status::kFail ? "a GPU failed (see the GPUs)"
                                                           : "every product bit-identical to the first");
  });
}
