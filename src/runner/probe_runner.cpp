#include "runner/probe_runner.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <sstream>

#include "core/json_input.h"
#include "core/regular_file.h"
#include "core/rule_switch.h"
#include "core/text.h"
#include "core/probe_phase.h"

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

std::string numbers(const std::vector<int>& v) {
  std::vector<std::string> s;
  for (int x : v) s.push_back(std::to_string(x));
  return join(s, ",");
}

// The phase in evidence, details and a metric (its name carries the phase: Prometheus shows it too).
void record_phase(Finding& r, const ProbePhase& p) {
  r.evidence["phase"] = p.what;
  r.evidence["phase_for_s"] = fmt_seconds(p.seconds_in);
  r.evidence["gpus_reached"] = p.gpus.empty() ? "none" : numbers(p.gpus);
  r.evidence["ranks_reached"] = p.ranks.empty() ? "none" : numbers(p.ranks);
  r.details["phase"] = {{"what", p.what}, {"seconds_in", p.seconds_in}, {"gpus_reached", p.gpus},
                        {"ranks_reached", p.ranks}, {"phases_seen", p.seq}};
  r.add_metric("seconds in phase: " + p.what, p.seconds_in, "s");
}

// A private directory for one probe's phase file: the probe writes a temp file there and renames it.
struct PhaseDir {
  std::string dir, file;
  PhaseDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string tmpl = std::string(tmp && *tmp == '/' ? tmp : "/tmp") + "/gpucheck-phase-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data())) dir = buf.data(), file = dir + "/phase.json";
  }
  ~PhaseDir() {
    if (dir.empty()) return;
    ::unlink(file.c_str());
    ::unlink((file + ".tmp").c_str());
    ::rmdir(dir.c_str());
  }
  // The last phase, timed from its file's mtime (when the probe renamed it into place) to `end`.
  std::optional<ProbePhase> read(double end_epoch) const {
    if (file.empty()) return std::nullopt;
    auto p = parse_phase(read_regular_file(file, 64u << 10));
    struct stat st {};
    if (p && ::stat(file.c_str(), &st) == 0) {
      double began = static_cast<double>(st.st_mtim.tv_sec) + static_cast<double>(st.st_mtim.tv_nsec) / 1e9;
      p->seconds_in = std::max(0.0, end_epoch - began);
    }
    return p;
  }
};

double epoch_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

}  // namespace

std::optional<ProbePhase> parse_phase(const std::string& text) {
  auto j = parse_json_or_discarded(text);
  if (!j.is_object() || !j.contains("phase") || !j["phase"].is_string()) return std::nullopt;
  ProbePhase p;
  p.what = j["phase"].get<std::string>().substr(0, 300);
  auto ints = [&](const char* key, std::vector<int>& out) {
    if (!j.contains(key) || !j[key].is_array()) return;
    for (const auto& v : j[key])
      if (v.is_number_integer() && out.size() < 4096) out.push_back(v.get<int>());
  };
  ints("gpus_reached", p.gpus);
  ints("ranks_reached", p.ranks);
  if (j.contains("seq") && j["seq"].is_number_unsigned()) p.seq = j["seq"].get<unsigned long long>();
  return p;
}

Finding classify_probe_outcome(const ProbeSpec& spec, const SubprocessResult& o, double timeout_s,
                               const std::string& level, const std::optional<ProbePhase>& reported) {
  // gpucheck selftest's hook: without this rule a hang is reported as a bare timeout, as it used to be.
  const std::optional<ProbePhase> phase = rule_disabled("runner.timeout_phase") ? std::nullopt : reported;
  if (!o.started) return error_result(spec, o, "probe could not be started: " + o.spawn_error);
  if (o.timed_out) {
    std::string where;
    if (phase) {
      where = " in phase '" + phase->what + "' (" + fmt_seconds(phase->seconds_in) + " s in it";
      if (!phase->gpus.empty()) where += "; GPUs reached: " + numbers(phase->gpus);
      if (!phase->ranks.empty()) where += "; ranks reached: " + numbers(phase->ranks);
      where += ")";
    } else {
      where = " (it reported no phase)";
    }
    Finding r = error_result(spec, o, "timeout" + where + ": no result within " + fmt_seconds(timeout_s) + " s (killed)");
    if (phase) record_phase(r, *phase);
    double more = std::min(std::ceil(timeout_s * 2), kMaxTimeoutSeconds);
    std::string cmd = "gpucheck run --only " + spec.id + (level.empty() ? "" : " --level " + level) +
                      " --timeout " + std::to_string(static_cast<long long>(more));
    r.add_fix("If it was only slow (a loaded or small machine), rerun it alone with twice the time", {cmd});
    return r;
  }
  if (o.interrupted) {
    Finding r = error_result(spec, o, "stopped: gpucheck received " + signal_name(o.interrupted) + " while it ran" +
                                          (phase ? " in phase '" + phase->what + "'" : ""));
    if (phase) record_phase(r, *phase);
    return r;
  }
  if (o.signal) {
    Finding r = error_result(spec, o, "probe crashed: killed by " + signal_name(o.signal) +
                                          (phase ? " in phase '" + phase->what + "'" : ""));
    if (phase) record_phase(r, *phase);
    return r;
  }

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
  PhaseDir phase_dir;
  if (!phase_dir.file.empty()) so.set_env[kPhaseFileEnv] = phase_dir.file;
  so.stdout_limit = 1u << 20;
  if (access(spec.executable.c_str(), X_OK) != 0) {
    SubprocessResult missing;
    missing.spawn_error = spec.executable + " is missing or not executable";
    return classify_probe_outcome(spec, missing, timeout, options.level);
  }
  double start = epoch_seconds();
  SubprocessResult outcome = run_subprocess(argv, so);
  // A hang is timed to the kill (start + timeout), not to the end of the grace period after it.
  double end = outcome.timed_out ? start + timeout : epoch_seconds();
  return classify_probe_outcome(spec, outcome, timeout, options.level, phase_dir.read(end));
}

}  // namespace gpucheck::runner
