#pragma once
// What every probe executable uses: common argument parsing, timing, exception safety and the result
// channel. A probe main is a few lines:
//
//   int main(int argc, char** argv) {
//     return gpucheck::probe::run(argc, argv, [](const gpucheck::probe::Context& ctx, gpucheck::Finding& r) { ... });
//   }
//
// The probe's id and title are written once, in its probe.json: gpucheck_add_probe (cmake/GpucheckLayout.cmake)
// reads them at configure time and passes them as GPUCHECK_PROBE_ID and GPUCHECK_PROBE_TITLE, which run()
// reports, so a probe's sources never spell them.
//
// Protocol with the runner: `PROBE --result-fd N --level quick|standard|long [probe args]`. The probe
// writes exactly one JSON result object to fd N and exits 0 whatever the verdict (the verdict is in the
// JSON). Run by hand without --result-fd it prints a one-line verdict, or the JSON with --json.
#include <functional>
#include <string>
#include <vector>

#include "core/finding.h"
#include "core/probe_phase.h"

namespace gpucheck::probe {

struct Context {
  std::string level = "standard";  // quick | standard | long
  std::vector<std::string> args;   // arguments not consumed by the common parser
  std::string arg(const std::string& name, const std::string& fallback = "") const;  // --name VALUE
  bool flag(const std::string& name) const;                                          // --name
};

using Body = std::function<void(const Context&, Finding&)>;

/// Runs `body` with a Finding pre-filled with id/title; measures duration; turns an escaping exception into
/// status `error` with its message. Returns the process exit code (0 when the result was delivered).
/// Probes call run() below, which passes the id and title from their manifest.
int run_as(int argc, char** argv, const char* id, const char* title, const Body& body);

/// Marks the result as skipped with a reason (convenience for the common "cannot run here").
void skip(Finding& r, const std::string& reason);

/// Says what the probe is doing now ("cudaMalloc 64 GiB on GPU 3", "ncclAllReduce 1 GiB, step 12") and which
/// GPUs and ranks it has reached so far (added to those of earlier phases), so that a runner that has to
/// kill it can name the call it hung in (runner/probe_runner.h, docs/acceptance.md "Named hangs"). Written
/// to the file the runner names in GPUCHECK_PHASE_FILE (a temp file, then rename(): the runner never reads
/// half a phase); a no-op without it. Call it before each step that can block, not inside tight loops.
void phase(const std::string& what, const std::vector<int>& gpus = {}, const std::vector<int>& ranks = {});


#if defined(GPUCHECK_PROBE_ID) && defined(GPUCHECK_PROBE_TITLE)
/// This probe's id and title, from its probe.json (defined only in a probe built by gpucheck_add_probe).
inline constexpr const char* kId = GPUCHECK_PROBE_ID;
inline constexpr const char* kTitle = GPUCHECK_PROBE_TITLE;

/// run_as() with this probe's id and title.
inline int run(int argc, char** argv, const Body& body) { return run_as(argc, argv, kId, kTitle, body); }
#endif

}  // namespace gpucheck::probe
