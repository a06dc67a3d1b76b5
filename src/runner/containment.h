#pragma once
// Every process a probe starts ends with it. Killing the probe's process group misses a descendant that
// called setsid() (a daemonising helper, `setsid sleep 1000 &`); as a child subreaper, gpucheck inherits
// such orphans instead of init, and kills what it inherited once the probe is over.
namespace gpucheck::runner {

/// Makes this process the subreaper of its descendants (prctl PR_SET_CHILD_SUBREAPER); false when the
/// kernel refuses (then orphans still escape, as before).
bool become_subreaper();

/// SIGKILLs and reaps every process whose parent is this process, except `keep` (a child still in use);
/// returns how many were still running (those that had already exited are only reaped). Call it when no other child of this process should be running.
int end_orphans(int keep = -1);

}  // namespace gpucheck::runner
