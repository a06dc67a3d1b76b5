#pragma once
// Progress of a probe suite. Each probe's result line (and, for a problem, its evidence and fixes) goes
// to stderr as it finishes, wrapped at stderr's width; --quiet keeps only failures and errors. On a
// terminal, and not --quiet, a live line shows "[i/N] probe  elapsed  ETA": the ETA scales the remaining
// probes' timeouts (their manifests' budgets) by how much of its budget each finished probe used, and
// before any probe finished it is the sum of the timeouts ("at most"). Elsewhere no live line, so logs
// stay readable.
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/finding.h"

namespace gpucheck::cli {

class Progress {
 public:
  /// `budgets_s`: each selected probe's timeout, in run order.
  Progress(bool tty, bool color, bool quiet, bool verbose, std::vector<double> budgets_s = {});
  ~Progress();
  void start(std::size_t index, std::size_t total, const std::string& id);
  /// A skip is held back and said with the others of the same reason by finish_suite().
  void finish(const Finding& r);
  /// The skipped probes, one line per reason (render::skipped_lines); call once the suite ended.
  void finish_suite();

  /// "ETA ~1m05s" / "at most 3m20s left" for the suite after `elapsed_s` in probe `index`; "" without
  /// budgets. Public for tests.
  std::string eta(std::size_t index, double elapsed_s) const;

 private:
  void tick();
  bool tty_, color_, quiet_, verbose_;
  std::vector<double> budgets_;
  double used_s_ = 0, used_budget_s_ = 0;  // finished probes: time taken, budget they had
  std::mutex mu_;
  std::string current_;
  std::string prefix_;
  std::size_t index_ = 0;
  std::chrono::steady_clock::time_point started_;
  std::atomic<bool> running_{false}, stop_{false};
  std::vector<Finding> skipped_;
  std::thread ticker_;
};

/// "42s", "3m20s", "1h05m".
std::string short_duration(double seconds);

}  // namespace gpucheck::cli
