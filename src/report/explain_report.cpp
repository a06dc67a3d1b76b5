#include "report/explain_report.h"

#include "core/verdict.h"
#include "model/explain_details.h"
#include "report/doctor_report.h"

namespace gpucheck::report {
namespace {

model::ExplainInput input_of(const explain::InputSummary& in) {
  return {in.name, in.bytes, in.lines, in.long_lines, in.invalid_utf8_bytes, in.control_bytes, in.binary};
}

}  // namespace

model::Report explain_report(ExplainOutcome o, model::Report rep) {
  const explain::Explanation& ex = o.explanation;
  // Every command names a cause by the one registry's id (core/verdict.h): explain's signature ids that
  // doctor knows by another name are shown under doctor's; the signature stays in details.signature.
  auto& causes = rep.section("causes").findings;
  causes = ex.findings();
  for (auto& f : causes) {
    if (const std::string id = canonical_cause_id(f.id); id != f.id) {
      if (!f.details.is_object()) f.details = nlohmann::json::object();
      f.details["signature"] = f.id;
      f.id = id;
    }
    if (f.details.is_object() && f.details.contains("similar") && f.details["similar"].is_array())
      for (auto& s : f.details["similar"])
        if (s.is_object() && s.contains("cause") && s["cause"].is_string()) s["cause"] = canonical_cause_id(s["cause"]);
  }
  model::ExplainDetails details{input_of(ex.input), std::nullopt};
  std::vector<std::string> doctor_notes;
  if (o.pasted && o.knowledge) {
    // The pasted environment judged by the doctor's rules: its errors count for the exit code (1).
    model::Report doc = doctor_report_pasted(model::Report{}, *o.pasted, *o.knowledge, PlanRequest{}, o.pasted_kind + " report in " + o.log);
    auto& env = rep.section("environment").findings;
    for (const auto& s : doc.sections) env.insert(env.end(), s.findings.begin(), s.findings.end());
    // A log of a failed build: the build is the goal, so what stops a build is an error (core/verdict.h).
    if (o.build_log) apply_goal(env, Goal::kSourceBuild);
    doctor_notes = doc.notes;
    rep.meta.exit.error_fails = true;
    details.environment_report = model::PastedEnvironment{o.pasted_kind, *o.pasted};
  }
  rep.details = model::to_json(details);
  rep.notes = ex.notes;
  rep.notes.insert(rep.notes.end(), doctor_notes.begin(), doctor_notes.end());
  rep.notes.insert(rep.notes.end(), o.notes.begin(), o.notes.end());
  if (o.inventory) rep.inventory = *o.inventory;
  return rep;
}

}  // namespace gpucheck::report
