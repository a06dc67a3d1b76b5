#pragma once
// A request to stop (SIGINT, SIGTERM, SIGHUP) as a flag, so long work can end cleanly: run_subprocess
// stops its child's process group with the usual grace period, the runner starts no further probe, and
// `gpucheck run` still writes its report, marked incomplete.
namespace gpucheck {

/// Installs handlers for SIGINT, SIGTERM and SIGHUP that only record the signal (no SA_RESTART, so a
/// blocking poll() returns and the flag is seen at once). A second signal of the same kind ends the
/// process the default way, for a user who really wants out.
void catch_interrupts();

/// The signal that asked this process to stop; 0 when none did.
int interrupt_signal();

/// For tests: forget a recorded signal.
void clear_interrupt();

}  // namespace gpucheck
