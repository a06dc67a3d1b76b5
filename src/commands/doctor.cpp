#include "commands/doctor.h"

#include "core/errors.h"
#include "core/files.h"
#include "core/paths.h"
#include "inventory/collect_env_text.h"
#include "inventory/pasted_report.h"
#include "knowledge/knowledge_base.h"

namespace gpucheck::commands {
namespace {

constexpr const char* kPastedReportHost = "pasted report";

/// The top plan's pins, for `pip install -c FILE` / `uv pip install -c FILE`: from the plan Finding's
/// details as checks/planner/plan_finding.cpp writes them.
void write_constraints(const model::Report& rep, const std::string& path) {
  const model::Section* s = rep.find_section("plan");
  const Finding* f = s && !s->findings.empty() ? &s->findings.front() : nullptr;
  const auto* plans = f && f->details.contains("plans") ? &f->details["plans"] : nullptr;
  if (!plans || plans->empty())
    throw InputError("--constraints-out " + path + ": no plan satisfies the asks here, so no constraints were written");
  std::string asked;
  for (const auto& a : f->details["asked"]) asked += "#   " + a.get<std::string>() + "\n";
  write_file_atomic(path, "# gpucheck doctor: the pins of plan 1 (" + (*plans)[0]["torch"]["version"].get<std::string>() +
                              " torch), for pip -c / uv -c\n# asked:\n" + asked +
                              (*plans)[0]["constraints"].get<std::string>());
}

model::Report judge(const DoctorRequest& request, model::Report base) {
  if (request.from_text.empty()) {
    const knowledge::KnowledgeBase kb = knowledge::KnowledgeBase::load();
    const inventory::Inventory inv = commands::load_inventory(request.source);
    // The report is of the machine the inventory describes: another host's with --from FILE.
    if (!request.source.from.empty() && !inv.hostname.empty()) base.meta.hostname = inv.hostname;
    return report::doctor_report(std::move(base), inv, kb, request.plan, request.source.describe());
  }
  // A paste's facts are the reporter's, whose host the paste does not name: not this machine's (Prometheus'
  // `hostname` label, JUnit's, the HTML title).
  base.meta.hostname = kPastedReportHost;
  const std::string& path = request.from_text;
  std::string text = read_file(path);  // type checks and size limit: a FIFO or /dev/zero is bad input
  auto pasted = inventory::read_pasted_environment(text, path, data_path("compat"));
  if (!pasted)
    throw InputError(path + ": not an environment report: no versions in a format it reads (see `gpucheck doctor --help`)");
  const knowledge::KnowledgeBase kb = knowledge::KnowledgeBase::load();
  return report::doctor_report_pasted(std::move(base), pasted->inventory, kb, request.plan, "--from-text " + path);
}

}  // namespace

model::Report doctor(const DoctorRequest& request, model::Report base) {
  if (!request.constraints_out.empty() && request.plan.empty())
    throw InputError("--constraints-out needs something to plan: --for SPEC or -r FILE");
  model::Report rep = judge(request, std::move(base));
  if (!request.constraints_out.empty()) write_constraints(rep, request.constraints_out);
  return rep;
}

const char* pasted_report_formats() { return inventory::pasted_formats_help(); }

}  // namespace gpucheck::commands
