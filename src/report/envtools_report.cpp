#include "report/envtools_report.h"

#include "envtools/cuda_env.h"
#include "model/envtools_details.h"

namespace gpucheck::report {

model::Report use_cuda_report(const inventory::Inventory& inv, const std::string& version, const std::string& path,
                       const std::string& ld_library_path, const ToolkitInstallFacts& install, model::Report rep) {
  if (rep.meta.command.empty()) rep.meta.command = "use-cuda";
  const inventory::Toolkit* found = envtools::find_toolkit(inv, version);
  if (!found) {
    Finding f;
    f.id = "use_cuda.not_installed";
    f.status = Status::kFail;
    f.title = "no CUDA " + version + " toolkit with nvcc here";
    f.summary = "found: " + envtools::toolkits_found(inv) + "; ways to put CUDA " + version + " beside them:";
    f.fixes = envtools::toolkit_install_ways(install.runfiles, version, install.tools);
    rep.section("use_cuda").findings.push_back(f);
    rep.details = model::to_json(model::UseCudaDetails{});  // no toolkit, no exports, no shell lines
    return rep;
  }
  const auto& t = *found;
  model::UseCudaDetails details{t.root, t.version, {}, envtools::shell_exports(inv, t, path, ld_library_path)};
  for (const auto& e : envtools::cuda_exports(inv, t, path, ld_library_path)) details.exports.push_back({e.name, e.value});
  rep.details = model::to_json(details);
  return rep;
}

model::Report modulefiles_report(const std::string& dir, const std::vector<std::string>& written,
                          const std::vector<std::string>& refused, model::Report rep) {
  if (rep.meta.command.empty()) rep.meta.command = "modulefiles";
  rep.details = model::to_json(model::ModulefilesDetails{dir, written, dir + "/tcl", dir + "/lua"});
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
