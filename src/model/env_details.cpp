#include "model/env_details.h"

#include "model/json_fields.h"

namespace gpucheck::model {

std::map<std::string, std::string> host_compiler_fits(const model::Report& r) {
  std::map<std::string, std::string> fits;
  if (const auto* s = r.find_section("host_compiler"))
    for (const auto& f : s->findings)
      if (member(f.details, "toolkit").is_string()) {
        const std::string fit = member(f.details, "fit").is_string() ? text_at(f.details, "fit") : "unknown";
        fits[text_at(f.details, "toolkit")] = fit + " (" + f.summary + ")";
      }
  return fits;
}

}  // namespace gpucheck::model
