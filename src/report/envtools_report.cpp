#include "report/envtools_report.h"

#include "envtools/cuda_env.h"
#include "model/envtools_details.h"

namespace gpucheck::report {

Report use_cuda_report(const inventory::Inventory& inv, const std::string& version, const std::string& path,
                       const std::string& ld_library_path, Report rep) {
  if (rep.meta.command.empty()) rep.meta.command = "use-cuda";
  const auto& t = compat::select_toolkit(inv, version);
  model::UseCudaDetails details{t.root, t.version, {}, compat::shell_exports(inv, t, path, ld_library_path)};
  for (const auto& e : compat::cuda_exports(inv, t, path, ld_library_path)) details.exports.push_back({e.name, e.value});
  rep.details = model::to_json(details);
  return rep;
}

Report modulefiles_report(const std::string& dir, const std::vector<std::string>& written,
                          const std::vector<std::string>& refused, Report rep) {
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
