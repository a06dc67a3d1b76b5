#pragma once
// Values read back from a Finding's details, next to the rule of the writer that wrote them, so a reader
// (the HTML charts) needs the model only, not the check that judged.
#include <optional>
#include <string>

#include "core/finding.h"

namespace gpucheck::model {

/// NEW's counter `name` of a compare benchmark Finding, from details.counters as
/// regression::compare_documents writes it (counters_details); nullopt when absent.
std::optional<double> benchmark_new_counter(const Finding& benchmark, const std::string& name);

/// The reference figure rule 1 (reference_share) held `metric` of GPU `device` against, read from a
/// `thresholds.<probe id>` Finding's details.verdicts[] as acceptance::judge_thresholds writes it;
/// nullopt when that rule did not apply.
std::optional<double> threshold_reference(const Finding& thresholds, const std::string& device, const std::string& metric);

}  // namespace gpucheck::model
