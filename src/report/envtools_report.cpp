#include "report/envtools_report.h"

#include "envtools/cuda_env.h"
#include "model/envtools_details.h"
#include "platform/root_fs.h"

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
  const inventory::Toolkit* found = compat::find_toolkit(inv, req.version);
  if (!found) {
    compat::InstallTools tools = req.tools;
    const inventory::RootFs fs;  // this machine: which tools a printed command may name
    tools.conda = !fs.which("conda", req.path).empty();
    tools.downloader = !fs.which("curl", req.path).empty() ? "curl" : !fs.which("wget", req.path).empty() ? "wget" : "";
    Finding f;
    f.id = "use_cuda.not_installed";
    f.status = Status::kFail;
    f.title = "no CUDA " + req.version + " toolkit with nvcc here";
    f.summary = "found: " + compat::toolkits_found(inv) + "; ways to put CUDA " + req.version + " beside them:";
    f.fixes = compat::toolkit_install_ways(compat::load_toolkit_runfiles(), req.version, tools);
    rep.section("use_cuda").findings.push_back(f);
    rep.details = model::to_json(model::UseCudaDetails{});  // no toolkit, no exports, no shell lines
    return rep;
  }
  const auto& t = *found;
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
