#include "model/run_details.h"

namespace gpucheck::model {

nlohmann::json to_json(const RunDetails& d) { return {{"gpu_probes", d.gpu_probes}}; }

RunDetails run_details(const model::Report& r) {
  RunDetails d;
  if (!r.details.is_object()) return d;
  auto g = r.details.find("gpu_probes");
  if (g == r.details.end() || !g->is_array()) return d;
  for (const auto& id : *g)
    if (id.is_string()) d.gpu_probes.push_back(id.get<std::string>());
  return d;
}

}  // namespace gpucheck::model
