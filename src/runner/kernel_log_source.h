#pragma once
// Where the kernel log of a run comes from, and the evidence it adds (checks/acceptance/kernel_log.h):
// /dev/kmsg (the kernel's own ring buffer, read without blocking), `journalctl -k -b -o short-monotonic`
// where the ring buffer is not readable (dmesg_restrict, a container) but journald keeps it, or a saved
// file (--kernel-log FILE: dmesg, journalctl or syslog text, e.g. copied from another machine).
#include <optional>
#include <string>
#include <vector>

#include "checks/acceptance/kernel_log.h"
#include "core/finding.h"

namespace gpucheck::runner {

struct KernelLogOptions {
  std::string mode = "auto";  // auto (kmsg, else journal) | kmsg | journal | none | file
  std::string file;           // mode file: the saved log
};

struct KernelLogText {
  std::string text;         // empty when nothing could be read
  std::string source;       // "/dev/kmsg", "journalctl -k", the file's path
  std::string unavailable;  // why nothing was read ("" when something was)
};

/// Reads the log from `since_monotonic` (seconds since boot) / `since_epoch` on. Bounded (16 MiB); never
/// blocks: journalctl runs under a 20 s deadline, spawned from an argument vector.
KernelLogText read_kernel_log(const KernelLogOptions& options, double since_monotonic, double since_epoch);

/// Reads the log, attaches its NVIDIA lines to `probes` (ran in `windows`) and returns the run-level
/// `kernel.log` Finding: between-probe lines, or `info` saying why the log could not be read.
/// Reads data/kernel/xid.json only when the log has NVRM lines; throws InputError when it is then missing
/// or invalid.
Finding add_kernel_evidence(std::vector<Finding>& probes, const std::vector<acceptance::ProbeWindow>& windows,
                            const KernelLogOptions& options, const std::string& xid_table_path);

/// CLOCK_MONOTONIC and CLOCK_REALTIME now, in seconds (the clocks the kernel log is stamped in).
double monotonic_now();
double epoch_now();

}  // namespace gpucheck::runner
