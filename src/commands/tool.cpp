#include "commands/tool.h"

#include "core/paths.h"
#include "report/list_report.h"
#include "report/version_report.h"
#include "runner/catalog.h"

namespace gpucheck::commands {

model::Report list(model::Report base) {
  return report::list_report(runner::load_catalog(data_path("probes"), probe_dir()), std::move(base));
}

model::Report version(model::Report base) { return report::version_report(std::move(base)); }

model::Report saved_report(const std::string& path) { return model::read_report_file(path); }

}  // namespace gpucheck::commands
