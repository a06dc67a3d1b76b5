// device.copy: how fast data moves between host and GPU, within a GPU and between GPUs, and that every
// copy delivered exactly what was sent. Each run copies a fresh seeded xorshift pattern and verifies the
// destination afterwards (on the GPU for device destinations, on the host for D2H).
#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/cuda_support.h"
#include "common/device_identity.h"
#include "core/measurement_details.h"
#include "core/paths.h"
#include "core/pcie_rates.h"
#include "hwmon/nvml_lite.h"
#include "hwstats/measure_stats.h"
#include "memtest/memtest_cuda.h"
#include "memtest/memtest_host.h"
#include "probe/probe.h"

namespace {

using namespace gpucheck;
using namespace gpucheck::kernels;

struct Options {
  std::size_t bytes = 256u << 20;
  int runs = 10;
};

struct Stream {
  cudaStream_t s = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  explicit Stream(int dev) {
    cuda_check(cudaSetDevice(dev), "cudaSetDevice");
    cuda_check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
    cuda_check(cudaEventCreate(&start), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
  }
  ~Stream() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaStreamDestroy(s);
  }
};

struct PinnedHost {
  void* p = nullptr;
  explicit PinnedHost(std::size_t bytes) { cuda_check(cudaMallocHost(&p, bytes), "cudaMallocHost"); }
  ~PinnedHost() { cudaFreeHost(p); }
};

// Per GPU: two buffers, a stream with its events, a wrong-word counter.
struct Gpu {
  int dev;
  std::unique_ptr<DeviceBuffer> a, b, bad;
  std::unique_ptr<Stream> stream;
};

PatternSpec pattern_for(int dev, int kind, int run) {
  return {MemPattern::kXorshift, 0, (std::uint64_t(dev) << 40) | (std::uint64_t(kind) << 24) | std::uint64_t(run)};
}

// Times one copy on the GPU's stream; returns seconds.
template <typename Copy>
double timed(Stream& st, Copy&& copy, const char* what) {
  cuda_check(cudaEventRecord(st.start, st.s), "cudaEventRecord");
  cuda_check(copy(), what);
  cuda_check(cudaEventRecord(st.stop, st.s), "cudaEventRecord");
  cuda_check(cudaEventSynchronize(st.stop), what);
  float ms = 0;
  cuda_check(cudaEventElapsedTime(&ms, st.start, st.stop), "cudaEventElapsedTime");
  return ms * 1e-3;
}

// Wrong words in a device buffer under pattern p (verified on that buffer's GPU).
unsigned long long verify_device(Gpu& g, const void* data, std::size_t bytes, const PatternSpec& p) {
  cuda_check(cudaSetDevice(g.dev), "cudaSetDevice");
  cuda_check(cudaMemsetAsync(g.bad->get(), 0, sizeof(unsigned long long), g.stream->s), "cudaMemset");
  BadWord* none = nullptr;
  cuda_check(launch_pattern_verify(p, static_cast<const std::uint64_t*>(data), bytes / 8,
                                   g.bad->as<unsigned long long>(), none, 0, g.stream->s), "verify launch");
  cuda_check(cudaStreamSynchronize(g.stream->s), "verify");
  unsigned long long n = 0;
  cuda_check(cudaMemcpy(&n, g.bad->get(), sizeof n, cudaMemcpyDeviceToHost), "read the wrong-word count");
  return n;
}

struct Direction {
  std::string metric;  // h2d_pinned_GBps
  std::vector<double> gbps;
  unsigned long long wrong = 0;
  std::string first_wrong;
};

void record(DeviceFinding& d, const Direction& dir, std::optional<double> link, measured::CopyDevice& details) {
  RunStats s = summarize(dir.gbps);
  d.metrics.push_back({dir.metric, s.median, "GB/s", "higher"});
  std::string base = dir.metric.substr(0, dir.metric.size() - 5);  // without _GBps
  details.directions.push_back({base, s.median, s.cv, s.min, s.max, s.n, dir.wrong, link});
  std::string ev = std::to_string(s.median).substr(0, 6) + " GB/s median of " + std::to_string(s.n) + ", cv " +
                   std::to_string(s.cv).substr(0, 5);
  if (link) {
    d.metrics.push_back({base + "_link_ratio", s.median / *link, "ratio", "higher"});
    ev += ", " + std::to_string(s.median / *link).substr(0, 5) + " of the link's " + std::to_string(*link).substr(0, 5) + " GB/s";
  }
  d.evidence[base] = ev + (dir.wrong ? ", " + std::to_string(dir.wrong) + " WRONG words" : ", every copy verified");
}

}  // namespace

