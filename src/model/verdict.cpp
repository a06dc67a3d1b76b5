#include "model/verdict.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "core/shell_quote.h"
#include "core/text.h"
#include "core/verdict.h"
#include "model/compare_details.h"
#include "model/diff_details.h"
#include "model/doctor_details.h"
#include "model/explain_details.h"

namespace gpucheck::model {
namespace {

using model::Report;

// The value of `--name V` or `--name=V` on the report's command line; "" when absent.
std::string option_value(const Report& r, const std::string& name) {
  const auto& argv = r.meta.command_line;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    if (argv[i] == name && i + 1 < argv.size()) return argv[i + 1];
    if (starts_with(argv[i], name + "=")) return argv[i].substr(name.size() + 1);
  }
  return "";
}

// " --from F", " --root D", " --python P": the options that chose what the report judged, so the command
// printed judges the same thing again.
std::string source_options(const Report& r, std::initializer_list<const char*> names) {
  std::string out;
  for (const char* n : names) {
    std::string v = option_value(r, n);
    if (!v.empty()) out += std::string(" ") + n + " " + shell_quote(v);
  }
  return out;
}

std::vector<const Finding*> with_status(const Report& r, Status s) {
  std::vector<const Finding*> out;
  for (const auto* f : r.findings())
    if (f->status == s) out.push_back(f);
  return out;
}

std::string ids(const std::vector<const Finding*>& fs) {
  std::vector<std::string> out;
  for (const auto* f : fs) out.push_back(f->id);
  return join(out, ",");
}

// "fix 1 of [id] above" when the finding has a fix, else "what [id] found above".
std::string act_on(const Finding& f) {
  return f.fixes.empty() ? "read what [" + f.id + "] found above" : "apply fix 1 of [" + f.id + "] above";
}

// The one ranking every command uses (core/verdict.h): broken now, then at risk, root cause first.
const Finding* first_problem(const Report& r) { return first_to_act_on(r.findings()); }

// The inventory looked at this machine and found no NVIDIA GPU (no PCI device, no /dev/nvidiaN, no
// driver): nothing GPU-side can be tested, so no next step sends the user to another command for it.
bool no_nvidia_gpu(const Report& r) {
  const auto& inv = r.inventory;
  if (!inv.is_object() || !inv.contains("gpu_presence") || !inv["gpu_presence"].is_object()) return false;
  const auto& p = inv["gpu_presence"];
  auto empty = [](const nlohmann::json& j, const char* k) { return !j.contains(k) || !j[k].is_array() || j[k].empty(); };
  const bool driver = inv.contains("driver") && inv["driver"].is_object() && inv["driver"].value("present", false);
  return p.value("checked", false) && empty(p, "pci_devices") && empty(p, "device_nodes") && empty(inv, "gpus") && !driver;
}

NextStep run_step(const Report& r, const model::Summary& s, const std::string& prog) {
  const std::string python = source_options(r, {"--python"});
  auto failed = with_status(r, Status::kFail), errored = with_status(r, Status::kError);
  if (!failed.empty()) return {act_on(*failed.front()) + ", then check again:", prog + " run --only " + ids(failed) + python};
  if (!errored.empty()) {
    std::vector<const Finding*> probes;
    for (const auto* f : errored)
      if (f->id != "run.incomplete") probes.push_back(f);
    if (probes.empty()) return {"run the probes that did not run (the fix above)", ""};
    return {"see why it gave no verdict:", prog + " run -v --only " + ids(probes) + python};
  }
  if (s.verdict == "NO GPU TESTED" && no_nvidia_gpu(r))
    return {"none here: this machine has no NVIDIA GPU; run the GPU probes on a node that has one", ""};
  if (s.verdict == "NO GPU TESTED" || s.exit_code != 0) return {"find out why the GPU probes skipped:", prog + " doctor" + python};
  if (r.meta.level != "long") return {"none needed; to test more:", prog + " run --level long" + python};
  return {"none: every selected probe passed", ""};
}

NextStep doctor_step(const Report& r, const std::string& prog) {
  // A saved inventory or pasted report describes another machine: the fix and the check happen there.
  const bool elsewhere = !option_value(r, "--from").empty() || !option_value(r, "--from-text").empty();
  const std::string again = elsewhere ? "gpucheck doctor" : prog + " doctor" + source_options(r, {"--root", "--python"});
  const model::Section* plan = r.find_section("plan");
  const Finding* itself = plan && !plan->findings.empty() ? &plan->findings.front() : nullptr;
  if (const Finding* f = first_problem(r); f && f->status != Status::kWarn) {
    // doctor --for: a problem only for the asked goal (at risk: install.*, the nvcc-vs-torch mismatch of
    // a source build) is what the install paths avoid, so the first path is the step, not the prediction.
    // Something broken now still comes first.
    if (itself && !itself->fixes.empty() && (f == itself || concern_of(*f) == Concern::kAtRisk))
      return {"run the commands of install path 1 above (it avoids [" + f->id + "])", ""};
    return {act_on(*f) + (elsewhere ? ", then check again on that machine:" : ", then check again:"), again};
  }
  if (itself) {
    if (!itself->fixes.empty()) return {"run the commands of install path 1 above", ""};
    return {"change the pins that conflict (above), then plan again", ""};
  }
  // Nothing GPU-side to test here (or the report is of another machine): no pointer at `run`.
  const bool gpu_less = no_nvidia_gpu(r) || elsewhere;
  if (const Finding* f = first_problem(r))
    return gpu_less ? NextStep{act_on(*f) + " when it matters (a warning); nothing is broken now", ""}
                    : NextStep{act_on(*f) + " (a warning), or go on:", prog + " run --level quick"};
  // A paste states part of a stack: only that part was judged.
  if (!option_value(r, "--from-text").empty()) return {"none: nothing wrong in what the paste states", ""};
  if (elsewhere || !option_value(r, "--root").empty() || gpu_less) return {"none: nothing wrong in that stack", ""};
  return {"test the GPUs themselves:", prog + " run --level quick" + source_options(r, {"--python"})};
}

NextStep explain_step(const Report& r, const std::string& prog) {
  const Finding* root = root_cause(r);
  if (!root) return {"check the installed stack itself:", prog + " doctor"};
  return {(root->fixes.empty() ? "read cause [" + root->id + "] above" : "apply the fix of [" + root->id + "] above") +
              ", then retry what failed",
          ""};
}

NextStep diff_step(const Report& r) {
  const model::Section* d = r.find_section("differences");
  for (const auto& f : d ? d->findings : std::vector<Finding>{})
    if (f.status == Status::kFail)
      return {"make [" + f.id + "] the same on both sides (the first difference that matters), then diff again", ""};
  return {"none: nothing that matters differs", ""};
}

NextStep generic_step(const Report& r) {
  const Finding* f = first_problem(r);
  if (!f) return {"none: nothing needs attention", ""};
  if (r.meta.command == "fleet" && r.find_section("actions") && !r.find_section("actions")->findings.empty())
    return {"drain the rejected nodes with the command above, after reading why", ""};
  return {act_on(*f), ""};
}

NextStep next_step(const Report& r, const model::Summary& s, const std::string& prog) {
  const std::string& c = r.meta.command;
  if (!judges(r)) return {};
  if (c == "run") return run_step(r, s, prog);
  if (c == "doctor") return doctor_step(r, prog);
  if (c == "explain") return explain_step(r, prog);
  if (c == "diff") return diff_step(r);
  if (c == "env") return {"judge these facts:", prog + " doctor" + source_options(r, {"--from", "--root", "--python"})};
  return generic_step(r);
}

VerdictKind kind_of(const Report& r, const model::Summary& s) {
  const std::string& c = r.meta.command;
  if (!judges(r)) return VerdictKind::kListing;
  if (c == "env") return VerdictKind::kDescribes;
  if (c == "explain") return root_cause(r) ? VerdictKind::kExplained : VerdictKind::kUnknown;
  if (c == "diff") {
    const DiffDetails d = diff_details(r);
    return d.that_matter ? VerdictKind::kDifferent : d.differences ? VerdictKind::kMinorDifferences : VerdictKind::kSame;
  }
  if (s.verdict == "NO GPU TESTED") return VerdictKind::kNoGpuTested;
  if (s.verdict == "FAIL") return VerdictKind::kFail;
  if (s.verdict == "NO VERDICT") return VerdictKind::kNoVerdict;
  return VerdictKind::kPass;
}

// "3 pass, 0 warn, 10 skip as failures (--strict), 0 fail, 0 error": a FAIL next to "0 fail" says why,
// when --strict made skips (run) or warnings (abi) failures; short, so the run line keeps to 80 columns.
std::string counts_of(const Report& r, const Verdict& v) {
  auto count = [&](const char* k) { return v.counts.count(k) ? v.counts.at(k) : 0; };
  const model::ExitPolicy& policy = r.meta.exit;
  const char* as_failures = " as failures (--strict)";
  return fmt::format("{} pass, {} warn{}, {} skip{}, {} fail, {} error", count("pass"), count("warn"),
                     policy.warn_fails && count("warn") ? as_failures : "", count("skip"),
                     policy.strict && count("skip") ? as_failures : "", count("fail"), count("error"));
}

std::string line_of(const Report& r, const Verdict& v) {
  const std::string& c = r.meta.command;
  auto count = [&](const char* k) { return v.counts.count(k) ? v.counts.at(k) : 0; };
  switch (v.kind) {
    case VerdictKind::kListing: return fmt::format("{}: nothing judged", v.word);
    case VerdictKind::kDescribes: return fmt::format("{}: the stack's facts; doctor judges them", v.word);
    case VerdictKind::kUnknown: return fmt::format("{}: no known failure signature in this log", v.word);
    case VerdictKind::kExplained: {
      const model::Section* causes = r.find_section("causes");
      return fmt::format("{}: {} cause(s), root cause [{}]", v.word, causes ? causes->findings.size() : 0,
                         root_cause(r)->id);
    }
    case VerdictKind::kSame:
    case VerdictKind::kMinorDifferences:
    case VerdictKind::kDifferent:
      return fmt::format("{}: {} difference(s), {} that matter", v.word, diff_details(r).differences,
                         diff_details(r).that_matter);
    default: break;
  }
  if (c == "run") {
    std::string info = count("info") ? fmt::format(", {} info", count("info")) : "";
    return fmt::format("{}: {}{} (exit {})", v.word, counts_of(r, v), info, v.exit_code);
  }
  if (c == "doctor")
    return fmt::format("{}: {} error(s), {} warning(s)", v.word, count("fail") + count("error"), count("warn"));
  if (c == "compare") {
    const CompareDetails d = compare_details(r);
    return fmt::format("{}: {} (threshold {:.1f}%, alpha {:g})", v.word, compare_counts_line(r), 100 * d.threshold, d.alpha);
  }
  if (c == "fleet") {
    int accepted = 0, rejected = 0, incomplete = 0;
    if (const model::Section* nodes = r.find_section("nodes"))
      for (const auto& f : nodes->findings)
        (f.status == Status::kPass ? accepted : f.status == Status::kFail ? rejected : incomplete)++;
    return fmt::format("{}: {} nodes, {} accepted, {} rejected, {} incomplete", v.word, accepted + rejected + incomplete,
                       accepted, rejected, incomplete);
  }
  return fmt::format("{}: {}", v.word, counts_of(r, v));
}

}  // namespace

