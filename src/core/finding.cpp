#include "core/finding.h"

#include "core/verdict.h"

#include <stdexcept>

namespace gpucheck {

namespace {
constexpr const char* kStatusNames[] = {"pass", "info", "skip", "warn", "fail", "error"};
constexpr int kStatusCount = 6;

Status status_from_json(const nlohmann::json& j) {
  auto s = parse_status(j.get<std::string>());
  if (!s) throw std::invalid_argument("unknown status '" + j.get<std::string>() + "'");
  return *s;
}

// Evidence is an array of {what, value, source}; an object {what: value} (schema 1 reports) is read too.
EvidenceList evidence_from_json(const nlohmann::json& j) {
  EvidenceList out;
  if (j.is_object()) {
    for (auto& [k, v] : j.items()) out.add(k, v.is_string() ? v.get<std::string>() : v.dump());
    return out;
  }
  if (!j.is_array()) throw std::invalid_argument("evidence is neither an array nor an object");
  for (auto& e : j) out.push_back(e.get<Evidence>());
  return out;
}
}  // namespace

const char* to_string(Status s) { return kStatusNames[static_cast<int>(s)]; }

std::optional<Status> parse_status(const std::string& s) {
  for (int i = 0; i < kStatusCount; ++i)
    if (s == kStatusNames[i]) return static_cast<Status>(i);
  return std::nullopt;
}

int severity(Status s) { return static_cast<int>(s); }  // the enum is declared mildest first

Status worst(Status a, Status b) { return severity(a) >= severity(b) ? a : b; }

const std::vector<Status>& all_statuses() {
  static const std::vector<Status> all = {Status::kPass, Status::kInfo, Status::kSkip,
                                          Status::kWarn, Status::kFail, Status::kError};
  return all;
}

std::string& EvidenceList::operator[](const std::string& what) {
  for (auto& e : *this)
    if (e.what == what) return e.value;
  push_back({what, "", ""});
  return back().value;
}

const std::string& EvidenceList::at(const std::string& what) const {
  for (auto& e : *this)
    if (e.what == what) return e.value;
  throw std::out_of_range("no evidence named '" + what + "'");
}

std::size_t EvidenceList::count(const std::string& what) const {
  std::size_t n = 0;
  for (auto& e : *this) n += e.what == what;
  return n;
}

void EvidenceList::add(std::string what, std::string value, std::string source) {
  push_back({std::move(what), std::move(value), std::move(source)});
}

void Finding::add_metric(std::string name, double value, std::string unit, std::string better) {
  metrics.push_back({std::move(name), value, std::move(unit), std::move(better)});
}

void Finding::add_fix(std::string summary, std::vector<std::string> commands, std::string cost) {
  fixes.push_back({static_cast<int>(fixes.size()) + 1, std::move(summary), std::move(commands), std::move(cost)});
}

void to_json(nlohmann::json& j, const Evidence& e) {
  j = {{"what", e.what}, {"value", e.value}};
  if (!e.source.empty()) j["source"] = e.source;
}

void from_json(const nlohmann::json& j, Evidence& e) {
  e.what = j.at("what").get<std::string>();
  e.value = j.at("value").get<std::string>();
  e.source = j.value("source", "");
}

void to_json(nlohmann::json& j, const Fix& f) {
  j = {{"rank", f.rank}, {"summary", f.summary}, {"commands", f.commands}};
  if (!f.cost.empty()) j["cost"] = f.cost;
}

void from_json(const nlohmann::json& j, Fix& f) {
  // A type_error like every other mistyped field of a report (its readers turn those into exit 2); never
  // get<int>() on a float such as 1e300, which is undefined behaviour.
  const auto& rank = j.at("rank");
  if (!rank.is_number_integer() || rank < 0 || rank > 1000000)
    throw nlohmann::json::type_error::create(302, "rank must be a whole number in [0, 1000000]", &j);
  f.rank = rank.get<int>();
  f.summary = j.at("summary").get<std::string>();
  f.commands = j.value("commands", std::vector<std::string>{});
  f.cost = j.value("cost", "");
}

void to_json(nlohmann::json& j, const Metric& m) {
  j = {{"name", m.name}, {"value", m.value}, {"unit", m.unit}};
  if (!m.better.empty()) j["better"] = m.better;
}

void from_json(const nlohmann::json& j, Metric& m) {
  m.name = j.at("name").get<std::string>();
  m.value = j.at("value").get<double>();
  m.unit = j.value("unit", "");
  m.better = j.value("better", "");
  if (!m.better.empty() && m.better != "higher" && m.better != "lower")
    throw std::invalid_argument("metric '" + m.name + "': better must be higher or lower");
}

void to_json(nlohmann::json& j, const DeviceFinding& d) {
  j = {{"device", d.device}, {"status", to_string(d.status)}, {"summary", d.summary},
       {"metrics", d.metrics}, {"evidence", static_cast<const std::vector<Evidence>&>(d.evidence)}};
}

void from_json(const nlohmann::json& j, DeviceFinding& d) {
  d.device = j.at("device").get<std::string>();
  d.status = status_from_json(j.at("status"));
  d.summary = j.value("summary", "");
  if (j.contains("metrics")) d.metrics = j.at("metrics").get<std::vector<Metric>>();
  if (j.contains("evidence")) d.evidence = evidence_from_json(j.at("evidence"));
}

void to_json(nlohmann::json& j, const Finding& f) {
  j = {{"id", f.id},
       {"status", to_string(f.status)},
       {"title", f.title},
       {"summary", f.summary},
       {"evidence", static_cast<const std::vector<Evidence>&>(f.evidence)},
       {"explanation", f.explanation},
       {"fixes", f.fixes},
       {"references", f.references},
       {"metrics", f.metrics},
       {"devices", f.devices},
       {"duration_s", f.duration_s}};
  // What it is about (core/verdict.h), for the findings that ask for action: broken now, at risk, note.
  if (f.status == Status::kWarn || f.status == Status::kFail || f.status == Status::kError)
    j["concern"] = to_string(concern_of(f));
  // The one registry's id for the same cause, when this id is another name for it (explain's
  // "cuda-mismatch-nvcc-torch" is doctor's "cuda.nvcc_torch_major_mismatch"): match findings on it.
  if (const std::string cause = canonical_cause_id(f.id); cause != f.id) j["cause"] = cause;
  if (!f.details.is_null()) j["details"] = f.details;
}

void from_json(const nlohmann::json& j, Finding& f) {
  if (!j.is_object()) throw std::invalid_argument("finding is not a JSON object");
  f.id = j.at("id").get<std::string>();
  f.status = status_from_json(j.at("status"));
  f.title = j.value("title", "");
  f.summary = j.value("summary", "");
  f.evidence = j.contains("evidence") ? evidence_from_json(j.at("evidence")) : EvidenceList{};
  f.explanation = j.value("explanation", "");
  f.fixes = j.value("fixes", std::vector<Fix>{});
  // Schema 1 probe results carried fixes as plain lines under "remedy".
  for (auto& line : j.value("remedy", std::vector<std::string>{})) f.add_fix(line);
  f.references = j.value("references", std::vector<std::string>{});
  f.metrics = j.value("metrics", std::vector<Metric>{});
  f.devices = j.value("devices", std::vector<DeviceFinding>{});
  f.duration_s = j.value("duration_s", 0.0);
  f.details = j.value("details", nlohmann::json());
}

}  // namespace gpucheck
