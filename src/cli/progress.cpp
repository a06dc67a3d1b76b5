#include "cli/progress.h"

#include <cstdio>

#include <fmt/format.h>

#include "render/terminal.h"
#include "render/terminal_safe.h"

namespace gpucheck::cli {

Progress::Progress(bool tty, bool color, bool quiet, bool verbose)
    : tty_(tty), color_(color), quiet_(quiet), verbose_(verbose) {
  if (tty_ && !quiet_) ticker_ = std::thread([this] { tick(); });
}

Progress::~Progress() {
  stop_ = true;
  if (ticker_.joinable()) ticker_.join();
}

void Progress::start(std::size_t index, std::size_t total, const std::string& id) {
  std::lock_guard<std::mutex> lock(mu_);
  current_ = id;
  prefix_ = fmt::format("[{}/{}]", index + 1, total);
  started_ = std::chrono::steady_clock::now();
  running_ = true;
}

void Progress::finish(const Finding& r) {
  std::lock_guard<std::mutex> lock(mu_);
  running_ = false;
  if (tty_ && !quiet_) std::fputs("\r\033[K", stderr);
  bool show = !quiet_ || r.status == Status::kFail || r.status == Status::kError;
  if (show) {
    const Finding safe = render::terminal_safe_copy(r);
    std::string text = render::result_line(safe, color_) + "\n" + render::result_details(safe, verbose_);
    std::fputs(text.c_str(), stderr);
  }
  std::fflush(stderr);
}

void Progress::tick() {
  static const char* spin = "|/-\\";
  for (int n = 0; !stop_; ++n) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (running_) {
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
        std::fprintf(stderr, "\r\033[K%c %s %s  %.1fs", spin[n % 4], prefix_.c_str(), current_.c_str(), s);
        std::fflush(stderr);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

}  // namespace gpucheck::cli
