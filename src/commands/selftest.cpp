// gpucheck selftest: proves on this node, without touching its GPUs, that every acceptance rule fires on
// the fault it exists for and stays quiet on a clean input (docs/acceptance.md "Selftest"). Faults are
// injected where each rule reads its facts: a stand-in libnvidia-ml.so.1 for device.health's rules, a probe
// that hangs in a named phase for the runner's timeout, a kernel log with a real hardware Xid line for the
// kernel-log rule, hand-made metrics for the threshold rules, and corrupted result buffers for the probes'
// numeric checks. One Finding per rule: pass when it behaved, fail naming the rule when it did not.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <fmt/format.h>

#include "checks/acceptance/thresholds.h"
#include "commands/selftest.h"
#include "core/errors.h"
#include "core/json_input.h"
#include "core/paths.h"
#include "core/rule_switch.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "model/report.h"
#include "runner/catalog.h"
#include "runner/kernel_log_source.h"
#include "runner/suite.h"

namespace gpucheck::commands {
namespace {

// One row: a rule and the fault that must make it fire, or a clean input that must pass.
struct Case {
  std::string rule;      // the rule's id (core/rule_switch.h), or "clean.<what>"
  std::string scenario;  // what was injected
  Status at_least = Status::kFail;  // the status the rule must reach (pass for a clean case: at most info)
  std::string marker;    // text the produced finding must contain
};

bool is_clean(const Case& c) { return starts_with(c.rule, "clean."); }

// Everything a finding says, for the marker: summary, device summaries, evidence.
std::string finding_text(const Finding& f) {
  std::string t = f.summary;
  for (const auto& d : f.devices) t += "\n" + d.summary;
  for (const auto& e : f.evidence) t += "\n" + e.what + ": " + e.value;
  return t;
}

Finding judge_case(const Case& c, const Finding& produced) {
  Finding r;
  r.id = "selftest." + c.rule;
  r.title = is_clean(c) ? "clean input passes: " + c.scenario : "rule " + c.rule + " fires";
  bool ok;
  if (is_clean(c)) {
    ok = severity(produced.status) <= severity(Status::kInfo);
  } else {
    ok = severity(produced.status) >= severity(c.at_least) && finding_text(produced).find(c.marker) != std::string::npos;
  }
  r.status = ok ? Status::kPass : Status::kFail;
  // The seconds a hung probe spent in its phase vary from run to run; the selftest's report must not.
  std::string summary = produced.summary;
  if (auto in = summary.find(" s in it; "); in != std::string::npos)
    if (auto open = summary.rfind('(', in); open != std::string::npos) summary.erase(open + 1, in + 10 - open - 1);
  std::string said = std::string(to_string(produced.status)) + ": " + summary;
  if (is_clean(c))
    r.summary = ok ? "passed clean: " + said : "the clean input did not pass (" + said + ")";
  else
    r.summary = ok ? "fired: " + said
                   : "rule " + c.rule + " did not fire on " + c.scenario + " (expected " + to_string(c.at_least) +
                         " naming '" + c.marker + "'; got " + said + ")";
  r.evidence.add("rule", c.rule);
  r.evidence.add("injected", c.scenario);
  r.evidence.add("finding", produced.id);
  if (!ok && !is_clean(c))
    r.add_fix("the acceptance rule " + c.rule + " no longer fires: a node with this fault would pass; check that "
              "GPUCHECK_SELFTEST_DISABLE is unset and report a bug");
  return r;
}

// ---- device.health against the stand-in NVML -------------------------------------------------------------

const std::vector<Case>& health_cases() {
  static const std::vector<Case> cases = {
      {"clean.health", "healthy counters on 2 GPUs", Status::kPass, ""},
      {"health.ecc_uncorrected", "ecc_uncorrected", Status::kFail, "uncorrected ECC error(s) since the driver loaded"},
      {"health.ecc_lifetime", "ecc_lifetime", Status::kWarn, "in the GPU's lifetime"},
      {"health.retired_pending", "retired_pending", Status::kFail, "pages are pending retirement"},
      {"health.remap_pending", "remap_pending", Status::kFail, "row remapping pending"},
      {"health.remap_failed", "remap_failed", Status::kFail, "a row remapping failed"},
      {"health.inforom_corrupted", "inforom", Status::kFail, "infoROM corrupted"},
      {"health.pcie_width", "pcie_width", Status::kFail, "trained down to fewer lanes"},
      {"health.pcie_gen", "pcie_gen", Status::kFail, "while the GPU is not idle: the link trained down"},
      {"health.gpu_lost", "gpu_lost", Status::kFail, "fallen off the bus"},
      {"health.throttle", "throttle", Status::kWarn, "throttling"},
      {"health.xid", "xid", Status::kWarn, "XID 79 reported"},
  };
  return cases;
}

std::vector<Finding> health_rules(const std::string& selftest_dir) {
  std::vector<Finding> out;
  auto catalog = runner::load_catalog(data_path("probes"), probe_dir());
  const runner::ProbeSpec* health = nullptr;
  for (const auto& p : catalog)
    if (p.id == "device.health") health = &p;
  std::string nvml = selftest_dir + "/libnvidia-ml.so.1";
  for (const auto& c : health_cases()) {
    Finding produced;
    if (!health || access(nvml.c_str(), R_OK) != 0) {
      produced.id = "device.health";
      produced.status = Status::kError;
      produced.summary = !health ? "the device.health probe is not installed" : nvml + " is missing";
    } else {
      runner::RunOptions o;
      o.timeout_s = 60;
      o.extra_args = {"--xid-watch-ms", "300"};
      o.env = {{"GPUCHECK_NVML", nvml}, {"CUDA_VISIBLE_DEVICES", "0,1"},
               {"GPUCHECK_FAKE_NVML_FAULT", is_clean(c) ? "" : c.scenario}};
      produced = runner::run_probe(*health, o);
    }
    Case shown = c;
    if (!is_clean(c)) shown.scenario = "stand-in NVML fault '" + c.scenario + "'";
    out.push_back(judge_case(shown, produced));
  }
  return out;
}

// ---- the runner's timeout and the probe's named phase ------------------------------------------------------

std::vector<Finding> runner_rules(const std::string& selftest_dir, std::vector<Finding>& clean_probe,
                                  std::vector<acceptance::ProbeWindow>& clean_window) {
  runner::ProbeSpec hang;
  hang.id = "selftest.hang";
  hang.title = "a probe that hangs in a named phase";
  hang.executable = selftest_dir + "/hang-probe";
  runner::RunOptions o;
  o.timeout_s = 3;
  o.kill_grace_s = 1;
  Finding hung = runner::run_probe(hang, o);
  std::vector<Finding> out;
  out.push_back(judge_case({"runner.timeout", "a probe blocked forever (killed after 3 s)", Status::kError, "timeout"}, hung));
  out.push_back(judge_case({"runner.timeout_phase", "the same probe, last phase 'ncclAllReduce 1 GiB, step 12'",
                            Status::kError, "in phase 'ncclAllReduce 1 GiB, step 12'"},
                           hung));
  // The same probe finishing: the clean run, and the probe the kernel-log rule gets its Xid on.
  o.extra_args = {"--no-hang"};
  o.timeout_s = 30;
  clean_probe = runner::run_suite({hang}, o, {}, &clean_window);
  out.push_back(judge_case({"clean.runner", "the same probe with --no-hang", Status::kPass, ""},
                           clean_probe.empty() ? Finding{} : clean_probe[0]));
  return out;
}

// ---- the kernel log: a real hardware Xid line while a probe ran -------------------------------------------

std::string iso_utc(double epoch) {
  std::time_t t = static_cast<std::time_t>(epoch);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return fmt::format("{}.{:06d}Z", buf, static_cast<int>((epoch - static_cast<double>(t)) * 1e6));
}

Finding attach_saved_log(const std::vector<Finding>& probe, const std::vector<acceptance::ProbeWindow>& window,
                         const std::vector<std::string>& messages) {
  std::vector<Finding> findings = probe;
  if (findings.empty() || window.empty()) {
    Finding f;
    f.id = "selftest.hang";
    f.status = Status::kError;
    f.summary = "the probe the kernel log is laid over did not run";
    return f;
  }
  char path[] = "/tmp/gpucheck-selftest-kmsg-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) throw std::runtime_error("cannot create a temporary kernel log in /tmp");
  ::close(fd);
  {
    // Stamped inside the probe's window, in the ISO form journalctl -o short-iso writes.
    double mid = (window[0].epoch_start + window[0].epoch_end) / 2;
    std::ofstream log(path);
    for (const auto& m : messages) log << iso_utc(mid) << " selftest kernel: " << m << "\n";
  }
  runner::KernelLogOptions ko;
  ko.mode = "file";
  ko.file = path;
  runner::add_kernel_evidence(findings, window, ko, data_path("kernel/xid.json"));
  ::unlink(path);
  return findings[0];
}

std::vector<Finding> kernel_log_rules(const std::vector<Finding>& probe, const std::vector<acceptance::ProbeWindow>& window) {
  std::vector<Finding> out;
  // open-gpu-kernel-modules#1151 (RTX 5080): the Xid line as the reporter's journal logged it.
  Finding hw = attach_saved_log(probe, window, {"NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus."});
  out.push_back(judge_case({"kernel_log.xid_fails_node", "an Xid 79 line (open-gpu-kernel-modules#1151) while a passing probe ran",
                            Status::kFail, "Xid 79 (GPU has fallen off the bus)"},
                           hw));
  // chia-gigahorse#301: a line that is no NVRM error; the probe must stay as it was.
  Finding quiet = attach_saved_log(probe, window, {"sched: RT throttling activated"});
  out.push_back(judge_case({"clean.kernel_log", "a kernel log without NVRM errors", Status::kPass, ""}, quiet));
  return out;
}

// ---- the threshold rules on hand-made metrics ----------------------------------------------------------------

std::vector<Finding> threshold_rules() {
  auto catalog = acceptance::load_device_catalog(data_path("devices"), data_path("links/pcie.json"));
  auto node = [&](const std::string& probe, const std::string& metric, const std::string& unit,
                  const std::vector<double>& values, const std::vector<double>& baseline) {
    acceptance::ThresholdInput in;
    in.catalog = catalog;
    Finding f, b;
    f.id = b.id = probe;
    f.status = b.status = Status::kPass;
    for (std::size_t i = 0; i < values.size(); ++i) {
      std::string uuid = fmt::format("GPU-5e1f7e57-0000-0000-0000-{:012d}", i);
      DeviceFinding d;
      d.device = std::to_string(i);
      d.status = Status::kPass;
      d.evidence["uuid"] = uuid;
      d.metrics.push_back({metric, values[i], unit, unit == "count" ? "lower" : "higher"});
      f.devices.push_back(d);
      if (!baseline.empty()) {
        d.metrics[0].value = baseline[i];
        b.devices.push_back(d);
      }
      in.gpus.push_back({std::to_string(i), uuid, fmt::format("00000000:{:02X}:00.0", 0x18 + i), "NVIDIA H100 80GB HBM3", 0x2330});
    }
    in.findings.push_back(f);
    if (!baseline.empty()) {
      in.baseline.push_back(b);
      in.baseline_gpus = in.gpus;
      in.baseline_origin = "selftest baseline";
    }
    auto judged = acceptance::judge_thresholds(in);
    if (judged.empty()) {
      Finding none;
      none.id = "thresholds." + probe;
      none.status = Status::kError;
      none.summary = "no threshold finding";
      return none;
    }
    return judged[0];
  };
  std::vector<double> healthy(8, 800), base(8, 800);
  std::vector<Finding> out;
  out.push_back(judge_case({"clean.thresholds", "8 H100 SXM at 800 TFLOP/s fp16, baseline 800", Status::kPass, ""},
                           node("cublas.gemm", "tflops_fp16", "TFLOP/s", healthy, base)));
  out.push_back(judge_case({"thresholds.reference_share", "8 H100 SXM at 500 TFLOP/s fp16 (datasheet 989.4)",
                            Status::kFail, "[reference_share]"},
                           node("cublas.gemm", "tflops_fp16", "TFLOP/s", std::vector<double>(8, 500), {})));
  std::vector<double> one_slow = healthy;
  one_slow[5] = 700;
  out.push_back(judge_case({"thresholds.peer_outlier", "GPU 5 at 700 TFLOP/s fp16 among 7 at 800", Status::kFail, "[peer_outlier]"},
                           node("cublas.gemm", "tflops_fp16", "TFLOP/s", one_slow, {})));
  out.push_back(judge_case({"thresholds.baseline", "8 GPUs at 700 TFLOP/s fp16, each 800 in the baseline", Status::kFail, "[baseline]"},
                           node("cublas.gemm", "tflops_fp16", "TFLOP/s", std::vector<double>(8, 700), base)));
  std::vector<double> bad(8, 0);
  bad[2] = 1;
  out.push_back(judge_case({"thresholds.nonzero", "device.memory: 1 bad address on GPU 2", Status::kFail, "[nonzero]"},
                           node("device.memory", "bad_addresses", "count", bad, {})));
  return out;
}

// ---- the probes' numeric checks on corrupted buffers ---------------------------------------------------------

std::vector<Finding> numeric_rules(const std::string& selftest_dir) {
  std::vector<Finding> out;
  SubprocessOptions so;
  so.timeout = std::chrono::seconds(60);
  auto r = run_subprocess({selftest_dir + "/numeric-checks"}, so);
  auto doc = parse_json_or_discarded(r.out);
  if (!r.ok() || !doc.is_object() || !doc.contains("checks") || !doc["checks"].is_array()) {
    Finding broken;
    broken.id = "selftest.numeric";
    broken.status = Status::kError;
    broken.title = "the probes' numeric checks could not run";
    broken.summary = selftest_dir + "/numeric-checks: " + r.describe() + " " + last_lines(r.err, 3);
    out.push_back(broken);
    return out;
  }
  std::map<std::string, int> seen;  // a rule with several scenarios: .2, .3 on the later ones
  for (const auto& c : doc["checks"]) {
    std::string rule = c.value("rule", "?"), scenario = c.value("scenario", "?");
    int n = ++seen[rule];
    std::string suffix = n == 1 ? "" : "." + std::to_string(n);
    auto as_finding = [&](const nlohmann::json& o, const std::string& id) {
      Finding f;
      f.id = id;
      bool flagged = o.is_object() && o.value("flagged", false);
      f.status = flagged ? Status::kFail : Status::kPass;
      f.summary = (flagged ? "flagged: " : "not flagged: ") + (o.is_object() ? o.value("detail", "") : "");
      return f;
    };
    Case clean{"clean." + rule.substr(rule.find('.') + 1) + suffix, "uncorrupted " + scenario.substr(0, scenario.find(':')),
               Status::kPass, ""};
    out.push_back(judge_case(clean, as_finding(c["clean"], rule)));
    Case fault{rule, scenario, Status::kFail, "flagged"};
    Finding judged = judge_case(fault, as_finding(c["corrupted"], rule));
    judged.id += suffix;
    out.push_back(judged);
  }
  return out;
}

}  // namespace

std::vector<std::string> selftest_rules() {
  std::vector<std::string> ids;
  for (const auto& c : health_cases())
    if (!is_clean(c)) ids.push_back(c.rule);
  for (const char* r : {"runner.timeout_phase", "kernel_log.xid_fails_node", "thresholds.reference_share",
                        "thresholds.peer_outlier", "thresholds.baseline", "thresholds.nonzero", "probe.gemm_exact",
                        "probe.gemm_tolerance", "probe.pattern_verify", "probe.collective_bits"})
    ids.push_back(r);
  return ids;
}

model::Report selftest(const std::vector<std::string>& disable, model::Report rep) {
  auto known = selftest_rules();
  std::vector<std::string> disabled;
  for (const auto& arg : disable)
    for (const auto& id : split(arg, ',')) {
      std::string r = trim(id);
      if (std::find(known.begin(), known.end(), r) == known.end())
        throw InputError("--disable " + r + ": not a rule the selftest can remove (one of: " + join(known, ", ") + ")");
      disabled.push_back(r);
    }
  if (!disabled.empty()) {
    const char* had = std::getenv(kDisableRuleEnv);
    std::string all = (had && *had ? std::string(had) + "," : "") + join(disabled, ",");
    setenv(kDisableRuleEnv, all.c_str(), 1);  // in-process rules and every helper spawned below
  }
  std::string dir = probe_dir() + "/selftest";
  auto& rows = rep.section("selftest").findings;
  auto add = [&](std::vector<Finding> v) { rows.insert(rows.end(), v.begin(), v.end()); };
  add(health_rules(dir));
  std::vector<Finding> clean_probe;
  std::vector<acceptance::ProbeWindow> window;
  add(runner_rules(dir, clean_probe, window));
  add(kernel_log_rules(clean_probe, window));
  add(threshold_rules());
  add(numeric_rules(dir));
  if (const char* d = std::getenv(kDisableRuleEnv); d && *d)
    rep.notes.push_back(std::string("rules removed for this run (") + kDisableRuleEnv + "): " + d);
  std::size_t fired = 0, faults = 0;
  for (const auto& f : rows)
    if (!starts_with(f.id, "selftest.clean.")) {
      ++faults;
      fired += f.status == Status::kPass;
    }
  rep.notes.push_back(fmt::format("{} of {} injected faults fired their rule; {} clean inputs", fired, faults,
                                  rows.size() - faults));
  return rep;
}

}  // namespace gpucheck::commands
