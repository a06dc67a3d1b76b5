#pragma once
// Helpers of the hostsim runtime tests: device buffers through the simulated CUDA runtime API, and a fixture
// that starts every test with no findings and the default schedules.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/cuda_launch.h"
#include "hostsim.h"

namespace gpucheck::hostsim::test {

template <class T>
struct Dev {
  explicit Dev(std::size_t n, std::vector<T> init = {}) : n(n) {
    EXPECT_EQ(cudaMalloc(reinterpret_cast<void**>(&p), n * sizeof(T)), cudaSuccess);
    if (init.empty()) init.assign(n, T{});
    EXPECT_EQ(cudaMemcpy(p, init.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  ~Dev() { cudaFree(p); }
  std::vector<T> get() const {
    std::vector<T> h(n);
    EXPECT_EQ(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return h;
  }
  T* p = nullptr;
  std::size_t n;
};

/// Every finding joined (for EXPECT_THAT-style substring checks).
inline std::string all_findings() {
  std::string s;
  for (const std::string& f : findings()) s += f + "\n";
  return s;
}

/// EXPECT that `text` contains `part`, printing both otherwise.
#define EXPECT_FOUND(text, part)                                                        \
  do {                                                                                 \
    const std::string gk_text_ = (text), gk_part_ = (part);                            \
    EXPECT_NE(gk_text_.find(gk_part_), std::string::npos) << "wanted \"" << gk_part_ \
                                                           << "\" in:\n" << gk_text_; \
  } while (0)

class Hostsim : public ::testing::Test {
 protected:
  void SetUp() override {
    reset();
    saved_ = options();
    options() = Options{};
  }
  void TearDown() override {
    reset();
    options() = saved_;
  }
  /// The launch's outcome: cudaSuccess, or the sticky cudaErrorLaunchFailure of a finding.
  static cudaError_t sync() { return cudaDeviceSynchronize(); }

 private:
  Options saved_;
};

}  // namespace gpucheck::hostsim::test
