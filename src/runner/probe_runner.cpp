#include "runner/probe_runner.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include <unistd.h>

#include <sstream>

#include "core/json_input.h"
#include "core/text.h"

namespace gpucheck::runner {

namespace {

constexpr std::size_t kStderrTailLines = 20;
constexpr std::size_t kStderrTailBytes = 4096;  // a report stays readable even after a flood of one line

Finding error_result(const ProbeSpec& spec, const SubprocessResult& o, const std::string& summary) {
  Finding r;
  r.id = spec.id;
  r.title = spec.title;
  r.status = Status::kError;
  r.summary = summary;
  r.duration_s = o.elapsed_s;
  r.evidence["outcome"] = o.describe();
  std::string tail = last_lines(o.err, kStderrTailLines);
  if (tail.size() > kStderrTailBytes) tail = "..." + tail.substr(tail.size() - kStderrTailBytes);
  if (!tail.empty()) r.evidence["stderr_tail"] = tail;
  if (o.err_truncated) r.evidence["stderr_truncated"] = "yes (kept the last " + std::to_string(o.err.size()) + " bytes)";
  return r;
}

std::string fmt_seconds(double s) {
  std::ostringstream o;
  o.precision(3);
  o << s;
  return o.str();
}

}  // namespace

Finding classify_probe_outcome(const ProbeSpec& spec, const SubprocessResult& o, double timeout_s,
                               const std::string& level) {
  if (!o.started) return error_result(spec, o, "probe could not be started: " + o.spawn_error);
  if (o.timed_out) {
    Finding r = error_result(spec, o, "timeout: no result within " + fmt_seconds(timeout_s) + " s (killed)");
    double more = std::min(std::ceil(timeout_s * 2), kMaxTimeoutSeconds);
    std::string cmd = "gpucheck run --only " + spec.id + (level.empty() ? "" : " --level " + level) +
                      " --timeout " + std::to_string(static_cast<long long>(more));
    r.add_fix("If it was only slow (a loaded or small machine), rerun it alone with twice the time", {cmd});
    return r;
  }
  if (o.interrupted)
    return error_result(spec, o, "stopped: gpucheck received " + signal_name(o.interrupted) + " while it ran");
  if (o.signal) return error_result(spec, o, "probe crashed: killed by " + signal_name(o.signal));

  std::string payload = trim(o.result);
  if (payload.empty()) {
    if (o.exit_code != 0)
      return error_result(spec, o, "probe exited with code " + std::to_string(o.exit_code) + " without a result");
    return error_result(spec, o, "probe exited without a result");
  }
  if (o.result_truncated) return error_result(spec, o, "probe result exceeds the size limit");
  Finding r;
  try {
    from_json(parse_json_input(payload, "the result"), r);
  } catch (const std::exception& e) {
    Finding bad = error_result(spec, o, std::string("unparsable probe result: ") + e.what());
    bad.evidence["result_head"] = payload.substr(0, 200);
    return bad;
  }
  // A probe built by gpucheck_add_probe reports the id of the manifest staged beside it, but the manifests
  // and the executables are found separately (GPUCHECK_DATA_DIR, GPUCHECK_PROBE_DIR, an installation
  // overwritten by another version, a hand-copied or symlinked binary), so the pairing is still checked.
  if (r.id != spec.id) {
    return error_result(spec, o, "probe reported id '" + r.id + "' instead of '" + spec.id + "'");
  }
  if (o.exit_code != 0) {
    // A result arrived but the process failed afterwards (e.g. crash in teardown): keep the verdict's
    // data but do not trust it.
    r.evidence["outcome"] = o.describe();
    r.status = Status::kError;
    r.summary = "probe exited with code " + std::to_string(o.exit_code) + " after reporting: " + r.summary;
  }
  if (r.title.empty()) r.title = spec.title;
  r.duration_s = o.elapsed_s;
  return r;
}

Finding run_probe(const ProbeSpec& spec, const RunOptions& options) {
  // Clamped so the conversion to milliseconds below cannot overflow, whatever a caller passes.
  // Scaled to the level's work and this machine's cores unless --timeout says otherwise.
  double timeout = std::clamp(options.timeout_s.value_or(effective_timeout(spec, options.level, std::thread::hardware_concurrency())),
                              0.001, kMaxTimeoutSeconds);
  std::vector<std::string> argv = {spec.executable, "--result-fd", std::to_string(kResultFd), "--level",
                                   options.level};
  if (auto it = spec.level_args.find(options.level); it != spec.level_args.end())
    argv.insert(argv.end(), it->second.begin(), it->second.end());
  argv.insert(argv.end(), options.extra_args.begin(), options.extra_args.end());

  SubprocessOptions so;
  so.timeout = std::chrono::milliseconds(static_cast<long long>(timeout * 1000));
  so.kill_grace = std::chrono::milliseconds(static_cast<long long>(options.kill_grace_s * 1000));
  so.result_fd = kResultFd;
  so.set_env = options.env;
  so.stdout_limit = 1u << 20;
  if (access(spec.executable.c_str(), X_OK) != 0) {
    SubprocessResult missing;
    missing.spawn_error = spec.executable + " is missing or not executable";
    return classify_probe_outcome(spec, missing, timeout, options.level);
  }
  return classify_probe_outcome(spec, run_subprocess(argv, so), timeout, options.level);
}

}  // namespace gpucheck::runner
