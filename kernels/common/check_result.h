#pragma once
// Turns CheckReports of named cases into a probe Finding: pass only if every check is within policy; the
// worst errors as metrics; every check (max abs/rel, worst index) in details.
#include <string>
#include <vector>

#include "common/tolerance.h"
#include "core/finding.h"

namespace gpucheck::kernels {

class CheckCollector {
 public:
  /// Records the reports of one case ("fp16 n=1025 adversarial").
  void add(const std::string& case_name, const std::vector<CheckReport>& reports);
  void add(const std::string& case_name, const CheckReport& report) { add(case_name, std::vector<CheckReport>{report}); }
  std::size_t cases() const { return cases_; }
  std::size_t failures() const { return failed_.size(); }
  /// Sets status, summary (`what` + counts, or the first failure), metrics and details.
  void fill(Finding& r, const std::string& what) const;

 private:
  std::size_t cases_ = 0, checks_ = 0;
  double max_abs_ = 0, max_rel_ = 0;
  std::vector<std::string> failed_;
  nlohmann::json details_ = nlohmann::json::array();
};

}  // namespace gpucheck::kernels
