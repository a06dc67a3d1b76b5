#include "checks/regression/comparison.h"

#include <cstdio>
#include <stdexcept>

#include "checks/regression/history.h"

namespace gpucheck::regression {

namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// Repetitions in the unit of their median, 4 significant digits: "(us)", "372.9 366.4 ..." (fits 80 columns
// for 9 repetitions; every value is in details.times_ns as well).
std::pair<std::string, std::string> times_text(const std::vector<double>& t) {
  const double m = median(t);
  const std::pair<const char*, double> unit = m >= 1e9 ? std::pair{"s", 1e9} : m >= 1e6 ? std::pair{"ms", 1e6}
                                              : m >= 1e3 ? std::pair{"us", 1e3} : std::pair{"ns", 1.0};
  std::string s;
  for (double x : t) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", x / unit.second);
    s += (s.empty() ? "" : " ") + std::string(buf);
  }
  return {unit.first, s};
}

nlohmann::json samples_json(const std::vector<double>& t) {
  return {{"median_ns", median(t)}, {"repetitions", t.size()}, {"times_ns", t}};
}

Status status_of(Verdict v) {
  switch (v) {
    case Verdict::kRegression: return Status::kFail;
    case Verdict::kImprovement: return Status::kInfo;
    case Verdict::kUnchanged: return Status::kPass;
    case Verdict::kUndecidable: return Status::kSkip;
  }
  return Status::kPass;
}

Finding skipped(const std::string& name, const std::string& why) {
  Finding f;
  f.id = "bench.skipped";
  f.status = Status::kSkip;
  f.title = name;
  f.summary = why;
  f.details = {{"name", name}, {"verdict", "skipped"}};
  return f;
}

Finding judged(const std::string& name, const std::vector<double>& base, const std::vector<double>& current,
               const SampleComparison& c, const GateOptions& o) {
  Finding f;
  f.id = std::string("bench.") + to_string(c.verdict);
  f.status = status_of(c.verdict);
  f.title = name;
  f.summary = c.reason;
  auto [base_unit, base_text] = times_text(base);
  auto [new_unit, new_text] = times_text(current);
  f.evidence.add("base (" + base_unit + ")", base_text);
  f.evidence.add("new (" + new_unit + ")", new_text);
  f.evidence.add("Mann-Whitney U", fixed(c.test.u1, 1) + (c.test.exact ? " (exact p)" : " (normal approximation)"));
  if (c.verdict == Verdict::kRegression)
    f.explanation = "The median time grew by more than the threshold and the U test says the two sets of "
                    "repetitions differ at the chosen significance level: this is not noise.";
  if (c.verdict == Verdict::kUndecidable)
    f.add_fix("Run more repetitions (gpucheck bench --repetitions 9 is the default)");
  f.add_metric("base_ns", c.base_median, "ns", "lower");
  f.add_metric("new_ns", c.new_median, "ns", "lower");
  f.add_metric("change_pct", 100 * c.change, "%", "lower");
  f.add_metric("p_value", c.test.p, "");
  f.details = {{"name", name},          {"verdict", to_string(c.verdict)}, {"change", c.change},
               {"base", samples_json(base)}, {"new", samples_json(current)}, {"u", c.test.u1},
               {"p", c.test.p},          {"exact", c.test.exact},          {"ties", c.test.ties},
               {"threshold", o.threshold}, {"alpha", o.alpha}};
  return f;
}

}  // namespace

ContextCheck check_contexts(const BenchmarkDocument& base, const BenchmarkDocument& current, bool allow) {
  ContextCheck k;
  auto part = [](const BenchmarkDocument& d) {
    return d.context.contains("gpucheck") ? d.context["gpucheck"] : nlohmann::json();
  };
  k.base = context_from_json(part(base), k.base_found);
  k.current = context_from_json(part(current), k.current_found);
  if (!k.base_found || !k.current_found) {
    const std::string& which = !k.base_found ? base.name : current.name;
    Finding f;
    f.id = "compare.context_unknown";
    f.status = allow ? Status::kWarn : Status::kError;
    f.title = "No hardware+software context in " + which;
    f.summary = which + " has no gpucheck context (not written by `gpucheck bench`): what it was measured on "
                "is unknown" + std::string(allow ? "; compared anyway (--allow-mismatch)." : ", so it is not compared.");
    f.add_fix("Record both runs with gpucheck bench, or compare anyway", {"gpucheck compare --allow-mismatch " + base.name + " " + current.name});
    k.refused = !allow;
    k.finding = f;
    return k;
  }
  k.differences = context_differences(k.base, k.current);
  bool key_differs = false;
  for (const auto& d : k.differences) key_differs |= d.in_key;
  if (k.differences.empty()) return k;
  Finding f;
  f.id = key_differs ? "compare.context_mismatch" : "compare.context_other_card";
  f.status = key_differs ? (allow ? Status::kWarn : Status::kError) : Status::kInfo;
  f.title = key_differs ? "The runs were measured on different hardware or software"
                        : "The runs were measured on other cards of the same model";
  for (const auto& d : k.differences)
    f.evidence.add(d.field, (d.base.empty() ? "(none)" : d.base) + " -> " + (d.current.empty() ? "(none)" : d.current));
  f.evidence.add("key", k.base.key + " -> " + k.current.key);
  if (key_differs) {
    f.summary = allow ? "Compared anyway (--allow-mismatch): a change may come from the context, not the code."
                      : "Not compared: a difference could come from the context as well as from the code.";
    f.explanation = "A benchmark time belongs to the GPU, driver and libraries it was measured with; asv, "
                    "conbench and Bencher likewise compare only runs on the same machine configuration.";
    f.add_fix("Compare against a baseline with the same key (gpucheck compare --baseline-dir DIR NEW), or compare anyway",
              {"gpucheck compare --allow-mismatch " + base.name + " " + current.name});
    k.refused = !allow;
  } else {
    f.summary = "Same models, driver and libraries; other physical cards, which may differ by a few percent.";
  }
  f.details = {{"base", to_json(k.base)}, {"new", to_json(k.current)}};
  k.finding = f;
  return k;
}

