// device.memory: most of every GPU's free memory written with address- and pattern-dependent values and
// read back word by word. Any wrong word fails the GPU, with its address, the expected and the read value.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "common/cuda_support.h"
#include "common/device_identity.h"
#include "memtest/memtest_cuda.h"
#include "memtest/memtest_host.h"
#include "probe/probe.h"

namespace {

using namespace gpucheck;
using namespace gpucheck::kernels;

struct Options {
  double share = 0.8;         // of cudaMemGetInfo's free bytes
  std::size_t chunk = 1ULL << 30;
  int repeat = 1;
  unsigned keep = 16;         // bad words reported per GPU
};

double number_arg(const probe::Context& ctx, const std::string& name, double fallback, double lo, double hi) {
  std::string v = ctx.arg(name);
  if (v.empty()) return fallback;
  char* end = nullptr;
  double d = std::strtod(v.c_str(), &end);
  if (!end || *end || !(d >= lo && d <= hi))
    throw std::invalid_argument(name + " must be a number in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                "], got '" + v + "'");
  return d;
}

Options parse(const probe::Context& ctx) {
  Options o;
  o.share = ctx.level == "quick" ? 0.25 : ctx.level == "long" ? 0.9 : 0.8;
  o.repeat = ctx.level == "long" ? 3 : 1;
  o.share = number_arg(ctx, "--share", o.share, 0.001, 0.95);
  o.chunk = static_cast<std::size_t>(number_arg(ctx, "--chunk-mib", 1024, 1, 65536)) << 20;
  o.repeat = static_cast<int>(number_arg(ctx, "--repeat", o.repeat, 1, 1000));
  o.keep = static_cast<unsigned>(number_arg(ctx, "--max-report", 16, 1, 4096));
  return o;
}

struct Chunk {
  void* ptr = nullptr;
  std::size_t bytes = 0;
};

// Frees every chunk however the test ends (an exception included).
struct Chunks {
  std::vector<Chunk> list;
  ~Chunks() {
    for (auto& c : list) cudaFree(c.ptr);
  }
};

DeviceFinding test_device(int dev, const Options& o, const std::vector<PatternSpec>& plan) {
  DeviceFinding d;
  set_device_identity(d, dev);
  probe::phase("cudaSetDevice + cudaMemGetInfo on GPU " + std::to_string(dev), {dev});
  cuda_check(cudaSetDevice(dev), "cudaSetDevice");
  std::size_t free_b = 0, total_b = 0;
  cuda_check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  std::size_t target = static_cast<std::size_t>(static_cast<double>(free_b) * o.share) & ~std::size_t(4095);
  Chunks chunks;
  std::size_t got = 0;
  std::string short_by;
  probe::phase("cudaMalloc " + std::to_string(target >> 20) + " MiB on GPU " + std::to_string(dev), {dev});
  while (got < target) {
    std::size_t want = std::min(o.chunk, target - got);
    void* p = nullptr;
    cudaError_t e = cudaMalloc(&p, want);
    if (e != cudaSuccess) {  // out of memory is not sticky: test what was allocated, say how much
      cudaGetLastError();
      short_by = cuda_error_text(e);
      break;
    }
    chunks.list.push_back({p, want});
    got += want;
  }
  if (got == 0) throw CudaError("cudaMalloc of the first chunk failed: " + short_by);
  DeviceBuffer count(sizeof(unsigned long long)), first(sizeof(BadWord) * o.keep);
  std::map<std::string, std::uint64_t> per_kind;
  std::vector<BadWord> bad;
  std::uint64_t total_bad = 0;
  for (int rep = 0; rep < o.repeat; ++rep) {
    for (const PatternSpec& p : plan) {
      // Fill every chunk, then verify every chunk: each word waits while the rest of memory is written.
      probe::phase("pattern " + describe(p) + ", pass " + std::to_string(rep + 1) + " on GPU " + std::to_string(dev), {dev});
      for (auto& c : chunks.list)
        cuda_check(launch_pattern_fill(p, static_cast<std::uint64_t*>(c.ptr), c.bytes / 8, nullptr), "fill launch");
      cuda_check(cudaMemset(count.get(), 0, count.bytes()), "cudaMemset");
      for (auto& c : chunks.list)
        cuda_check(launch_pattern_verify(p, static_cast<const std::uint64_t*>(c.ptr), c.bytes / 8,
                                         count.as<unsigned long long>(), first.as<BadWord>(), o.keep, nullptr),
                   "verify launch");
      cuda_check(cudaDeviceSynchronize(), ("pattern " + describe(p)).c_str());
      unsigned long long n = 0;
      count.download(&n, sizeof n);
      if (n == 0) continue;
      per_kind[to_string(p.kind)] += n;
      total_bad += n;
      std::vector<BadWord> found(std::min<unsigned long long>(n, o.keep));
      first.download(found.data(), found.size() * sizeof(BadWord));
      for (auto& w : found)
        if (bad.size() < o.keep) bad.push_back(w);
      d.evidence[describe(p) + (o.repeat > 1 ? " repeat " + std::to_string(rep + 1) : "")] =
          std::to_string(n) + " bad words";
    }
  }
  d.metrics.push_back({"bad_addresses", static_cast<double>(total_bad), "count", "lower"});
  d.metrics.push_back({"tested_GiB", static_cast<double>(got) / (1ULL << 30), "GiB", ""});
  d.evidence["tested"] = std::to_string(got >> 20) + " MiB in " + std::to_string(chunks.list.size()) +
                         " chunks of " + std::to_string(free_b >> 20) + " MiB free (" + std::to_string(total_b >> 20) +
                         " MiB total)" + (short_by.empty() ? "" : "; allocation stopped early: " + short_by);
  for (auto& [kind, n] : per_kind) d.evidence["bad words: " + kind] = std::to_string(n);
  for (std::size_t i = 0; i < bad.size(); ++i)
    d.evidence["bad address " + std::to_string(i + 1)] = hex64(bad[i].address) + ": expected " +
        hex64(bad[i].expected) + ", read " + hex64(bad[i].got) + " (bits " + hex64(bad[i].expected ^ bad[i].got) + ")";
  d.status = total_bad ? Status::kFail : Status::kPass;
  d.summary = total_bad ? std::to_string(total_bad) + " bad words in " + std::to_string(got >> 20) + " MiB"
                        : std::to_string(got >> 20) + " MiB, " + std::to_string(plan.size() * o.repeat) +
                              " patterns, every word verified";
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  return probe::run(argc, argv, [](const probe::Context& ctx, Finding& r) {
    Options o = parse(ctx);
    if (!require_gpu(r)) return;
    int count = 0;
    cuda_check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    auto plan = memtest_plan(ctx.level);
    r.evidence["patterns"] = std::to_string(plan.size()) + " per repeat (" + describe(plan.front()) + " ... " +
                             describe(plan.back()) + "), " + std::to_string(o.repeat) + " repeat(s), share " +
                             std::to_string(o.share).substr(0, 4) + " of free memory";
    Status overall = Status::kPass;
    std::uint64_t bad_total = 0;
    for (int dev = 0; dev < count; ++dev) {
      DeviceFinding d;
      try {
        d = test_device(dev, o, plan);
      } catch (const CudaError& e) {
        // An uncorrectable ECC error surfaces as a CUDA error: that is this probe's finding, not a crash.
        std::string what = e.what();
        if (what.find("cudaErrorECCUncorrectable") == std::string::npos) throw;
        set_device_identity(d, dev);
        d.status = Status::kFail;
        d.summary = what;
        d.metrics.push_back({"bad_addresses", 1, "count", "lower"});
      }
      for (auto& m : d.metrics)
        if (m.name == "bad_addresses") bad_total += static_cast<std::uint64_t>(m.value);
      overall = worst(overall, d.status);
      r.devices.push_back(std::move(d));
    }
    r.status = overall;
    r.summary = std::to_string(count) + " GPU(s): " +
                (bad_total ? std::to_string(bad_total) + " bad words (first addresses in the evidence)"
                           : "every word of every pattern read back as written");
  });
}
