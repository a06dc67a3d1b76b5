#include "cli/progress.h"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "render/render.h"
#include "render/terminal.h"
#include "render/terminal_safe.h"
#include "render/wrap.h"

namespace gpucheck::cli {

std::string short_duration(double seconds) {
  long s = static_cast<long>(seconds + 0.5);
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
}

Progress::Progress(bool tty, bool color, bool quiet, bool verbose, std::vector<double> budgets_s,
                   std::vector<double> recorded_s)
    : tty_(tty), color_(color), quiet_(quiet), verbose_(verbose), budgets_(std::move(budgets_s)),
      recorded_(std::move(recorded_s)) {
  if (tty_ && !quiet_) ticker_ = std::thread([this] { tick(); });
}

Progress::~Progress() {
  stop_ = true;
  if (ticker_.joinable()) ticker_.join();
}

double Progress::expected(std::size_t probe) const {
  if (probe < recorded_.size() && recorded_[probe] > 0) return recorded_[probe];
  if (used_budget_s_ > 0) return budgets_[probe] * std::min(1.0, used_s_ / used_budget_s_);
  return -1;
}

std::string Progress::eta(std::size_t index, double elapsed_s) const {
  if (index >= budgets_.size()) return "";
  bool bound_only = false;  // a probe with neither a record nor a finished probe to scale by: its timeout
  auto guess = [&](std::size_t i) {
    double e = expected(i);
    if (e >= 0) return e;
    bound_only = true;
    return budgets_[i];
  };
  double rest = 0;
  for (std::size_t i = index + 1; i < budgets_.size(); ++i) rest += guess(i);
  const double current = guess(index);
  if (bound_only) return "at most " + short_duration(rest + std::max(0.0, current - elapsed_s)) + " left";
  if (elapsed_s > current) return "ETA ~" + short_duration(rest) + " after this probe";  // slower than before
  return "ETA ~" + short_duration(rest + current - elapsed_s);
}

void Progress::start(std::size_t index, std::size_t total, const std::string& id) {
  std::lock_guard<std::mutex> lock(mu_);
  current_ = id;
  index_ = index;
  prefix_ = fmt::format("[{}/{}]", index + 1, total);
  started_ = std::chrono::steady_clock::now();
  running_ = true;
}

void Progress::finish(const Finding& r) {
  std::lock_guard<std::mutex> lock(mu_);
  running_ = false;
  if (index_ < budgets_.size()) {
    used_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    used_budget_s_ += budgets_[index_];
  }
  if (tty_ && !quiet_) std::fputs("\r\033[K", stderr);
  bool show = !quiet_ || r.status == Status::kFail || r.status == Status::kError;
  if (show && r.status == Status::kSkip) skipped_.push_back(render::terminal_safe_copy(r));
  else if (show) {
    const Finding safe = render::terminal_safe_copy(r);
    std::string text = render::result_line(safe, color_) + "\n" + render::result_details(safe, verbose_);
    std::fputs(render::wrap_lines(text, render::terminal_width(2)).c_str(), stderr);
  }
  std::fflush(stderr);
}

void Progress::finish_suite() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<const Finding*> skipped;
  for (const auto& f : skipped_) skipped.push_back(&f);
  std::fputs(render::wrap_lines(render::skipped_lines(skipped, color_, verbose_), render::terminal_width(2)).c_str(), stderr);
  std::fflush(stderr);
  skipped_.clear();
}

void Progress::tick() {
  static const char* spin = "|/-\\";
  for (int n = 0; !stop_; ++n) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (running_) {
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
        std::string line = fmt::format("{} {} {}  {:.1f}s", spin[n % 4], prefix_, current_, s);
        std::string left = eta(index_, s);
        if (!left.empty()) line += "  " + left;
        // One line that never wraps, or "\r" could not replace it.
        const std::size_t width = static_cast<std::size_t>(render::terminal_width(2)) - 1;
        if (line.size() > width) line.resize(width);
        std::fprintf(stderr, "\r\033[K%s", line.c_str());
        std::fflush(stderr);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

}  // namespace gpucheck::cli
