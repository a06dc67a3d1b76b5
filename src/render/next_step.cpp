#include "render/next_step.h"

#include <fmt/format.h>

#include "checks/doctor/fix_commands.h"
#include "core/text.h"
#include "core/verdict.h"
#include "render/compare_rows.h"
#include "render/report_fields.h"

namespace gpucheck::render {
namespace {

using compat::shell_quote;

// The value of `--name V` or `--name=V` on the report's command line; "" when absent.
std::string option_value(const report::Report& r, const std::string& name) {
  const auto& argv = r.meta.command_line;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    if (argv[i] == name && i + 1 < argv.size()) return argv[i + 1];
    if (starts_with(argv[i], name + "=")) return argv[i].substr(name.size() + 1);
  }
  return "";
}

// " --from F", " --root D", " --python P": the options that chose what the report judged, so the command
// printed judges the same thing again.
std::string source_options(const report::Report& r, std::initializer_list<const char*> names) {
  std::string out;
  for (const char* n : names) {
    std::string v = option_value(r, n);
    if (!v.empty()) out += std::string(" ") + n + " " + shell_quote(v);
  }
  return out;
}

std::vector<const Finding*> with_status(const report::Report& r, Status s) {
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
const Finding* first_problem(const report::Report& r) { return first_to_act_on(r.findings()); }

// The inventory looked at this machine and found no NVIDIA GPU (no PCI device, no /dev/nvidiaN, no
// driver): nothing GPU-side can be tested, so no next step sends the user to another command for it.
bool no_nvidia_gpu(const report::Report& r) {
  const auto& inv = r.inventory;
  if (!inv.is_object() || !inv.contains("gpu_presence") || !inv["gpu_presence"].is_object()) return false;
  const auto& p = inv["gpu_presence"];
  auto empty = [](const nlohmann::json& j, const char* k) { return !j.contains(k) || !j[k].is_array() || j[k].empty(); };
  const bool driver = inv.contains("driver") && inv["driver"].is_object() && inv["driver"].value("present", false);
  return p.value("checked", false) && empty(p, "pci_devices") && empty(p, "device_nodes") && empty(inv, "gpus") && !driver;
}

NextStep run_step(const report::Report& r, const std::string& prog) {
  const report::Summary s = report::summarize(r);
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

NextStep doctor_step(const report::Report& r, const std::string& prog) {
  // A saved inventory or pasted report describes another machine: the fix and the check happen there.
  const bool elsewhere = !option_value(r, "--from").empty() || !option_value(r, "--from-text").empty();
  const std::string again = elsewhere ? "gpucheck doctor" : prog + " doctor" + source_options(r, {"--root", "--python"});
  if (const Finding* f = first_problem(r); f && f->status != Status::kWarn)
    return {act_on(*f) + (elsewhere ? ", then check again on that machine:" : ", then check again:"), again};
  if (const report::Section* plan = r.find_section("plan"); plan && !plan->findings.empty()) {
    const Finding& itself = plan->findings.front();
    if (!itself.fixes.empty()) return {"run the commands of install path 1 above", ""};
    return {"change the pins that conflict (above), then plan again", ""};
  }
  // Nothing GPU-side to test here (or the report is of another machine): no pointer at `run`.
  const bool gpu_less = no_nvidia_gpu(r) || elsewhere;
  if (const Finding* f = first_problem(r))
    return gpu_less ? NextStep{act_on(*f) + " when it matters (a warning); nothing is broken now", ""}
                    : NextStep{act_on(*f) + " (a warning), or go on:", prog + " run --level quick"};
  if (elsewhere || !option_value(r, "--root").empty() || gpu_less) return {"none: nothing wrong in that stack", ""};
  return {"test the GPUs themselves:", prog + " run --level quick" + source_options(r, {"--python"})};
}

NextStep explain_step(const report::Report& r, const std::string& prog) {
  const report::Section* causes = r.find_section("causes");
  if (!causes || causes->findings.empty() || causes->findings.front().status == Status::kFail)
    return {"check the installed stack itself:", prog + " doctor"};
  const Finding* root = &causes->findings.front();
  for (const auto& c : causes->findings)
    if (c.details.is_object() && c.details.value("root", false)) root = &c;
  return {(root->fixes.empty() ? "read cause [" + root->id + "] above" : "apply the fix of [" + root->id + "] above") +
              ", then retry what failed",
          ""};
}

NextStep generic_step(const report::Report& r) {
  const Finding* f = first_problem(r);
  if (!f) return {"none: nothing needs attention", ""};
  if (r.meta.command == "fleet" && r.find_section("actions") && !r.find_section("actions")->findings.empty())
    return {"drain the rejected nodes with the command above, after reading why", ""};
  return {act_on(*f), ""};
}

}  // namespace

bool has_verdict(const report::Report& r) {
  const std::string& c = r.meta.command;
  return !(c == "list" || c == "version" || c == "use-cuda" || c == "modulefiles" || c == "completion" || c == "man");
}

NextStep next_step(const report::Report& r, const RenderOptions& o) {
  if (!has_verdict(r)) return {};
  const std::string prog = o.program.empty() ? "gpucheck" : shell_quote(o.program);
  const std::string& c = r.meta.command;
  if (c == "run") return run_step(r, prog);
  if (c == "doctor") return doctor_step(r, prog);
  if (c == "explain") return explain_step(r, prog);
  if (c == "diff") {
    const report::Section* d = r.find_section("differences");
    for (const auto& f : d ? d->findings : std::vector<Finding>{})
      if (f.status == Status::kFail)
        return {"make [" + f.id + "] the same on both sides (the first difference that matters), then diff again", ""};
    return {"none: nothing that matters differs", ""};
  }
  if (c == "env") return {"judge these facts:", prog + " doctor" + source_options(r, {"--from", "--root", "--python"})};
  return generic_step(r);
}

std::string verdict_line(const report::Report& r) {
  if (!has_verdict(r) || r.meta.command == "env") return "";
  const report::Summary s = report::summarize(r);
  const std::string& c = r.meta.command;
  auto count = [&](const char* k) { return s.counts.count(k) ? s.counts.at(k) : 0; };
  if (c == "run") {
    std::string info = count("info") ? fmt::format(", {} info", count("info")) : "";
    return fmt::format("{}: {} pass, {} warn, {} skip, {} fail, {} error{} (exit {})", s.verdict, count("pass"),
                       count("warn"), count("skip"), count("fail"), count("error"), info, s.exit_code);
  }
  if (c == "doctor") {
    // The plan's own Finding (details.verdict) sums up the plan: it is not one more warning.
    int errors = 0, warnings = 0;
    for (const auto* f : r.findings()) {
      if (f->details.is_object() && f->details.contains("verdict")) continue;
      errors += f->status == Status::kFail || f->status == Status::kError;
      warnings += f->status == Status::kWarn;
    }
    return fmt::format("{}: {} error(s), {} warning(s)", s.verdict, errors, warnings);
  }
  if (c == "explain") {
    const report::Section* causes = r.find_section("causes");
    if (!causes || causes->findings.empty() || causes->findings.front().status == Status::kFail)
      return "UNKNOWN: no known failure signature in this log";
    const Finding* root = &causes->findings.front();
    for (const auto& f : causes->findings)
      if (f.details.is_object() && f.details.value("root", false)) root = &f;
    return fmt::format("EXPLAINED: {} cause(s), root cause [{}]", causes->findings.size(), root->id);
  }
  if (c == "diff") {
    const int matter = r.details.is_object() ? count_at(r.details, "that_matter") : 0;
    const int all = r.details.is_object() ? count_at(r.details, "differences") : 0;
    return fmt::format("{}: {} difference(s), {} that matter", matter ? "DIFFERENT" : all ? "MINOR DIFFERENCES" : "SAME", all, matter);
  }
  if (c == "compare") {
    double threshold = r.details.is_object() ? r.details.value("threshold", 0.05) : 0.05;
    double alpha = r.details.is_object() ? r.details.value("alpha", 0.01) : 0.01;
    return fmt::format("{}: {} (threshold {:.1f}%, alpha {:g})", s.verdict, compare::counts_line(r), 100 * threshold, alpha);
  }
  if (c == "fleet") {
    int accepted = 0, rejected = 0, incomplete = 0;
    if (const report::Section* nodes = r.find_section("nodes"))
      for (const auto& f : nodes->findings)
        (f.status == Status::kPass ? accepted : f.status == Status::kFail ? rejected : incomplete)++;
    return fmt::format("{}: {} nodes, {} accepted, {} rejected, {} incomplete", s.verdict, accepted + rejected + incomplete,
                       accepted, rejected, incomplete);
  }
  return fmt::format("{}: {} pass, {} warn, {} skip, {} fail, {} error", s.verdict, count("pass"), count("warn"),
                     count("skip"), count("fail"), count("error"));
}

}  // namespace gpucheck::render
