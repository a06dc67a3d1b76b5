#include "commands/tool.h"

#include "core/paths.h"
#include "report/list_report.h"
#include "report/version_report.h"
#include "runner/catalog.h"

namespace gpucheck::commands {

report::Report list(report::Report base) {
  return report::list_report(runner::load_catalog(data_path("probes"), probe_dir()), std::move(base));
}

report::Report version(report::Report base) { return report::version_report(std::move(base)); }

report::Report saved_report(const std::string& path) { return report::read_report_file(path); }

}  // namespace gpucheck::commands
