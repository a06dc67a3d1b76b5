#pragma once
// A request to stop (SIGINT, SIGTERM, SIGHUP) as a flag, so long work can end cleanly: run_subprocess
// stops its child's process group with the usual grace period, the runner starts no further probe, and
// `gpucheck run` (and `bench`) still write their report, marked incomplete.
#include <sys/types.h>

namespace gpucheck {

/// Installs handlers for SIGINT, SIGTERM and SIGHUP that only record the signal (no SA_RESTART, so a
/// blocking poll() returns and the flag is seen at once). The first signal stops the running children
/// gracefully (TERM, then KILL after the grace period); the second SIGKILLs every running child's process
/// group at once, from the handler, and the command still writes what finished; a third ends the process
/// the default way (after killing those groups), for a user who really wants out.
void catch_interrupts();

/// The signal that asked this process to stop; 0 when none did.
int interrupt_signal();

/// How many stop signals arrived (0, 1, 2, ...).
int interrupt_count();

/// For tests: forget a recorded signal.
void clear_interrupt();

/// The process groups of running children (run_subprocess registers each child, which leads its own
/// group), so a second signal can SIGKILL them from the handler. At most 64 at a time are tracked.
void register_child_group(pid_t group);
void unregister_child_group(pid_t group);

}  // namespace gpucheck
