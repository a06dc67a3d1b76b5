#include "report/bench_report.h"

#include <algorithm>
#include <map>

#include "checks/regression/bench_context.h"
#include "core/interrupt.h"
#include "core/text.h"
#include "gpucheck/build_info.h"
#include "model/bench_details.h"

namespace gpucheck::report {

std::string tool_build_description() {
  if (!build::kHaveCuda) return std::string("no cuda") + (build::kHaveTorch ? " torch" : "");
  std::string s = std::string("cuda ") + build::kCudaCompilerVersion + " archs " + build::kCudaArchitectures;
  if (build::kHaveNccl) s += " nccl";
  if (build::kHaveTorch) s += " torch";
  return s;
}

namespace {

Finding suite_finding(const runner::SuiteRun& r, int& benchmarks, int& skipped, std::vector<model::SkippedBenchmark>& skips) {
  Finding f;
  f.id = "bench.suite." + r.suite.name;
  f.title = r.suite.name + ": " + r.suite.subject;
  f.duration_s = r.seconds;
  f.evidence.add("executable", r.suite.executable);
  using O = runner::SuiteRun::Outcome;
  switch (r.outcome) {
    case O::kNotBuilt: f.status = Status::kSkip; f.summary = r.reason; return f;
    case O::kNoMatch: f.status = Status::kSkip; f.summary = "no benchmark matches the filter (" + r.reason + ")"; return f;
    case O::kFailed: f.status = Status::kError; f.summary = r.reason; return f;
    case O::kRan: break;
  }
  // One entry per benchmark (run_name), with its skip reason when it skipped.
  std::vector<std::string> names, skipped_names;
  std::map<std::string, std::string> reason;
  int rows = 0;
  for (const auto& row : r.document["benchmarks"]) {
    if (!row.is_object() || row.value("run_type", "") == "aggregate") continue;
    std::string name = row.value("run_name", row.value("name", ""));
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    if (row.value("error_occurred", false) && !reason.count(name)) {
      reason[name] = row.value("error_message", "");
      skipped_names.push_back(name);
    }
    ++rows;
  }
  benchmarks += static_cast<int>(names.size());
  skipped += static_cast<int>(skipped_names.size());
  for (const auto& n : skipped_names) {
    f.evidence.add(n, "skipped: " + reason[n]);
    skips.push_back({r.suite.name, n, reason[n]});
  }
  f.add_metric("benchmarks", static_cast<double>(names.size()), "");
  f.add_metric("skipped", static_cast<double>(skipped_names.size()), "");
  f.details = {{"benchmarks", names.size()}, {"skipped", skipped_names.size()}, {"rows", rows}};
  if (!names.empty() && skipped_names.size() == names.size()) {
    f.status = Status::kSkip;
    f.summary = "every benchmark skipped (" + std::to_string(names.size()) + "): " + reason[skipped_names.front()];
  } else {
    f.status = Status::kPass;
    f.summary = std::to_string(names.size() - skipped_names.size()) + " benchmarks measured" +
                (skipped_names.empty() ? "" : ", " + std::to_string(skipped_names.size()) + " skipped");
  }
  return f;
}

}  // namespace

model::Report bench_report(const BenchOutcome& o, model::Report rep) {
  int benchmarks = 0, skipped = 0;
  std::vector<model::SkippedBenchmark> skips;
  model::Section& s = rep.section("suites");
  for (const auto& r : o.runs) s.findings.push_back(suite_finding(r, benchmarks, skipped, skips));
  if (o.interrupted_by) {
    // Stopped: the document holds what finished; the run has no verdict (exit 3), never a pass.
    std::vector<std::string> not_run;
    for (const auto& suite : o.suites) {
      if (!o.only.empty() && std::find(o.only.begin(), o.only.end(), suite.name) == o.only.end()) continue;
      bool ran = false;
      for (const auto& r : o.runs) ran = ran || r.suite.name == suite.name;
      if (!ran) not_run.push_back(suite.name);
    }
    Finding stopped;
    stopped.id = "bench.incomplete";
    stopped.status = Status::kError;
    stopped.title = "the benchmark run was stopped";
    stopped.summary = "gpucheck received " + signal_name(o.interrupted_by) + " after " + std::to_string(o.runs.size()) + " suite(s)";
    if (!not_run.empty()) stopped.evidence.add("not run", join(not_run, ", "));
    s.findings.push_back(stopped);
    rep.notes.push_back("incomplete: " + stopped.summary);
  }
  rep.details = model::to_json(model::BenchDetails{o.document, o.context.key, regression::to_json(o.context), benchmarks, skips});
  rep.notes.push_back("benchmark document: " + o.document + " (key " + o.context.key + ")");
  return rep;
}

}  // namespace gpucheck::report
