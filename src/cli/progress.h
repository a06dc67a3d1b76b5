#pragma once
// Progress of a probe suite: on a TTY a live line per probe (name, elapsed time) replaced by its verdict;
// elsewhere plain lines only, so logs stay readable.
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>

#include "core/finding.h"

namespace gpucheck::cli {

class Progress {
 public:
  Progress(bool tty, bool color, bool quiet, bool verbose);
  ~Progress();
  void start(std::size_t index, std::size_t total, const std::string& id);
  void finish(const Finding& r);

 private:
  void tick();
  bool tty_, color_, quiet_, verbose_;
  std::mutex mu_;
  std::string current_;
  std::string prefix_;
  std::chrono::steady_clock::time_point started_;
  std::atomic<bool> running_{false}, stop_{false};
  std::thread ticker_;
};

}  // namespace gpucheck::cli
