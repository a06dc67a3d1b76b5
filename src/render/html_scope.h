#pragma once
// What a report's command did and did not test, in plain sentences for the top of the HTML page: a reader
// must not take a run whose GPU probes all skipped for an accepted GPU.
#include <string>
#include <vector>

#include "model/verdict.h"

namespace gpucheck::render::html {

struct Scope {
  std::string verdict;             // the report's one verdict (model::Verdict::word)
  std::string tone;                // pass, fail, warn, info: the banner's colour (model::Verdict::tone)
  std::vector<std::string> lines;  // "GPU tested: 4 of 5 GPU probes ran (...)", "Not tested: ..."
};

Scope tested_scope(const model::Report& r, const model::Verdict& v);

}  // namespace gpucheck::render::html
