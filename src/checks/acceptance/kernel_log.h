#pragma once
// Kernel-log evidence for the probes (docs/acceptance.md "Kernel log"): the NVIDIA driver's lines (NVRM:
// Xid ..., "fallen off the bus", other NVRM errors) logged while each probe ran are attached to that
// probe's Finding with the Xid's meaning and NVIDIA's action (xid_table.h). An Xid whose catalogue entry
// leaves the node unfit (reset the GPU, reboot, a hardware workflow) fails the probe's Finding even when the
// probe itself passed: the node is what is judged. Pure: the log is text, the windows are numbers.
//
// Formats read: /dev/kmsg records ("6,1234,5107644336,-;NVRM: ..."), dmesg and `journalctl -k -o
// short-monotonic` ("[ 5107.644336] ..."), `dmesg --ctime` ("[Fri Aug 30 11:43:09 2024] ..."), syslog and
// `journalctl -k` ("May 18 19:02:39 host kernel: ...", the year from the run), ISO 8601 stamps
// ("2024-08-30T11:43:09+0000 host kernel: ..."). A continuation line (indented, no stamp) keeps the
// stamp of the line before it. Lines starting with '#' are comments (fixtures name their source so).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checks/acceptance/xid_table.h"
#include "core/finding.h"

namespace gpucheck::acceptance {

struct KernelLogLine {
  std::optional<double> monotonic_s;  // seconds since boot, as the kernel stamps it
  std::optional<double> epoch_s;      // wall clock, when the format carries one
  std::string message;                // after the stamp and any "host kernel:" prefix
  std::string raw;                    // the line as read (cut at 1000 bytes)
  std::size_t line_no = 0;            // 1-based in what was read
};

/// `year_hint`: the year of syslog stamps, which carry none (the run's year).
std::vector<KernelLogLine> parse_kernel_log(std::string_view text, int year_hint);

/// One NVIDIA driver line that matters.
struct NvrmEvent {
  KernelLogLine line;
  std::optional<int> xid;  // none for an NVRM error without an Xid
  std::string pci;         // "0000:2b:00" when the line names it
  std::string meaning, kind, action, immediate_action;
  bool fails_node = false;
  bool known = false;      // the Xid is in NVIDIA's catalogue (or the line is a known non-Xid error)
  Status status = Status::kWarn;  // what it makes of a probe: fail, warn or info
  std::string title() const;      // "Xid 79 (GPU has fallen off the bus)"
};

/// The NVRM lines of `lines` that are errors, classified by `table`; other lines are dropped.
std::vector<NvrmEvent> nvidia_events(const std::vector<KernelLogLine>& lines, const XidTable& table);

/// When one probe ran, in both clocks the kernel log may use (core: CLOCK_MONOTONIC and CLOCK_REALTIME).
struct ProbeWindow {
  double monotonic_start = 0, monotonic_end = 0;
  double epoch_start = 0, epoch_end = 0;
};

struct KernelEvidence {
  std::size_t attached = 0;            // events attached to a probe
  std::vector<NvrmEvent> between;      // during the run but in no probe's window
  std::size_t outside = 0;             // before or after the run (not this run's)
  std::size_t unstamped = 0;           // NVRM events without a time: cannot be placed
};

/// Attaches each event to the probe whose window holds it (its end extended by `slack_s`: the driver logs
/// an Xid shortly after the fault), in evidence, details["kernel_log"], status, summary and fixes.
/// `findings[i]` ran in `windows[i]`. `source` names where the log came from ("/dev/kmsg").
KernelEvidence attach_kernel_log(std::vector<Finding>& findings, const std::vector<ProbeWindow>& windows,
                                 const std::vector<NvrmEvent>& events, const std::string& source,
                                 double slack_s = 2.0);

/// The run-level Finding `kernel.log` for events between probes (pass when there were none).
Finding between_probes_finding(const KernelEvidence& ev, const std::string& source);

}  // namespace gpucheck::acceptance
