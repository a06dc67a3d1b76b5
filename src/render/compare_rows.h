#pragma once
// The rows of `gpucheck compare`'s table, shared by the terminal and Markdown renderers: one per benchmark
// Finding of the "benchmarks" section, values already formatted.
#include <cmath>
#include <string>
#include <vector>

#include "model/report.h"

namespace gpucheck::render::compare {

struct Row {
  std::string name;     // the benchmark, "/manual_time" dropped
  std::string base, now, shown_change, p;  // "43.6 ms", "+12.0%", "4.1e-05"; "-" when not measured
  std::string verdict;  // regression, improvement, unchanged, undecidable, skipped
  double change = NAN;  // new/base - 1; NaN when not compared
  const Finding* finding = nullptr;
};

std::vector<Row> rows(const model::Report& r);
/// 3 significant digits in ns, us, ms or s.
std::string format_time(double ns);

}  // namespace gpucheck::render::compare