int main(int argc, char** argv) {
  return probe::run(argc, argv, [](const probe::Context& ctx, Finding& r) {
    Options o;
    o.bytes = std::size_t(ctx.level == "quick" ? 64 : ctx.level == "long" ? 1024 : 256) << 20;
    o.runs = ctx.level == "quick" ? 5 : ctx.level == "long" ? 20 : 10;
    if (std::string v = ctx.arg("--size-mib"); !v.empty()) {
      long long m = std::atoll(v.c_str());
      if (m < 1 || m > 16384) throw std::invalid_argument("--size-mib must be in [1, 16384], got '" + v + "'");
      o.bytes = std::size_t(m) << 20;
    }
    if (std::string v = ctx.arg("--runs"); !v.empty()) {
      o.runs = std::atoi(v.c_str());
      if (o.runs < 1 || o.runs > 1000) throw std::invalid_argument("--runs must be in [1, 1000], got '" + v + "'");
    }
    if (!require_gpu(r)) return;
    int count = 0;
    cuda_check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    const std::size_t words = o.bytes / 8;

    std::optional<PcieRates> rates;
    try {
      rates = load_pcie_rates(data_path("links/pcie.json"));
    } catch (const std::exception& e) {
      r.evidence["pcie_rates"] = std::string("no link ratios: ") + e.what();
    }
    NvmlLite nvml;
    if (!nvml.ok()) r.evidence["nvml"] = "no PCIe link facts (no link ratios): " + nvml.why();

    PinnedHost pinned(o.bytes);
    std::vector<std::uint64_t> pageable(words);
    std::vector<Gpu> gpus;
    for (int dev = 0; dev < count; ++dev) {
      Gpu g{dev, nullptr, nullptr, nullptr, nullptr};
      cuda_check(cudaSetDevice(dev), "cudaSetDevice");
      g.a = std::make_unique<DeviceBuffer>(o.bytes);
      g.b = std::make_unique<DeviceBuffer>(o.bytes);
      g.bad = std::make_unique<DeviceBuffer>(sizeof(unsigned long long));
      g.stream = std::make_unique<Stream>(dev);
      gpus.push_back(std::move(g));
    }
    std::vector<measured::CopyDevice> details;
    Status overall = Status::kPass;
    std::vector<DeviceFinding> found(count);
    std::vector<unsigned long long> wrong_by_dev(count, 0);
    for (Gpu& g : gpus) {
      DeviceFinding& d = found[g.dev];
      set_device_identity(d, g.dev);
      measured::CopyDevice dj{d.device, {}};
      std::optional<double> link;
      char bus[32] = {0};
      if (cudaDeviceGetPCIBusId(bus, sizeof bus, g.dev) == cudaSuccess) {
        PcieLink l = nvml.pcie(nvml.device_by_pci_bus_id(bus));
        if (l.max_gen && l.max_width) {
          d.evidence["pcie_link"] = "gen " + std::to_string(*l.max_gen) + " x" + std::to_string(*l.max_width) +
              " (maximum)" + (l.current_gen && l.current_width ? ", now gen " + std::to_string(*l.current_gen) + " x" +
                              std::to_string(*l.current_width) : "");
          if (rates) link = rates->link_GBps(*l.max_gen, *l.max_width);
        }
      }
      Stream& st = *g.stream;
      for (bool is_pinned : {true, false}) {
        std::uint64_t* host = is_pinned ? static_cast<std::uint64_t*>(pinned.p) : pageable.data();
        std::string kind = is_pinned ? "pinned" : "pageable";
        Direction h2d{"h2d_" + kind + "_GBps", {}, 0, ""}, d2h{"d2h_" + kind + "_GBps", {}, 0, ""};
        probe::phase("cudaMemcpy host<->device (" + kind + ", " + std::to_string(o.bytes >> 20) + " MiB) on GPU " +
                     std::to_string(g.dev), {g.dev});
        for (int run = 0; run < o.runs; ++run) {
          PatternSpec p = pattern_for(g.dev, is_pinned ? 1 : 2, run);
          fill_host(p, host, words, 0);
          cuda_check(cudaSetDevice(g.dev), "cudaSetDevice");
          h2d.gbps.push_back(gigabytes_per_s(o.bytes, timed(st, [&] {
            return cudaMemcpyAsync(g.a->get(), host, o.bytes, cudaMemcpyHostToDevice, st.s); }, "H2D copy")));
          if (auto n = verify_device(g, g.a->get(), o.bytes, p)) {
            h2d.wrong += n;
            if (h2d.first_wrong.empty()) h2d.first_wrong = "run " + std::to_string(run + 1) + ": " + std::to_string(n) + " wrong words";
          }
          PatternSpec q = pattern_for(g.dev, is_pinned ? 3 : 4, run);
          cuda_check(launch_pattern_fill(q, g.a->as<std::uint64_t>(), words, st.s), "fill launch");
          cuda_check(cudaStreamSynchronize(st.s), "fill");
          d2h.gbps.push_back(gigabytes_per_s(o.bytes, timed(st, [&] {
            return cudaMemcpyAsync(host, g.a->get(), o.bytes, cudaMemcpyDeviceToHost, st.s); }, "D2H copy")));
          VerifyResult v = verify_host(q, host, words, 0, 1);
          if (v.bad_words) {
            d2h.wrong += v.bad_words;
            if (d2h.first_wrong.empty())
              d2h.first_wrong = "run " + std::to_string(run + 1) + ": " + std::to_string(v.bad_words) +
                                " wrong words, first at host offset " + std::to_string(v.first[0].address);
          }
        }
        for (Direction* dir : {&h2d, &d2h}) {
          record(d, *dir, link, dj);
          if (dir->wrong) d.evidence[dir->metric + " wrong"] = dir->first_wrong;
          wrong_by_dev[g.dev] += dir->wrong;
        }
      }
      Direction d2d{"d2d_GBps", {}, 0, ""};
      probe::phase("cudaMemcpy device-to-device on GPU " + std::to_string(g.dev), {g.dev});
      for (int run = 0; run < o.runs; ++run) {
        PatternSpec p = pattern_for(g.dev, 5, run);
        cuda_check(launch_pattern_fill(p, g.a->as<std::uint64_t>(), words, st.s), "fill launch");
        d2d.gbps.push_back(gigabytes_per_s(o.bytes, timed(st, [&] {
          return cudaMemcpyAsync(g.b->get(), g.a->get(), o.bytes, cudaMemcpyDeviceToDevice, st.s); }, "D2D copy")));
        if (auto n = verify_device(g, g.b->get(), o.bytes, p)) {
          d2d.wrong += n;
          if (d2d.first_wrong.empty()) d2d.first_wrong = "run " + std::to_string(run + 1) + ": " + std::to_string(n) + " wrong words";
        }
      }
      record(d, d2d, std::nullopt, dj);  // bytes copied once (read + write is twice that in DRAM traffic)
      if (d2d.wrong) d.evidence["d2d wrong"] = d2d.first_wrong;
      wrong_by_dev[g.dev] += d2d.wrong;
      details.push_back(std::move(dj));
    }
    // Peer copies: every ordered pair with peer access, source GPU's stream, verified on the destination.
    nlohmann::json pairs = nlohmann::json::array();
    std::map<int, double> slowest;
    std::map<int, unsigned long long> p2p_wrong;
    for (Gpu& src : gpus)
      for (Gpu& dst : gpus) {
        if (src.dev == dst.dev) continue;
        int can = 0;
        cuda_check(cudaDeviceCanAccessPeer(&can, src.dev, dst.dev), "cudaDeviceCanAccessPeer");
        if (!can) {
          pairs.push_back({{"src", src.dev}, {"dst", dst.dev}, {"peer_access", false}});
          continue;
        }
        cuda_check(cudaSetDevice(src.dev), "cudaSetDevice");
        cudaError_t e = cudaDeviceEnablePeerAccess(dst.dev, 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();
        else cuda_check(e, "cudaDeviceEnablePeerAccess");
        Direction p2p{"p2p_GBps", {}, 0, ""};
        probe::phase("cudaMemcpyPeer GPU " + std::to_string(src.dev) + " -> GPU " + std::to_string(dst.dev), {src.dev, dst.dev});
        for (int run = 0; run < o.runs; ++run) {
          PatternSpec p = pattern_for(src.dev * 64 + dst.dev, 6, run);
          cuda_check(cudaSetDevice(src.dev), "cudaSetDevice");
          cuda_check(launch_pattern_fill(p, src.a->as<std::uint64_t>(), words, src.stream->s), "fill launch");
          p2p.gbps.push_back(gigabytes_per_s(o.bytes, timed(*src.stream, [&] {
            return cudaMemcpyPeerAsync(dst.b->get(), dst.dev, src.a->get(), src.dev, o.bytes, src.stream->s); }, "P2P copy")));
          p2p.wrong += verify_device(dst, dst.b->get(), o.bytes, p);
        }
        RunStats s = summarize(p2p.gbps);
        pairs.push_back({{"src", src.dev}, {"dst", dst.dev}, {"peer_access", true}, {"median_GBps", s.median},
                         {"cv", s.cv}, {"wrong_words", p2p.wrong}});
        slowest[src.dev] = slowest.count(src.dev) ? std::min(slowest[src.dev], s.median) : s.median;
        p2p_wrong[src.dev] += p2p.wrong;
        if (p2p.wrong)
          found[src.dev].evidence["p2p " + std::to_string(src.dev) + "->" + std::to_string(dst.dev) + " wrong"] =
              std::to_string(p2p.wrong) + " wrong words";
      }
    for (DeviceFinding& d : found) {
      int dev = std::stoi(d.device);
      if (slowest.count(dev)) {
        d.metrics.push_back({"p2p_GBps", slowest[dev], "GB/s", "higher"});
        d.evidence["p2p"] = std::to_string(slowest[dev]).substr(0, 6) + " GB/s to the slowest peer (every pair in details)";
      } else {
        d.evidence["p2p"] = count < 2 ? "not measured: one GPU" : "not measured: no peer access from this GPU";
      }
      unsigned long long wrong = p2p_wrong[dev] + wrong_by_dev[dev];
      d.status = wrong ? Status::kFail : Status::kPass;
      std::string s;
      for (auto& m : d.metrics)
        if (m.unit == "GB/s") s += (s.empty() ? "" : ", ") + m.name.substr(0, m.name.size() - 5) + " " + std::to_string(m.value).substr(0, 5);
      d.summary = (wrong ? std::string("WRONG data after a copy; ") : std::string("every copy verified; GB/s ")) + s;
      overall = worst(overall, d.status);
    }
    r.devices = found;
    r.details = measured::copy_details(details, pairs, o.bytes, o.runs);
    r.status = overall;
    r.summary = std::to_string(count) + " GPU(s), " + std::to_string(o.bytes >> 20) + " MiB x " + std::to_string(o.runs) +
                " runs per direction: " + (overall == Status::kFail ? "a copy delivered wrong data" : "every copy verified");
  });
}
