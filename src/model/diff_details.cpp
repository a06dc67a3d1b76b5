#include "model/diff_details.h"

#include <limits>
#include "core/text.h"

namespace gpucheck::model {
namespace {

int count(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) return 0;
  const auto v = it->get<std::int64_t>();
  return v >= 0 && v <= std::numeric_limits<int>::max() ? static_cast<int>(v) : 0;
}

DiffSide side(const nlohmann::json& d, const char* key) {
  DiffSide s;
  auto it = d.find(key);
  if (it == d.end() || !it->is_object()) return s;
  s.present = true;
  s.file = json_string(*it, "file");
  s.hostname = json_string(*it, "hostname");
  s.collected_at = json_string(*it, "collected_at");
  return s;
}

}  // namespace

nlohmann::json to_json(const DiffDetails& d) {
  auto side = [](const DiffSide& s) {
    return nlohmann::json{{"file", s.file}, {"hostname", s.hostname}, {"collected_at", s.collected_at}};
  };
  return {{"a", side(d.a)}, {"b", side(d.b)}, {"differences", d.differences}, {"that_matter", d.that_matter}};
}

DiffDetails diff_details(const model::Report& r) {
  DiffDetails d;
  if (!r.details.is_object()) return d;
  d.a = side(r.details, "a");
  d.b = side(r.details, "b");
  d.differences = count(r.details, "differences");
  d.that_matter = count(r.details, "that_matter");
  return d;
}

}  // namespace gpucheck::model
