#include "render/terminal_safe.h"

#include "core/text.h"

namespace gpucheck::render {
namespace {

nlohmann::json safe_json(const nlohmann::json& j) {
  if (j.is_string()) return terminal_safe(j.get_ref<const std::string&>());
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& v : j) out.push_back(safe_json(v));
    return out;
  }
  if (j.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [k, v] : j.items()) out[terminal_safe(k)] = safe_json(v);
    return out;
  }
  return j;
}

void safe_evidence(EvidenceList& list) {
  for (auto& e : list) {
    e.what = terminal_safe(e.what);
    e.value = terminal_safe(e.value);
    e.source = terminal_safe(e.source);
  }
}

}  // namespace

Finding terminal_safe_copy(const Finding& in) {
  Finding f = in;
  for (std::string* s : {&f.id, &f.title, &f.summary, &f.explanation}) *s = terminal_safe(*s);
  // One-line fields stay one line: a newline in a host name (a fleet node's title and id) forged a
  // `PASS:` line under the real verdict (reliability-3 N8).
  for (std::string* s : {&f.id, &f.title}) *s = on_one_line(*s);
  safe_evidence(f.evidence);
  for (auto& fix : f.fixes) {
    fix.summary = terminal_safe(fix.summary);
    fix.cost = terminal_safe(fix.cost);
    for (auto& c : fix.commands) c = terminal_safe(c);
  }
  for (auto& ref : f.references) ref = terminal_safe(ref);
  for (auto& m : f.metrics) m.name = terminal_safe(m.name), m.unit = terminal_safe(m.unit);
  for (auto& d : f.devices) {
    d.device = on_one_line(terminal_safe(d.device));
    d.summary = terminal_safe(d.summary);
    safe_evidence(d.evidence);
  }
  f.details = safe_json(f.details);
  return f;
}

model::Report terminal_safe_copy(const model::Report& in) {
  model::Report r;
  r.meta = in.meta;
  for (auto& a : r.meta.command_line) a = terminal_safe(a);
  for (std::string* s : {&r.meta.hostname, &r.meta.command, &r.meta.tool_version, &r.meta.started_at,
                         &r.meta.finished_at, &r.meta.level})
    *s = on_one_line(terminal_safe(*s));
  for (const auto& s : in.sections) {
    model::Section& out = r.section(terminal_safe(s.name));
    for (const auto& f : s.findings) out.findings.push_back(terminal_safe_copy(f));
  }
  for (const auto& n : in.notes) r.notes.push_back(terminal_safe(n));
  r.details = safe_json(in.details);
  r.inventory = safe_json(in.inventory);
  return r;
}

}  // namespace gpucheck::render