const char* to_string(VerdictKind k) {
  switch (k) {
    case VerdictKind::kPass: return "PASS";
    case VerdictKind::kFail: return "FAIL";
    case VerdictKind::kNoVerdict: return "NO VERDICT";
    case VerdictKind::kNoGpuTested: return "NO GPU TESTED";
    case VerdictKind::kExplained: return "EXPLAINED";
    case VerdictKind::kUnknown: return "UNKNOWN";
    case VerdictKind::kSame: return "SAME";
    case VerdictKind::kMinorDifferences: return "MINOR DIFFERENCES";
    case VerdictKind::kDifferent: return "DIFFERENT";
    case VerdictKind::kDescribes: return "DESCRIBES, NO VERDICT";
    case VerdictKind::kListing: return "LISTING";
  }
  return "?";
}

bool judges(const Report& r) {
  const std::string& c = r.meta.command;
  return !(c == "list" || c == "version" || c == "use-cuda" || c == "modulefiles" || c == "completion" || c == "man");
}

bool counted(const Finding& f) {
  // doctor's plan headline (planner verdict in details) sums up the plan's own findings.
  return !(starts_with(f.id, "plan.") && is_install_plan(f));
}

bool needs_attention(const Finding& f) {
  if (f.status == Status::kWarn || f.status == Status::kFail || f.status == Status::kError) return true;
  return f.status == Status::kInfo && !f.fixes.empty();
}

