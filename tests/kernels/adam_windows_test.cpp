// kernels.adam --level long's windowing (adam_windows.h) on the host: a stand-in device holds the whole
// tensor and runs the kernel's float math (adam_host_float_step) in ONE step over all n elements, while the
// host side only ever holds one window; every element is uploaded once, checked once, and a wrong element is
// reported at its global index.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "adam/adam_windows.h"

using namespace gpucheck::kernels;

namespace {

class HostDevice : public AdamWindowDevice {
 public:
  HostDevice(AdamVariant v, std::size_t n, std::size_t corrupt = SIZE_MAX) : corrupt_(corrupt) {
    AdamHyper h0;
    full = make_adam_state(v, n, 0, h0, false);  // overwritten window by window
    uploaded.assign(n, 0);
  }
  void upload(std::size_t b, const AdamState& w) override {
    std::lock_guard<std::mutex> g(lock_);  // windows arrive from several threads
    max_window = std::max(max_window, w.size());
    for (std::size_t i = 0; i < w.size(); ++i) {
      ++uploaded[b + i];
      full.param.set(b + i, w.param.get(i)), full.grad.set(b + i, w.grad.get(i));
      full.m.set(b + i, w.m.get(i)), full.v.set(b + i, w.v.get(i));
    }
  }
  void step(std::size_t n, const AdamHyper& h) override {
    ++steps, stepped_n = n;
    adam_host_float_step(full, h);
    if (corrupt_ < n) full.param.set(corrupt_, full.param.get(corrupt_) * 1.01 + 1.0);
  }
  void download(std::size_t b, AdamState& w) override {
    std::lock_guard<std::mutex> g(lock_);
    for (std::size_t i = 0; i < w.size(); ++i) {
      w.param.set(i, full.param.get(b + i)), w.m.set(i, full.m.get(b + i)), w.v.set(i, full.v.get(b + i));
      if (w.param_h.size()) w.param_h.set(i, full.param_h.get(b + i));
    }
  }
  AdamState full;
  std::vector<int> uploaded;
  std::size_t max_window = 0, steps = 0, stepped_n = 0;

 private:
  std::size_t corrupt_;
  std::mutex lock_;
};

AdamHyper hyper() { return adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1.0f}, 2); }

}  // namespace

TEST(AdamWindows, WindowsTileTheTensor) {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{999}, std::size_t{1000}, std::size_t{1001},
                        (std::size_t{1} << 31) + 17}) {
    const std::size_t window = n > 100000 ? std::size_t{1} << 26 : 1000;
    auto ws = adam_windows(n, window);
    std::size_t next = 0;
    for (auto& w : ws) {
      ASSERT_EQ(w.begin, next);
      ASSERT_GT(w.size, 0u);
      ASSERT_LE(w.size, window);
      next += w.size;
    }
    EXPECT_EQ(next, n);
  }
  EXPECT_EQ(adam_windows((std::size_t{1} << 31) + 17, std::size_t{1} << 26).size(), 33u);  // 32 full + 17
}

TEST(AdamWindows, OneStepEveryElementOnceWithinPolicy) {
  for (AdamVariant v : {AdamVariant::kBf16, AdamVariant::kFp16, AdamVariant::kFp32}) {
    const std::size_t n = 10007, window = 1000;
    HostDevice dev(v, n);
    std::size_t peak = 0;
    auto reports = adam_windowed_step_check(dev, v, n, window, 99, hyper(), true, /*threads=*/3, &peak);
    EXPECT_EQ(dev.steps, 1u);
    EXPECT_EQ(dev.stepped_n, n);
    EXPECT_LE(peak, window);
    EXPECT_LE(dev.max_window, window);
    for (int u : dev.uploaded) ASSERT_EQ(u, 1);
    ASSERT_FALSE(reports.empty());
    for (auto& r : reports) {
      EXPECT_TRUE(r.ok()) << to_string(v) << " " << r.describe();
      EXPECT_EQ(r.count, n) << r.name;
    }
  }
}

TEST(AdamWindows, AWrongElementIsReportedAtItsGlobalIndex) {
  const std::size_t n = 10007, bad = 7777;
  HostDevice dev(AdamVariant::kBf16, n, bad);
  auto reports = adam_windowed_step_check(dev, AdamVariant::kBf16, n, 1000, 5, hyper(), false, /*threads=*/4);
  auto param = std::find_if(reports.begin(), reports.end(), [](const CheckReport& r) { return r.name == "param"; });
  ASSERT_NE(param, reports.end());
  EXPECT_EQ(param->mismatches, 1u);
  EXPECT_EQ(param->worst_index, bad);
}

TEST(AdamWindows, MergeKeepsTheWorstWithItsOffset) {
  CheckReport a, b, total;
  a.name = "m", a.count = 10, a.max_abs = 1e-9, a.worst_index = 3, a.worst_ratio = 0.2;
  b.name = "m", b.count = 5, b.mismatches = 2, b.max_abs = 1e-3, b.worst_index = 4, b.worst_ratio = 3.0;
  merge_check(total, a, 0);
  merge_check(total, b, 10);
  EXPECT_EQ(total.count, 15u);
  EXPECT_EQ(total.mismatches, 2u);
  EXPECT_EQ(total.max_abs, 1e-3);
  EXPECT_EQ(total.worst_index, 14u);
  EXPECT_EQ(total.worst_ratio, 3.0);
}
