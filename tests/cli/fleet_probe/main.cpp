// test.copy_bandwidth: a real measurement for the fleet tests, never part of the suite (built here, not
// in probes/). GPUCHECK_TEST_PROBE_SLOWDOWN=K (1..100) makes every timed copy K copies: a node that is
// slow on purpose, by really doing more work, not by editing its number.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "probe/probe.h"

int main(int argc, char** argv) {
  using namespace gpucheck;
  return probe::run(argc, argv, [](const probe::Context&, Finding& r) {
    int slowdown = 1;
    if (const char* v = std::getenv("GPUCHECK_TEST_PROBE_SLOWDOWN")) slowdown = std::clamp(std::atoi(v), 1, 100);
    const std::size_t bytes = 8u << 20;
    std::vector<unsigned char> a(bytes, 1), b(bytes, 0);
    double best = 1e30;
    for (int trial = 0; trial < 15; ++trial) {  // best of 15: a loaded machine stalls single copies
      auto t0 = std::chrono::steady_clock::now();
      for (int k = 0; k < slowdown; ++k) {
        a[static_cast<std::size_t>(k) % bytes] ^= 1;  // a different source each time: no copy is elided
        std::memcpy(b.data(), a.data(), bytes);
      }
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    double gbps = static_cast<double>(bytes) / best / 1e9;
    r.add_metric("copy_bandwidth", gbps, "GB/s", "higher");
    r.evidence["slowdown"] = std::to_string(slowdown);
    r.status = b[bytes / 2] == a[bytes / 2] ? Status::kPass : Status::kFail;
    r.summary = std::to_string(gbps).substr(0, 6) + " GB/s (best of 15 copies of 8 MiB)";
  });
}
