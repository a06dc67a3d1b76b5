#pragma once
// Times GPU work that is enqueued by slow host code (BMTrain's launchers, called through an embedded
// Python) without timing the host code: a gate kernel holds the stream, the start event, the launches and
// the stop event are all enqueued behind it, then the gate opens and the GPU runs them back to back. The
// gate gives up after 5 s (a launcher that synchronises the device would otherwise deadlock); then the
// measurement is reported as unusable instead of timing a wait.
#include <cuda_runtime_api.h>

#include <functional>
#include <string>

namespace gpucheck::kernels {

class LaunchGate {
 public:
  LaunchGate();
  ~LaunchGate();
  LaunchGate(const LaunchGate&) = delete;
  LaunchGate& operator=(const LaunchGate&) = delete;

  /// Milliseconds of GPU time per call of `enqueue` (called `reps` times while the gate holds the legacy
  /// default stream), or a negative value with `error` set ("" from enqueue means success).
  float gated_ms(const std::function<std::string()>& enqueue, int reps, std::string& error);

 private:
  volatile int* flag_ = nullptr;  // host-mapped: the gate kernel polls it
  int* timed_out_ = nullptr;      // host-mapped: set by the gate when it gave up
  cudaEvent_t e0_{}, e1_{};
};

}  // namespace gpucheck::kernels
