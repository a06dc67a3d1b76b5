// test.spin_rate: a real measurement for the fleet tests, never part of the suite (built here, not in
// probes/). Compute-bound on purpose (a dependent xorshift chain in registers): a memory-bound probe moved
// by 2-3x between honest runs on a shared, loaded machine; best of 60 short chains skips preemptions.
// GPUCHECK_TEST_PROBE_SLOWDOWN=K (1..100) makes every timed chain K chains: a node slow on purpose, by
// really doing more work, not by editing its number.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "probe/probe.h"

int main(int argc, char** argv) {
  using namespace gpucheck;
  return probe::run(argc, argv, [](const probe::Context&, Finding& r) {
    int slowdown = 1;
    if (const char* v = std::getenv("GPUCHECK_TEST_PROBE_SLOWDOWN")) slowdown = std::clamp(std::atoi(v), 1, 100);
    const int steps = 1 << 16;
    std::uint64_t x = 88172645463325252ull;
    double best = 1e30;
    for (int trial = 0; trial < 60; ++trial) {
      auto t0 = std::chrono::steady_clock::now();
      for (int k = 0; k < slowdown; ++k)
        for (int i = 0; i < steps; ++i) x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // each step needs the last
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    double rate = steps / best / 1e6;  // million chain steps per second, per timed chain
    r.add_metric("chain_rate", rate, "M steps/s", "higher");
    r.evidence["slowdown"] = std::to_string(slowdown);
    r.evidence["chain end"] = std::to_string(x);  // the chain's result is used: nothing is optimised away
    r.status = x != 0 ? Status::kPass : Status::kFail;  // xorshift never reaches 0 from a non-zero seed
    r.summary = std::to_string(rate).substr(0, 7) + " M steps/s (best of 60 chains of 65536 steps)";
  });
}
