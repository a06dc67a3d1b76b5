#include "runner/bench_suites.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

#include "core/interrupt.h"
#include "core/json_input.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/paths.h"
#include "core/text.h"
#include "runner/containment.h"

namespace gpucheck::runner {

namespace fs = std::filesystem;

std::string bench_dir() {
  if (const char* v = std::getenv("GPUCHECK_BENCH_DIR"); v && *v) return v;
  return fs::path(self_executable()).parent_path().string();
}

std::vector<BenchSuite> load_bench_suites(const std::string& manifest, const std::string& dir) {
  nlohmann::json j = read_json_file(manifest);
  std::vector<BenchSuite> out;
  try {
    std::set<std::string> names;
    for (const auto& s : j.at("suites")) {
      BenchSuite b;
      b.name = s.at("name").get<std::string>();
      std::string exe = s.at("executable").get<std::string>();
      if (exe.empty() || exe.find('/') != std::string::npos || exe == "." || exe == "..")
        throw InputError("suite '" + b.name + "': executable must be a plain file name");
      if (!names.insert(b.name).second) throw InputError("suite '" + b.name + "' is listed twice");
      b.executable = dir + "/" + exe;
      b.subject = s.value("subject", "");
      b.gpu = s.value("gpu", false);
      b.timeout_s = s.value("timeout_s", 1800.0);
      if (!(b.timeout_s > 0)) throw InputError("suite '" + b.name + "': timeout_s must be positive");
      out.push_back(b);
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError("benchmark suite list " + manifest + ": " + e.what());
  } catch (const InputError& e) {
    throw InputError("benchmark suite list " + manifest + ": " + e.what());
  }
  return out;
}

std::vector<std::string> suite_argv(const BenchSuite& s, const BenchOptions& o) {
  std::vector<std::string> argv{s.executable, "--benchmark_format=json",
                                "--benchmark_repetitions=" + std::to_string(o.repetitions)};
  if (!o.filter.empty()) argv.push_back("--benchmark_filter=" + o.filter);
  if (o.min_time_s > 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "--benchmark_min_time=%g", o.min_time_s);
    argv.push_back(buf);
  }
  return argv;
}

namespace {

SuiteRun run_one(const BenchSuite& s, const BenchOptions& o) {
  SuiteRun r;
  r.suite = s;
  if (access(s.executable.c_str(), X_OK) != 0) {
    r.outcome = SuiteRun::Outcome::kNotBuilt;
    r.reason = s.executable + " is not there (not built: Google Benchmark" + std::string(s.gpu ? " or CUDA" : "") +
               " missing at configure time, or an incomplete build)";
    return r;
  }
  SubprocessOptions so;
  so.timeout = std::chrono::milliseconds(static_cast<long long>(1000 * (o.timeout_s > 0 ? o.timeout_s : s.timeout_s)));
  if (o.test_slowdown != 1) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", o.test_slowdown);
    so.set_env["GPUCHECK_BENCH_TEST_SLOWDOWN"] = buf;
  } else {
    so.unset_env.push_back("GPUCHECK_BENCH_TEST_SLOWDOWN");
  }
  SubprocessResult p = run_subprocess(suite_argv(s, o), so);
  r.seconds = p.elapsed_s;
  auto tail = [&] {
    std::string t = trim(p.err);
    return t.size() > 400 ? "..." + t.substr(t.size() - 400) : t;
  };
  if (!p.ok()) {
    r.reason = p.describe() + (tail().empty() ? "" : ": " + tail());
    return r;
  }
  if (trim(p.out).empty()) {
    r.outcome = SuiteRun::Outcome::kNoMatch;
    r.reason = tail().empty() ? "no benchmark ran" : tail();
    return r;
  }
  try {
    r.document = parse_json_input(p.out, "its output");
  } catch (const InputError& e) {
    r.reason = e.what();
    return r;
  }
  if (!r.document.is_object() || !r.document.contains("benchmarks") || !r.document["benchmarks"].is_array()) {
    r.reason = "its output is not a Google Benchmark document (no benchmarks array)";
    r.document = nullptr;
    return r;
  }
  r.outcome = SuiteRun::Outcome::kRan;
  return r;
}

}  // namespace

std::vector<SuiteRun> run_bench_suites(const std::vector<BenchSuite>& suites, const BenchOptions& o) {
  for (const auto& name : o.only) {
    bool known = false;
    std::string names;
    for (const auto& s : suites) {
      known |= s.name == name;
      names += (names.empty() ? "" : ", ") + s.name;
    }
    if (!known) throw InputError("unknown benchmark suite '" + name + "' (suites: " + names + ")");
  }
  std::vector<SuiteRun> out;
  become_subreaper();  // a suite's setsid() descendants become ours, so end_orphans() can end them
  for (const auto& s : suites) {
    if (!o.only.empty() && std::find(o.only.begin(), o.only.end(), s.name) == o.only.end()) continue;
    if (interrupt_signal() != 0) break;  // asked to stop: what finished is the document
    out.push_back(run_one(s, o));
    if (int n = end_orphans(); n > 0)
      out.back().reason += (out.back().reason.empty() ? "" : "; ") + std::to_string(n) +
                           " process(es) the suite left running (detached with setsid), killed";
  }
  return out;
}

nlohmann::json merge_suite_documents(const std::vector<SuiteRun>& runs, const nlohmann::json& gpucheck_context) {
  nlohmann::json doc{{"context", nlohmann::json::object()}, {"benchmarks", nlohmann::json::array()}};
  nlohmann::json suites = nlohmann::json::object();
  for (const auto& r : runs) {
    if (r.outcome != SuiteRun::Outcome::kRan) continue;
    if (doc["context"].empty() && r.document.contains("context") && r.document["context"].is_object())
      doc["context"] = r.document["context"];
    suites[r.suite.name] = r.suite.executable;
    for (auto row : r.document["benchmarks"]) {
      if (row.is_object()) row["suite"] = r.suite.name;
      doc["benchmarks"].push_back(row);
    }
  }
  doc["context"].erase("executable");  // one per suite now, under "suites"
  doc["context"]["suites"] = suites;
  doc["context"]["gpucheck"] = gpucheck_context;
  return doc;
}

}  // namespace gpucheck::runner