Comparison compare_documents(const BenchmarkDocument& base, const BenchmarkDocument& current, const CompareOptions& o) {
  Comparison out;
  out.context = check_contexts(base, current, o.allow_mismatch);
  for (const auto& b : base.benchmarks)
    if (!current.find(b.name)) out.only_base.push_back(b.name);
  for (const auto& n : current.benchmarks)
    if (!base.find(n.name)) out.only_current.push_back(n.name);
  if (out.context.refused) return out;
  for (const auto& n : current.benchmarks) {
    const BenchmarkSamples* b = base.find(n.name);
    if (!b) continue;
    if (!b->error.empty() || !n.error.empty()) {
      out.benchmarks.push_back(skipped(n.name, "skipped: " + (!n.error.empty() ? n.error : b->error)));
      continue;
    }
    if (b->times_ns.empty() || n.times_ns.empty() || !(median(b->times_ns) > 0)) {
      out.benchmarks.push_back(skipped(n.name, "no positive times to compare"));
      continue;
    }
    auto c = compare_samples(b->times_ns, n.times_ns, o.gate);
    out.benchmarks.push_back(judged(n.name, b->times_ns, n.times_ns, c, o.gate));
    // The same-run ratios the benchmark reports (ratio_to_copy, ratio_to_triad, ...), for the reader.
    if (!b->counters.empty() || !n.counters.empty())
      out.benchmarks.back().details["counters"] = counters_details(b->counters, n.counters);
  }
  return out;
}

std::optional<Finding> nothing_measured(const Comparison& c, const std::string& current_name) {
  if (c.context.refused) return std::nullopt;
  std::size_t skipped_count = 0;
  for (const auto& f : c.benchmarks) {
    if (f.id != "bench.skipped") return std::nullopt;
    ++skipped_count;
  }
  Finding f;
  f.id = "compare.nothing_measured";
  f.status = Status::kError;
  f.title = "NEW measured none of the baseline's benchmarks";
  f.summary = current_name + ": " +
              (c.benchmarks.empty() && c.only_current.empty()
                   ? std::string("no benchmark at all")
                   : std::to_string(skipped_count) + " benchmark(s) in both runs, each errored or skipped; " +
                         std::to_string(c.only_base.size()) + " only in the baseline") +
              ". Nothing was compared, so there is no verdict (a bench run whose suites crashed or skipped "
              "everything must not pass the gate).";
  f.add_fix("Look at why the run measured nothing: its document's error_message rows, or the bench report");
  f.details = {{"skipped", skipped_count}, {"only_base", c.only_base.size()}, {"only_new", c.only_current.size()}};
  return f;
}

nlohmann::json counters_details(const std::map<std::string, double>& base, const std::map<std::string, double>& current) {
  return {{"base", base}, {"new", current}};
}

Comparison compare_history(const std::vector<BenchmarkDocument>& history, const BenchmarkDocument& current,
                           const CompareOptions& o) {
  if (history.empty()) throw std::invalid_argument("compare_history: no history");
  Comparison out;
  for (const auto& h : history) {
    ContextCheck k = check_contexts(h, current, o.allow_mismatch);
    if (k.finding && (k.refused || !out.context.finding)) out.context = k;
    if (k.refused) return out;
  }
  const BenchmarkDocument& last = history.back();
  for (const auto& b : last.benchmarks)
    if (!current.find(b.name)) out.only_base.push_back(b.name);
  for (const auto& n : current.benchmarks) {
    // The runs that measured this benchmark, oldest first, then NEW.
    std::vector<std::vector<double>> runs;
    std::vector<std::string> names;
    std::string error = n.error;
    for (const auto& h : history)
      if (const auto* s = h.find(n.name); s && s->error.empty() && !s->times_ns.empty() && median(s->times_ns) > 0) {
        runs.push_back(s->times_ns);
        names.push_back(h.name);
      }
    if (runs.empty()) {
      out.only_current.push_back(n.name);
      continue;
    }
    if (!error.empty() || n.times_ns.empty()) {
      out.benchmarks.push_back(skipped(n.name, "skipped: " + (error.empty() ? "no times" : error)));
      continue;
    }
    runs.push_back(n.times_ns);
    names.push_back(current.name);
    StepChange step = find_step(runs, o.gate);
    std::vector<double> before, after;
    for (std::size_t i = 0; i < runs.size(); ++i)
      (i < step.split ? before : after).insert((i < step.split ? before : after).end(), runs[i].begin(), runs[i].end());
    Finding f = judged(n.name, before, after, step.comparison, o.gate);
    f.evidence.add("step", "from " + names[step.split] + " (" + std::to_string(step.split) + " runs before, " +
                               std::to_string(runs.size() - step.split) + " from it on)");
    f.details["step"] = {{"at", names[step.split]}, {"runs_before", step.split}, {"runs_after", runs.size() - step.split}};
    if (step.comparison.verdict != Verdict::kUnchanged && step.comparison.verdict != Verdict::kUndecidable)
      f.summary += "; step at " + names[step.split];
    out.benchmarks.push_back(f);
  }
  return out;
}

}  // namespace gpucheck::regression
