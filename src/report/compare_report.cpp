#include "report/compare_report.h"

#include <optional>

#include "model/compare_details.h"

namespace gpucheck::report {

namespace {

void list_note(model::Report& rep, const std::vector<std::string>& names, const std::string& where) {
  if (names.empty()) return;
  std::string s;
  for (std::size_t i = 0; i < names.size() && i < 5; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > 5) s += ", ... (" + std::to_string(names.size() - 5) + " more)";
  rep.notes.push_back(std::to_string(names.size()) + " benchmark(s) only in " + where + ": " + s);
}

}  // namespace

std::string compare_key(const regression::BenchmarkDocument& d) {
  bool found = false;
  auto c = regression::context_from_json(d.context.contains("gpucheck") ? d.context["gpucheck"] : nlohmann::json(), found);
  return found ? c.key : "";
}

model::Report compare_report(const CompareInput& in, model::Report rep) {
  const auto& g = in.options.gate;
  const std::string key = compare_key(in.current);
  model::Section& s = rep.section("benchmarks");
  model::CompareDetails details;
  details.new_document = in.current_path;
  details.key = key;
  details.threshold = g.threshold;
  details.alpha = g.alpha;
  details.mode = in.mode;

  regression::Comparison result;
  if (in.mode != "pair") {
    if (in.bases.empty()) {
      Finding f;
      f.id = "compare.no_baseline";
      f.status = Status::kSkip;
      f.title = "No baseline with this hardware+software key";
      f.summary = "No document in " + in.dir + " has key " + key + ": nothing to compare against yet.";
      f.add_fix("Keep this run as the baseline of this configuration", {"cp " + in.current_path + " " + in.dir + "/"});
      s.findings.push_back(f);
      rep.details = model::to_json(details);
      return rep;
    }
    if (in.mode == "history") {
      for (const auto& d : in.bases) details.base.push_back(d.name);
      result = regression::compare_history(in.bases, in.current, in.options);
    } else {
      details.base = {in.bases.back().name};
      result = regression::compare_documents(in.bases.back(), in.current, in.options);
    }
  } else {
    details.base = {in.base_path};
    result = regression::compare_documents(in.bases.at(0), in.current, in.options);
  }

  if (result.context.finding) s.findings.push_back(*result.context.finding);
  std::optional<Finding> nothing = regression::nothing_measured(result, in.current_path);  // before the moves below
  for (auto& f : result.benchmarks) {
    details.counts[f.details.value("verdict", "")]++;
    s.findings.push_back(std::move(f));
  }
  if (nothing) s.findings.push_back(std::move(*nothing));
  list_note(rep, result.only_base, "the baseline");
  list_note(rep, result.only_current, in.current_path);
  details.refused = result.context.refused;
  rep.details = model::to_json(details);
  return rep;
}

}  // namespace gpucheck::report
