#include "common/check_result.h"

#include <algorithm>

namespace gpucheck::kernels {

void CheckCollector::add(const std::string& case_name, const std::vector<CheckReport>& reports) {
  ++cases_;
  nlohmann::json c = {{"case", case_name}, {"checks", reports}};
  details_.push_back(c);
  for (auto& r : reports) {
    ++checks_;
    max_abs_ = std::max(max_abs_, r.max_abs);
    max_rel_ = std::max(max_rel_, r.max_rel);
    if (!r.ok()) failed_.push_back(case_name + ": " + r.describe());
  }
}

void CheckCollector::fill(Finding& r, const std::string& what) const {
  r.add_metric("cases", static_cast<double>(cases_), "count");
  r.add_metric("checks_failed", static_cast<double>(failed_.size()), "count", "lower");
  r.add_metric("max_abs_error", max_abs_, "", "lower");
  r.add_metric("max_rel_error", max_rel_, "", "lower");
  r.details = {{"cases", details_}};
  if (failed_.empty()) {
    r.status = Status::kPass;
    r.summary = what + ": " + std::to_string(checks_) + " checks in " + std::to_string(cases_) +
                " cases within tolerance";
  } else {
    r.status = Status::kFail;
    r.summary = std::to_string(failed_.size()) + " of " + std::to_string(checks_) + " checks outside tolerance; first: " +
                failed_.front();
    for (std::size_t i = 0; i < failed_.size() && i < 10; ++i) r.evidence["failure_" + std::to_string(i)] = failed_[i];
  }
}

}  // namespace gpucheck::kernels
