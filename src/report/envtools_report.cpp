#include "report/envtools_report.h"

#include "envtools/cuda_env.h"
#include "model/envtools_details.h"

namespace gpucheck::report {
namespace {

// Only the toolkits matter here: no Python probes.
inventory::Inventory toolkits_inventory(const InventorySource& source) {
  inventory::CollectOptions co;
  co.python = false;
  return load_inventory(source, co);
}

}  // namespace

Report use_cuda_report(const UseCudaRequest& req, Report rep) {
  if (rep.meta.command.empty()) rep.meta.command = "use-cuda";
  inventory::Inventory inv = toolkits_inventory(req.source);
  const auto& t = compat::select_toolkit(inv, req.version);
  model::UseCudaDetails details{t.root, t.version, {}, compat::shell_exports(inv, t, req.path, req.ld_library_path)};
  for (const auto& e : compat::cuda_exports(inv, t, req.path, req.ld_library_path))
    details.exports.push_back({e.name, e.value});
  rep.details = model::to_json(details);
  return rep;
}

Report modulefiles_report(const ModulefilesRequest& req, Report rep) {
  if (rep.meta.command.empty()) rep.meta.command = "modulefiles";
  inventory::Inventory inv = toolkits_inventory(req.source);
  std::vector<std::string> refused;  // toolkits left out; the good ones are still written
  rep.details = model::to_json(model::ModulefilesDetails{
      req.dir, compat::write_modulefiles(inv, req.dir, &refused), req.dir + "/tcl", req.dir + "/lua"});
  for (const auto& why : refused) {
    Finding f;
    f.id = "modulefiles.toolkit_refused";
    f.status = Status::kFail;
    f.title = "a toolkit got no modulefile";
    f.summary = why;
    rep.section("modulefiles").findings.push_back(f);
  }
  return rep;
}

}  // namespace gpucheck::report
