#include "model/envtools_details.h"

#include "model/json_fields.h"

namespace gpucheck::model {

nlohmann::json to_json(const UseCudaDetails& d) {
  nlohmann::json exports = nlohmann::json::array();
  for (const auto& e : d.exports) exports.push_back({{"name", e.name}, {"value", e.value}});
  return {{"toolkit", {{"root", d.toolkit_root}, {"version", d.toolkit_version}}}, {"exports", exports}, {"shell", d.shell}};
}

UseCudaDetails use_cuda_details(const model::Report& r) {
  UseCudaDetails d;
  d.toolkit_root = text_at(member(r.details, "toolkit"), "root");
  d.toolkit_version = text_at(member(r.details, "toolkit"), "version");
  for (const auto& e : member(r.details, "exports")) d.exports.push_back({text_at(e, "name"), text_at(e, "value")});
  d.shell = text_at(r.details, "shell");
  return d;
}

nlohmann::json to_json(const ModulefilesDetails& d) {
  return {{"dir", d.dir}, {"written", d.written}, {"tcl", d.tcl}, {"lua", d.lua}};
}

ModulefilesDetails modulefiles_details(const model::Report& r) {
  return {text_at(r.details, "dir"), strings_at(r.details, "written"), text_at(r.details, "tcl"),
          text_at(r.details, "lua")};
}

}  // namespace gpucheck::model
