#include "runner/kernel_log_source.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>

#include "core/errors.h"
#include "core/regular_file.h"
#include "core/subprocess.h"

namespace gpucheck::runner {
namespace {

constexpr std::size_t kLogLimit = 16u << 20;

double clock_s(clockid_t id) {
  timespec ts{};
  clock_gettime(id, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// /dev/kmsg: one record per read(); EAGAIN at the end (O_NONBLOCK), EPIPE when a record was overwritten
// while we read (skip on). Records older than the run are dropped as they come, so memory stays small.
KernelLogText read_kmsg(double since_monotonic) {
  KernelLogText out;
  out.source = "/dev/kmsg";
  int fd = ::open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    out.unavailable = std::string("/dev/kmsg: ") + std::strerror(errno);
    return out;
  }
  char buf[8192];
  unsigned long long since_us = since_monotonic > 1 ? static_cast<unsigned long long>((since_monotonic - 1) * 1e6) : 0;
  for (int guard = 0; guard < 1000000 && out.text.size() < kLogLimit; ++guard) {
    ssize_t n = ::read(fd, buf, sizeof buf - 1);
    if (n < 0) {
      if (errno == EINTR || errno == EPIPE) continue;
      if (errno == EAGAIN) break;
      out.unavailable = std::string("/dev/kmsg: ") + std::strerror(errno);
      break;
    }
    if (n == 0) break;
    std::string rec(buf, static_cast<std::size_t>(n));
    // "prio,seq,usec,flags;text\n" followed by " KEY=value" lines: keep the first line.
    rec = rec.substr(0, rec.find('\n'));
    auto c1 = rec.find(','), c2 = c1 == std::string::npos ? c1 : rec.find(',', c1 + 1);
    if (c2 != std::string::npos && std::strtoull(rec.c_str() + c2 + 1, nullptr, 10) < since_us) continue;
    out.text += rec + "\n";
  }
  ::close(fd);
  if (out.text.empty() && !out.unavailable.empty()) out.text.clear();
  return out;
}

KernelLogText read_journal(double since_epoch) {
  KernelLogText out;
  out.source = "journalctl -k";
  std::string exe = find_in_path("journalctl");
  if (exe.empty()) {
    out.unavailable = "journalctl: not on PATH";
    return out;
  }
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(20);
  o.stdout_limit = kLogLimit;
  long long since = static_cast<long long>(std::floor(since_epoch)) - 1;
  auto r = run_subprocess({exe, "-k", "-b", "-q", "--no-pager", "-o", "short-monotonic", "--since",
                           "@" + std::to_string(since)}, o);
  if (!r.ok()) {
    std::string err = r.err.substr(0, r.err.find('\n'));
    out.unavailable = "journalctl -k: " + r.describe() + (err.empty() ? "" : ": " + err);
    return out;
  }
  out.text = std::move(r.out);
  return out;
}

}  // namespace

double monotonic_now() { return clock_s(CLOCK_MONOTONIC); }
double epoch_now() { return clock_s(CLOCK_REALTIME); }

KernelLogText read_kernel_log(const KernelLogOptions& options, double since_monotonic, double since_epoch) {
  if (options.mode == "file") {
    KernelLogText out;
    out.source = options.file;
    out.text = read_regular_file(options.file, kLogLimit);  // "" when it is no regular file or unreadable
    if (out.text.empty() && access(options.file.c_str(), R_OK) != 0)
      out.unavailable = options.file + ": " + std::strerror(errno);
    return out;
  }
  if (options.mode == "kmsg") return read_kmsg(since_monotonic);
  if (options.mode == "journal") return read_journal(since_epoch);
  if (options.mode == "none") return {"", "", "not read (--kernel-log none)"};
  KernelLogText k = read_kmsg(since_monotonic);
  if (k.unavailable.empty()) return k;
  KernelLogText j = read_journal(since_epoch);
  if (j.unavailable.empty()) return j;
  return {"", "", k.unavailable + "; " + j.unavailable};
}

Finding add_kernel_evidence(std::vector<Finding>& probes, const std::vector<acceptance::ProbeWindow>& windows,
                            const KernelLogOptions& options, const std::string& xid_table_path) {
  double since_mono = windows.empty() ? 0 : windows.front().monotonic_start;
  double since_epoch = windows.empty() ? epoch_now() : windows.front().epoch_start;
  KernelLogText log = read_kernel_log(options, since_mono, since_epoch);
  if (!log.unavailable.empty()) {
    Finding f;
    f.id = "kernel.log";
    f.title = "NVIDIA driver lines in the kernel log";
    f.status = options.mode == "none" ? Status::kSkip : Status::kInfo;
    f.summary = "kernel log " + log.unavailable + ": Xid lines logged during the probes are not checked";
    if (options.mode != "none")
      f.add_fix("run as root (or with CAP_SYSLOG), or pass a saved log: gpucheck run --kernel-log FILE");
    return f;
  }
  std::time_t t = static_cast<std::time_t>(since_epoch);
  std::tm tm{};
  localtime_r(&t, &tm);
  auto lines = acceptance::parse_kernel_log(log.text, tm.tm_year + 1900);
  // The table is read only when the driver said something: a log without NVRM lines needs no data.
  bool nvrm = std::any_of(lines.begin(), lines.end(),
                          [](const acceptance::KernelLogLine& l) { return l.message.find("NVRM: ") != std::string::npos; });
  std::vector<acceptance::NvrmEvent> events;
  if (nvrm) events = acceptance::nvidia_events(lines, acceptance::load_xid_table(xid_table_path));
  auto ev = acceptance::attach_kernel_log(probes, windows, events, log.source);
  return acceptance::between_probes_finding(ev, log.source);
}

}  // namespace gpucheck::runner
