#include "adam/adam_windows.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

namespace gpucheck::kernels {

std::vector<AdamWindowRange> adam_windows(std::size_t n, std::size_t window) {
  std::vector<AdamWindowRange> out;
  if (window == 0) window = 1;
  for (std::size_t b = 0; b < n; b += window) out.push_back({b, std::min(window, n - b)});
  return out;
}

void merge_check(CheckReport& total, const CheckReport& part, std::size_t offset) {
  if (total.name.empty()) total.name = part.name;
  const bool worse = part.worst_ratio > total.worst_ratio || (part.mismatches && !total.mismatches);
  total.count += part.count;
  total.mismatches += part.mismatches;
  total.max_abs = std::max(total.max_abs, part.max_abs);
  total.max_rel = std::max(total.max_rel, part.max_rel);
  if (worse || total.count == part.count) {
    total.worst_index = part.worst_index + offset;
    total.worst_got = part.worst_got, total.worst_want = part.worst_want, total.worst_allowed = part.worst_allowed;
    total.worst_ratio = part.worst_ratio;
  }
}

namespace {
// Runs fn(w) for every window index on `threads` workers (each takes the next window); rethrows the first
// exception after all workers stop.
template <class Fn>
void for_each_window(std::size_t count, unsigned threads, Fn fn) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::mutex error_lock;
  auto work = [&] {
    for (std::size_t w; (w = next++) < count;) {
      try {
        fn(w);
      } catch (...) {
        std::lock_guard<std::mutex> g(error_lock);
        if (!error) error = std::current_exception();
        next = count;  // stop handing out windows
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < std::max(1u, threads); ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}
}  // namespace

std::vector<CheckReport> adam_windowed_step_check(AdamWindowDevice& dev, AdamVariant variant, std::size_t n,
                                                  std::size_t window, std::uint64_t seed, const AdamHyper& h,
                                                  bool adversarial, unsigned threads,
                                                  std::size_t* peak_window_elements) {
  const auto windows = adam_windows(n, window);
  std::atomic<std::size_t> peak{0};
  for_each_window(windows.size(), threads, [&](std::size_t w) {
    AdamState s = make_adam_state(variant, windows[w].size, seed + w, h, adversarial);
    std::size_t p = peak.load();
    while (s.size() > p && !peak.compare_exchange_weak(p, s.size())) {
    }
    dev.upload(windows[w].begin, s);
  });
  dev.step(n, h);
  std::vector<std::vector<CheckReport>> parts(windows.size());
  for_each_window(windows.size(), threads, [&](std::size_t w) {
    const AdamState before = make_adam_state(variant, windows[w].size, seed + w, h, adversarial);  // regenerated
    AdamState want = before, got = before;
    adam_reference_step(want, h);
    dev.download(windows[w].begin, got);
    parts[w] = check_adam_step(before, want, got, h);
  });
  std::vector<CheckReport> total;
  for (std::size_t w = 0; w < windows.size(); ++w) {  // in window order: deterministic worst element
    if (total.empty()) total.resize(parts[w].size());
    for (std::size_t k = 0; k < parts[w].size(); ++k) merge_check(total[k], parts[w][k], windows[w].begin);
  }
  if (peak_window_elements) *peak_window_elements = peak;
  return total;
}

}  // namespace gpucheck::kernels
