#include "commands/bench.h"

#include <sys/stat.h>

#include <filesystem>

#include "checks/regression/bench_context.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/interrupt.h"
#include "core/paths.h"
#include "core/text.h"
#include "gpucheck/build_info.h"
#include "inventory/version_cache.h"
#include "model/scrub.h"
#include "report/bench_report.h"
#include "commands/inventory_source.h"

namespace gpucheck::commands {

model::Report bench(const BenchRequest& req, model::Report rep) {
  if (req.options.repetitions < 1 || req.options.repetitions > 1000)
    throw InputError("--repetitions must be between 1 and 1000");
  const std::string suites_file = req.suites_file.empty() ? data_path("bench/suites.json") : req.suites_file;
  std::vector<runner::BenchSuite> suites = runner::load_bench_suites(suites_file, runner::bench_dir());
  if (req.out.empty() && !std::filesystem::is_directory(req.dir))
    throw InputError("--dir " + req.dir + " is not a directory");
  // Found out now, not after every suite has run: the directory the document goes to takes a file.
  if (req.out.empty()) {
    check_writable_dir(req.dir);
  } else {
    struct stat st {};
    if (::stat(req.out.c_str(), &st) != 0 || S_ISREG(st.st_mode)) {
      std::filesystem::path out(req.out);
      check_writable_dir(out.has_parent_path() ? out.parent_path().string() : ".");
    }
  }

  inventory::CollectOptions collect;
  collect.python = !req.no_python;
  collect.version_cache = inventory::default_version_cache_file();  // the readings `gpucheck env` keeps
  commands::InventorySource source;
  source.pythons = req.pythons;
  inventory::Inventory inv = commands::load_inventory(source, collect);
  regression::BenchContext context = regression::context_from_inventory(inv, build::kVersion, report::tool_build_description());

  std::vector<runner::SuiteRun> runs = runner::run_bench_suites(suites, req.options);
  nlohmann::json doc = runner::merge_suite_documents(runs, regression::to_json(context));
  doc["context"]["gpucheck"]["repetitions"] = req.options.repetitions;
  if (!req.options.filter.empty()) doc["context"]["gpucheck"]["filter"] = req.options.filter;
  if (req.options.test_slowdown != 1) doc["context"]["gpucheck"]["test_slowdown"] = req.options.test_slowdown;

  model::scrub_secrets(doc);  // suite names, errors and context come from outside too
  std::string text = json_text(doc, 2) + "\n";
  std::string written;
  if (!req.out.empty()) {
    write_file_atomic(req.out, text);
    written = req.out;
  } else {
    written = write_new_file(req.dir + "/" + context.key + "-" + utc_now_compact(), ".json", text);
  }

  report::BenchOutcome outcome;
  outcome.suites = std::move(suites);
  outcome.only = req.options.only;
  outcome.runs = std::move(runs);
  outcome.interrupted_by = interrupt_signal();
  outcome.document = written;
  outcome.context = std::move(context);
  return report::bench_report(outcome, std::move(rep));
}

}  // namespace gpucheck::commands
