#include "model/scrub.h"

#include "core/secrets.h"

namespace gpucheck::model {
namespace {

void scrub(std::string& s) {
  if (!s.empty()) s = redact_credentials(s);
}

// Documents gpucheck reads are at most 256 levels deep (core/json_input.h), so the recursion is bounded.
void scrub(nlohmann::json& j) {
  if (j.is_string()) scrub(j.get_ref<std::string&>());
  else if (j.is_structured())
    for (auto& v : j) scrub(v);
}

void scrub(EvidenceList& evidence) {
  for (auto& e : evidence) {
    scrub(e.what);
    scrub(e.value);
    scrub(e.source);
  }
}

void scrub(Finding& f) {
  scrub(f.id);  // fleet's ids carry the host name
  scrub(f.title);
  scrub(f.summary);
  scrub(f.explanation);
  scrub(f.evidence);
  for (auto& fix : f.fixes) {
    scrub(fix.summary);
    for (auto& c : fix.commands) scrub(c);
    scrub(fix.cost);
  }
  for (auto& ref : f.references) scrub(ref);
  for (auto& m : f.metrics) {
    scrub(m.name);
    scrub(m.unit);
  }
  for (auto& d : f.devices) {
    scrub(d.device);
    scrub(d.summary);
    scrub(d.evidence);
  }
  scrub(f.details);
}

}  // namespace

void scrub_secrets(model::Report& r) {
  scrub(r.meta.hostname);
  for (auto& arg : r.meta.command_line) scrub(arg);
  for (auto& [name, value] : r.meta.environment) value = recorded_value(name, value);
  for (auto& section : r.sections) {
    scrub(section.name);
    for (auto& f : section.findings) scrub(f);
  }
  for (auto& note : r.notes) scrub(note);
  scrub(r.inventory);
  scrub(r.details);
}

void scrub_secrets(Finding& f) { scrub(f); }

void scrub_secrets(nlohmann::json& document) { scrub(document); }

}  // namespace gpucheck::model
