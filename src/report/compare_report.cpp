#include "report/compare_report.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "core/errors.h"
#include "model/compare_details.h"

namespace gpucheck::report {

namespace fs = std::filesystem;

namespace {

struct Candidate {
  regression::BenchmarkDocument doc;
  std::string key, date;
};

std::string key_of(const regression::BenchmarkDocument& d) {
  bool found = false;
  auto c = regression::context_from_json(d.context.contains("gpucheck") ? d.context["gpucheck"] : nlohmann::json(), found);
  return found ? c.key : "";
}

// Documents in `dir` with this key, oldest first (context date, then file name); others are skipped,
// unreadable ones noted.
std::vector<regression::BenchmarkDocument> documents_with_key(const std::string& dir, const std::string& key,
                                                              const std::string& exclude, Report& rep) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(dir + " is not a directory");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json" && e.is_regular_file(ec)) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  std::vector<Candidate> found;
  int other_keys = 0;
  for (const auto& f : files) {
    if (fs::equivalent(f, exclude, ec)) continue;
    try {
      Candidate c{regression::load_benchmark_document(f), "", ""};
      c.key = key_of(c.doc);
      c.date = c.doc.context.value("date", "");
      if (c.key != key) {
        ++other_keys;
        continue;
      }
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

void list_note(Report& rep, const std::vector<std::string>& names, const std::string& where) {
  if (names.empty()) return;
  std::string s;
  for (std::size_t i = 0; i < names.size() && i < 5; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > 5) s += ", ... (" + std::to_string(names.size() - 5) + " more)";
  rep.notes.push_back(std::to_string(names.size()) + " benchmark(s) only in " + where + ": " + s);
}

}  // namespace

Report compare_report(const CompareRequest& req, Report rep) {
  const auto& g = req.options.gate;
  if (!(g.threshold >= 0) || g.threshold > 10) throw InputError("--threshold must be between 0 and 10 (a fraction: 0.05 = 5%)");
  if (!(g.alpha > 0) || g.alpha >= 1) throw InputError("--alpha must be in (0, 1)");
  if (req.current.empty()) throw InputError("no NEW document given");
  regression::BenchmarkDocument current = regression::load_benchmark_document(req.current);
  const std::string key = key_of(current);
  Section& s = rep.section("benchmarks");
  model::CompareDetails details;
  details.new_document = req.current;
  details.key = key;
  details.threshold = g.threshold;
  details.alpha = g.alpha;

  regression::Comparison result;
  if (!req.history_dir.empty() || !req.baseline_dir.empty()) {
    const bool history = !req.history_dir.empty();
    const std::string dir = history ? req.history_dir : req.baseline_dir;
    details.mode = history ? "history" : "baseline-dir";
    if (key.empty())
      throw InputError(req.current + " has no gpucheck context key (write it with `gpucheck bench`), so no baseline can be picked from " + dir);
    auto docs = documents_with_key(dir, key, req.current, rep);
    if (docs.empty()) {
      Finding f;
      f.id = "compare.no_baseline";
      f.status = Status::kSkip;
      f.title = "No baseline with this hardware+software key";
      f.summary = "No document in " + dir + " has key " + key + ": nothing to compare against yet.";
      f.add_fix("Keep this run as the baseline of this configuration", {"cp " + req.current + " " + dir + "/"});
      s.findings.push_back(f);
      rep.details = model::to_json(details);
      return rep;
    }
    if (history) {
      for (const auto& d : docs) details.base.push_back(d.name);
      result = regression::compare_history(docs, current, req.options);
    } else {
      details.base = {docs.back().name};
      result = regression::compare_documents(docs.back(), current, req.options);
    }
  } else {
    if (req.base.empty()) throw InputError("no BASE document given (or use --baseline-dir DIR / --history DIR)");
    details.mode = "pair";
    details.base = {req.base};
    result = regression::compare_documents(regression::load_benchmark_document(req.base), current, req.options);
  }

  if (result.context.finding) s.findings.push_back(*result.context.finding);
  std::optional<Finding> nothing = regression::nothing_measured(result, req.current);  // before the moves below
  for (auto& f : result.benchmarks) {
    details.counts[f.details.value("verdict", "")]++;
    s.findings.push_back(std::move(f));
  }
  if (nothing) s.findings.push_back(std::move(*nothing));
  list_note(rep, result.only_base, "the baseline");
  list_note(rep, result.only_current, req.current);
  details.refused = result.context.refused;
  rep.details = model::to_json(details);
  return rep;
}

}  // namespace gpucheck::report