std::vector<const Finding*> attention(const Report& r) {
  std::vector<const Finding*> out;
  for (const auto* f : r.findings())
    if (needs_attention(*f)) out.push_back(f);
  return out;
}

std::vector<CheckRow> check_rows(const std::vector<Finding>& findings) {
  std::vector<CheckRow> rows;
  // A skip's row found by its reason, not by scanning every row: 88,000 skips of distinct reasons took
  // minutes (quadratic) in `report --format markdown` of a 250 MB report.
  std::unordered_map<std::string_view, std::size_t> skip_row;
  for (const auto& f : findings) {
    if (f.status == Status::kSkip) {
      auto [it, added] = skip_row.try_emplace(f.summary, rows.size());
      if (!added) {
        rows[it->second].findings.push_back(&f);
        continue;
      }
    }
    rows.push_back({f.status, {&f}});
  }
  return rows;
}

const Finding* root_cause(const Report& r) {
  const model::Section* causes = r.find_section("causes");
  if (!causes || causes->findings.empty() || causes->findings.front().status == Status::kFail) return nullptr;
  const Finding* root = &causes->findings.front();
  for (const auto& c : causes->findings)
    if (explain_cause(c).root) root = &c;
  return root;
}

std::string compare_counts_line(const Report& r) {
  const std::map<std::string, int> counts = compare_details(r).counts;
  std::string s;
  auto add = [&](const char* key, const char* one, const char* many) {
    const int n = counts.count(key) ? counts.at(key) : 0;
    if (n == 0) return;
    s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + (n == 1 ? one : many);
  };
  add("regression", "regression", "regressions");
  add("improvement", "improvement", "improvements");
  add("unchanged", "unchanged", "unchanged");
  add("undecidable", "undecidable (too few repetitions)", "undecidable (too few repetitions)");
  add("skipped", "skipped", "skipped");
  return s.empty() ? "no benchmark compared" : s;
}

Verdict verdict(const Report& r, const std::string& program) {
  const model::Summary s = model::summarize(r);
  Verdict v;
  v.kind = kind_of(r, s);
  v.word = to_string(v.kind);
  v.counts = s.counts;
  v.exit_code = s.exit_code;
  v.line = line_of(r, v);
  v.tone = v.exit_code != 0                                                        ? "fail"
           : v.kind == VerdictKind::kPass || v.kind == VerdictKind::kExplained ||
                     v.kind == VerdictKind::kSame                                  ? "pass"
           : v.kind == VerdictKind::kDescribes || v.kind == VerdictKind::kListing ? "info"
                                                                                   : "warn";
  v.next = next_step(r, s, program.empty() ? "gpucheck" : program);  // already words for the shell
  return v;
}

}  // namespace gpucheck::model
