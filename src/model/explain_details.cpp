#include "model/explain_details.h"

#include "model/json_fields.h"

namespace gpucheck::model {

nlohmann::json to_json(const ExplainDetails& d) {
  const ExplainInput& in = d.input;
  nlohmann::json j{{"input",
                    {{"name", in.name},
                     {"bytes", in.bytes},
                     {"lines", in.lines},
                     {"long_lines", in.long_lines},
                     {"invalid_utf8_bytes", in.invalid_utf8_bytes},
                     {"control_bytes", in.control_bytes},
                     {"binary", in.binary}}}};
  if (d.environment_report)
    j["environment_report"] = {{"kind", d.environment_report->kind}, {"inventory", d.environment_report->inventory}};
  return j;
}

ExplainDetails explain_details(const model::Report& r) {
  ExplainDetails d;
  const nlohmann::json& in = member(r.details, "input");
  d.input.name = in.is_object() && in.contains("name") ? text_at(in, "name") : "-";
  d.input.bytes = whole(member(in, "bytes"));
  d.input.lines = whole(member(in, "lines"));
  d.input.long_lines = whole(member(in, "long_lines"));
  d.input.invalid_utf8_bytes = whole(member(in, "invalid_utf8_bytes"));
  d.input.control_bytes = whole(member(in, "control_bytes"));
  d.input.binary = flag_at(in, "binary");
  const nlohmann::json& env = member(r.details, "environment_report");
  if (env.is_object()) d.environment_report = PastedEnvironment{text_at(env, "kind"), member(env, "inventory")};
  return d;
}

ExplainCause explain_cause(const Finding& f) {
  ExplainCause c;
  const nlohmann::json& d = f.details;
  c.root = flag_at(d, "root");
  c.confidence = number_at(d, "confidence", 0.0);
  const nlohmann::json& lines = member(d, "lines");
  if (lines.is_array())
    for (const auto& n : lines) c.lines.push_back(n.is_number_unsigned() ? n.get<std::uint64_t>() : 0);
  const nlohmann::json& similar = member(d, "similar");
  if (similar.is_array())
    for (const auto& s : similar)
      c.similar.push_back({text_at(s, "url"), text_at(s, "cause"), text_at(s, "fix"), number_at(s, "score", 0.0),
                           flag_at(s, "fix_confirmed")});
  const nlohmann::json& candidates = member(d, "candidates");
  if (candidates.is_array())
    for (const auto& k : candidates)
      c.candidates.push_back({k.is_object() && k.contains("id") ? text_at(k, "id") : "?", text_at(k, "why_not"),
                              number_at(k, "confidence", 0.0)});
  return c;
}

}  // namespace gpucheck::model
