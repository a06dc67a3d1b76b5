#include "commands/compare.h"

#include <algorithm>
#include <filesystem>

#include "core/errors.h"
#include "report/compare_report.h"

namespace gpucheck::commands {

namespace fs = std::filesystem;

namespace {

// Documents in `dir` with this key, oldest first (context date, then file name); others are skipped,
// unreadable ones noted.
std::vector<regression::BenchmarkDocument> documents_with_key(const std::string& dir, const std::string& key,
                                                              const std::string& exclude, model::Report& rep) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(dir + " is not a directory");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json" && e.is_regular_file(ec)) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  struct Candidate {
    regression::BenchmarkDocument doc;
    std::string date;
  };
  std::vector<Candidate> found;
  int other_keys = 0;
  for (const auto& f : files) {
    if (fs::equivalent(f, exclude, ec)) continue;
    try {
      Candidate c{regression::load_benchmark_document(f), ""};
      if (report::compare_key(c.doc) != key) {
        ++other_keys;
        continue;
      }
      c.date = c.doc.context.value("date", "");
      found.push_back(std::move(c));
    } catch (const InputError& e) {
      rep.notes.push_back(std::string("skipped ") + e.what());
    }
  }
  if (other_keys) rep.notes.push_back(std::to_string(other_keys) + " document(s) in " + dir + " have another key");
  std::stable_sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) { return a.date < b.date; });
  std::vector<regression::BenchmarkDocument> out;
  for (auto& c : found) out.push_back(std::move(c.doc));
  return out;
}

}  // namespace

model::Report compare(const CompareRequest& req, model::Report rep) {
  const auto& g = req.options.gate;
  if (!(g.threshold >= 0) || g.threshold > 10) throw InputError("--threshold must be between 0 and 10 (a fraction: 0.05 = 5%)");
  if (!(g.alpha > 0) || g.alpha >= 1) throw InputError("--alpha must be in (0, 1)");
  if (req.current.empty()) throw InputError("no NEW document given");
  report::CompareInput in;
  in.current = regression::load_benchmark_document(req.current);
  in.current_path = req.current;
  in.options = req.options;
  if (!req.history_dir.empty() || !req.baseline_dir.empty()) {
    const bool history = !req.history_dir.empty();
    in.mode = history ? "history" : "baseline-dir";
    in.dir = history ? req.history_dir : req.baseline_dir;
    const std::string key = report::compare_key(in.current);
    if (key.empty())
      throw InputError(req.current + " has no gpucheck context key (write it with `gpucheck bench`), so no baseline can be picked from " + in.dir);
    in.bases = documents_with_key(in.dir, key, req.current, rep);
  } else {
    if (req.base.empty()) throw InputError("no BASE document given (or use --baseline-dir DIR / --history DIR)");
    in.mode = "pair";
    in.base_path = req.base;
    in.bases = {regression::load_benchmark_document(req.base)};
  }
  return report::compare_report(in, std::move(rep));
}

}  // namespace gpucheck::commands
