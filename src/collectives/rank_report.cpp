#include "collectives/rank_report.h"

namespace gpucheck::collectives {

nlohmann::json to_json(const RankReport& r) {
  nlohmann::json cases = nlohmann::json::array();
  for (auto& c : r.cases) {
    nlohmann::json j{{"key", c.key}, {"checked", c.checked}, {"wrong", c.wrong}, {"time_s", c.time_s}};
    if (c.first_index >= 0) {
      j["first_index"] = c.first_index;
      j["expected_bits"] = c.expected_bits;
      j["got_bits"] = c.got_bits;
    }
    cases.push_back(j);
  }
  nlohmann::json j{{"rank", r.info.rank}, {"host", r.info.host}, {"device", r.info.device},
                   {"error", r.error},    {"timed_out", r.timed_out}, {"cases", cases}};
  if (r.copy) j["copy"] = {{"bytes", r.copy->bytes}, {"time_s", r.copy->time_s}, {"error", r.copy->error}};
  return j;
}

RankReport rank_report_from_json(const nlohmann::json& j) {
  RankReport r;
  r.info.rank = j.at("rank").get<int>();
  r.info.host = j.at("host").get<std::string>();
  r.info.device = j.at("device").get<std::string>();
  r.error = j.value("error", "");
  r.timed_out = j.value("timed_out", false);
  for (auto& c : j.at("cases")) {
    CaseOutcome o;
    o.key = c.at("key").get<std::string>();
    o.checked = c.value("checked", std::size_t{0});
    o.wrong = c.at("wrong").get<std::size_t>();
    o.time_s = c.value("time_s", -1.0);
    o.first_index = c.value("first_index", std::int64_t{-1});
    o.expected_bits = c.value("expected_bits", 0u);
    o.got_bits = c.value("got_bits", 0u);
    r.cases.push_back(o);
  }
  if (j.contains("copy")) {
    const nlohmann::json& c = j.at("copy");
    r.copy = CopyBaseline{c.at("bytes").get<std::size_t>(), c.value("time_s", -1.0), c.value("error", "")};
  }
  return r;
}

}  // namespace gpucheck::collectives
