#pragma once
// What a report's command did and did not test, in plain sentences for the top of the HTML page: a reader
// must not take a run whose GPU probes all skipped for an accepted GPU.
#include <string>
#include <vector>

#include "report/report.h"

namespace gpucheck::render::html {

struct Scope {
  std::string verdict;             // summarize()'s: PASS, FAIL, NO VERDICT, NO GPU TESTED
  std::string tone;                // pass, fail, warn (no verdict, nothing on a GPU): the banner's colour
  std::vector<std::string> lines;  // "GPU tested: 4 of 5 GPU probes ran (...)", "Not tested: ..."
};

Scope tested_scope(const report::Report& r);

}  // namespace gpucheck::render::html
