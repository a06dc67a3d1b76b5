#include "model/report.h"

#include "core/json_input.h"
#include "model/run_details.h"
#include "model/verdict.h"
#include "core/errors.h"
#include "core/files.h"

namespace gpucheck::model {

Section& Report::section(const std::string& name) {
  for (auto& s : sections)
    if (s.name == name) return s;
  sections.push_back({name, {}});
  return sections.back();
}

const Section* Report::find_section(const std::string& name) const {
  for (auto& s : sections)
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<const Finding*> Report::findings() const {
  std::vector<const Finding*> out;
  for (auto& s : sections)
    for (auto& f : s.findings) out.push_back(&f);
  return out;
}

Summary summarize(const std::vector<Finding>& findings, const ExitPolicy& policy) {
  Summary s;
  for (Status st : all_statuses()) s.counts[to_string(st)] = 0;
  for (auto& f : findings) s.counts[to_string(f.status)]++;
  if (s.counts["fail"] > 0) s.exit_code = kExitFailed;
  else if (s.counts["error"] > 0) s.exit_code = policy.error_fails ? kExitFailed : kExitNoVerdict;
  else if (policy.strict && s.counts["skip"] > 0) s.exit_code = kExitFailed;
  else if (policy.warn_fails && s.counts["warn"] > 0) s.exit_code = kExitFailed;
  else s.exit_code = kExitOk;
  s.verdict = s.exit_code == kExitOk ? "PASS" : s.exit_code == kExitFailed ? "FAIL" : "NO VERDICT";
  if (policy.informational) s.exit_code = kExitOk;
  return s;
}

Summary summarize(const Report& r) {
  std::vector<Finding> all;
  for (auto& s : r.sections) all.insert(all.end(), s.findings.begin(), s.findings.end());
  Summary s = summarize(all, r.meta.exit);
  // A run whose GPU probes all skipped proved the host only: its verdict must not read like a node
  // accepted. The exit code stays the policy's (--strict makes those skips failures).
  const std::vector<std::string> gpu = model::run_details(r).gpu_probes;
  if (s.verdict == "PASS" && !gpu.empty()) {
    bool any_ran = false;
    for (auto& f : all)
      for (auto& id : gpu)
        if (f.id == id && f.status != Status::kSkip && f.status != Status::kError) any_ran = true;
    if (!any_ran) s.verdict = "NO GPU TESTED";
  }
  // What is shown is counted once, here: a finding that sums up others is not one more.
  for (auto& f : all)
    if (!model::counted(f)) s.counts[to_string(f.status)]--;
  return s;
}

int exit_code(const Report& r) { return summarize(r).exit_code; }

nlohmann::json to_json(const Report& r) { return to_json(r, "gpucheck"); }

nlohmann::json to_json(const Report& r, const std::string& program) {
  const model::Verdict v = model::verdict(r, program);
  nlohmann::json j;
  j["schema_version"] = kReportSchemaVersion;
  j["kind"] = "gpucheck.report";
  j["command"] = r.meta.command;
  j["tool"] = {{"name", "gpucheck"}, {"version", r.meta.tool_version}};
  j["host"] = r.meta.hostname;
  j["started_at"] = r.meta.started_at;
  j["finished_at"] = r.meta.finished_at;
  j["command_line"] = r.meta.command_line;
  if (!r.meta.level.empty()) j["level"] = r.meta.level;
  j["strict"] = r.meta.exit.strict;
  if (r.meta.exit.warn_fails) j["warn_fails"] = true;
  if (r.meta.exit.error_fails) j["error_fails"] = true;
  if (r.meta.exit.informational) j["informational"] = true;
  j["environment"] = r.meta.environment;
  j["summary"] = {{"counts", v.counts},
                  {"exit_code", v.exit_code},
                  {"verdict", v.word},
                  {"verdict_line", v.line},
                  {"next_step", {{"advice", v.next.advice}, {"command", v.next.command}}}};
  j["sections"] = nlohmann::json::array();
  for (auto& sec : r.sections) j["sections"].push_back({{"name", sec.name}, {"findings", sec.findings}});
  j["notes"] = r.notes;
  j["inventory"] = r.inventory;
  if (!r.details.is_null()) j["details"] = r.details;
  return j;
}

namespace {

// `consumed`, when given, is `j` itself, and each part is moved out of it as soon as it is read; `streamed`,
// when given, holds each section's findings, read while the file was parsed (read_report_file), and `j`'s
// findings arrays hold only what was not read that way.
Report read_report(const nlohmann::json& j, nlohmann::json* consumed,
                   std::vector<std::vector<Finding>>* streamed = nullptr) {
  // Compared as JSON, not read with value(): a "kind" of another type is "not a report", never a type_error
  // (the `report` fuzz target found {"kind": {...}} ending `gpucheck report FILE` in "internal error", exit 3).
  if (!j.is_object() || !j.contains("kind") || j.at("kind") != "gpucheck.report")
    throw InputError("not a gpucheck report (kind != gpucheck.report)");
  try {
    Report r;
    r.meta.command = j.value("command", "run");
    r.meta.tool_version = j.at("tool").at("version").get<std::string>();
    r.meta.hostname = j.at("host").get<std::string>();
    r.meta.started_at = j.value("started_at", "");
    r.meta.finished_at = j.value("finished_at", "");
    r.meta.command_line = j.value("command_line", std::vector<std::string>{});
    r.meta.level = j.value("level", "");
    r.meta.exit.strict = j.value("strict", false);
    r.meta.exit.warn_fails = j.value("warn_fails", false);
    r.meta.exit.error_fails = j.value("error_fails", false);
    r.meta.exit.informational = j.value("informational", false);
    r.meta.environment = j.value("environment", std::map<std::string, std::string>{});
    if (!j.contains("sections")) {
      r.section("probes").findings = j.at("results").get<std::vector<Finding>>();  // schema 1
    } else {
      const nlohmann::json& sections = j.at("sections");
      if (streamed && streamed->size() != sections.size()) throw InputError("sections is not an array of sections");
      for (std::size_t i = 0; i < sections.size(); ++i) {
        const nlohmann::json& findings = sections.at(i).at("findings");
        if (!findings.is_array()) throw InputError("sections[" + std::to_string(i) + "].findings is not an array");
        Section section{sections[i].at("name").get<std::string>(), {}};
        if (streamed) section.findings = std::move((*streamed)[i]);
        for (const auto& f : findings) section.findings.push_back(f.get<Finding>());  // throws: not a finding
        r.sections.push_back(std::move(section));
      }
    }
    r.notes = j.value("notes", std::vector<std::string>{});
    if (j.contains("inventory")) r.inventory = consumed ? std::move((*consumed)["inventory"]) : j.at("inventory");
    if (j.contains("details")) r.details = consumed ? std::move((*consumed)["details"]) : j.at("details");
    return r;
  } catch (const std::exception& e) {
    throw InputError(std::string("malformed gpucheck report: ") + e.what());
  }
}

}  // namespace

Report report_from_json(const nlohmann::json& j) { return read_report(j, nullptr); }

std::string write_report_file(const std::string& dir, const std::string& host, const std::string& compact_time,
                              const std::string& content) {
  if (dir.empty()) throw InputError("the report directory is empty (give --report-dir DIR or --no-report)");
  make_dirs(dir);
  return write_new_file(dir + "/" + host + "-" + compact_time, ".json", content);
}

Report read_report_file(const std::string& path) {
  // Each finding is made a Finding as soon as the parser has read it, and its JSON tree dropped: a report of
  // 300,000 findings never exists as a whole tree (about 8 times the file) beside the Report made from it.
  std::vector<std::vector<Finding>> streamed;  // sections[i].findings, in order
  std::string unreadable;                      // the first finding that is no Finding
  std::vector<std::string> keys(kMaxJsonDepth + 2);  // the key being read at each depth
  auto read_as_parsed = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (depth < 0 || static_cast<std::size_t>(depth) >= keys.size()) return true;
    if (event == Event::key) {
      keys[static_cast<std::size_t>(depth)] = parsed.is_string() ? parsed.get<std::string>() : "";
      // A key given twice: the tree keeps the last value, and so does what was read.
      if (depth == 1 && parsed == "sections") streamed.clear(), unreadable.clear();
      if (depth == 3 && keys[1] == "sections" && parsed == "findings" && !streamed.empty()) streamed.back().clear();
    } else if (keys[1] != "sections") {
      return true;
    } else if (event == Event::object_start && depth == 2) {  // sections[i]
      streamed.emplace_back();
    } else if (event == Event::object_end && depth == 4 && keys[3] == "findings" && unreadable.empty() &&
               !streamed.empty()) {  // sections[i].findings[k]
      try {
        streamed.back().push_back(parsed.get<Finding>());
        return false;  // read: not kept in the tree
      } catch (const std::exception& e) {
        unreadable = e.what();  // kept in the tree; read_report reports it
      }
    }
    return true;
  };
  nlohmann::json doc;
  {
    const std::string text = read_file(path);
    doc = json_too_deep(text) ? nlohmann::json(nlohmann::json::value_t::discarded)
                              : nlohmann::json::parse(text, read_as_parsed, /*allow_exceptions=*/false);
  }
  if (doc.is_discarded()) throw InputError(path + ": not JSON, or nested too deep (a gpucheck report is the JSON of --json or reports/)");
  try {
    return read_report(doc, &doc, doc.contains("sections") ? &streamed : nullptr);
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path + ": not a gpucheck report: " + e.what());
  }
}

}  // namespace gpucheck::model
