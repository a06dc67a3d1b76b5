#include "model/compare_details.h"

#include <limits>
#include "core/text.h"

namespace gpucheck::model {
namespace {

double number(const nlohmann::json& j, const char* key, double otherwise) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : otherwise;
}

}  // namespace

nlohmann::json to_json(const CompareDetails& d) {
  nlohmann::json j{{"new", d.new_document}, {"key", d.key}, {"threshold", d.threshold}, {"alpha", d.alpha}};
  if (!d.mode.empty()) j["mode"] = d.mode;
  if (d.mode == "history") j["base"] = d.base;
  else if (!d.base.empty()) j["base"] = d.base.front();
  j["counts"] = d.counts;
  if (d.refused) j["refused"] = *d.refused;
  return j;
}

CompareDetails compare_details(const model::Report& r) {
  CompareDetails d;
  const nlohmann::json& j = r.details;
  if (!j.is_object()) return d;
  d.mode = json_string(j, "mode");
  d.new_document = json_string(j, "new");
  if (auto b = j.find("base"); b != j.end()) {
    if (b->is_string()) d.base.push_back(b->get<std::string>());
    if (b->is_array())
      for (const auto& name : *b)
        if (name.is_string()) d.base.push_back(name.get<std::string>());
  }
  d.key = json_string(j, "key");
  d.threshold = number(j, "threshold", d.threshold);
  d.alpha = number(j, "alpha", d.alpha);
  if (auto c = j.find("counts"); c != j.end() && c->is_object())
    for (auto it = c->begin(); it != c->end(); ++it)
      if (it->is_number_integer() && it->get<std::int64_t>() >= 0 && it->get<std::int64_t>() <= std::numeric_limits<int>::max())
        d.counts[it.key()] = static_cast<int>(it->get<std::int64_t>());
  if (auto f = j.find("refused"); f != j.end() && f->is_boolean()) d.refused = f->get<bool>();
  return d;
}

}  // namespace gpucheck::model
