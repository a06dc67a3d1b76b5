#pragma once
// Progress of a probe suite. Each probe's result line (and, for a problem, its evidence and fixes) goes
// to stderr as it finishes, wrapped at stderr's width; --quiet keeps only failures and errors. On a
// terminal, and not --quiet, a live line shows "[i/N] probe  elapsed  ETA": each probe is expected to take
// what it took in this machine's last run at the same level (its duration recorded in that report); a
// probe without a record, its timeout scaled by how much of its budget each finished probe used; before any
// probe finished, its timeout ("at most"). A probe running past what is expected of it makes the ETA the
// rest "after this probe", never "~0s". Elsewhere no live line, so logs stay readable.
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
  /// `budgets_s`: each selected probe's timeout, in run order; `recorded_s`: what each took last time here
  /// (0 = no record), in the same order.
  Progress(bool tty, bool color, bool quiet, bool verbose, std::vector<double> budgets_s = {},
           std::vector<double> recorded_s = {});
  ~Progress();
  void start(std::size_t index, std::size_t total, const std::string& id);
  /// A skip is held back and said with the others of the same reason by finish_suite().
  void finish(const Finding& r);
  /// The skipped probes, one line per reason (render::skipped_lines); call once the suite ended.
  void finish_suite();

  /// "ETA ~1m05s", "ETA ~40s after this probe" or "at most 3m20s left" for the suite after `elapsed_s` in
  /// probe `index`; "" without budgets. Public for tests.
  std::string eta(std::size_t index, double elapsed_s) const;

 private:
  void tick();
  /// `probe`'s expected duration: recorded, else its budget scaled by the finished probes; nullopt-like -1
  /// when only its budget (an upper bound) is known.
  double expected(std::size_t probe) const;
  bool tty_, color_, quiet_, verbose_;
  std::vector<double> budgets_, recorded_;
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
