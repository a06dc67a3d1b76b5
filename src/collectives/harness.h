#pragma once
// Runs a plan over any transport: builds inputs on the host, uploads them, runs the collectives (timed
// loop first, then fresh inputs and a verified run, as nccl-tests does), downloads every output and checks
// every element bit for bit. Returns one report per local rank; stops at the first timeout or error.
#include <vector>

#include "collectives/options.h"
#include "collectives/plan.h"
#include "collectives/rank_report.h"
#include "collectives/transport.h"

namespace gpucheck::collectives {

std::vector<RankReport> run_plan(Transport& t, const std::vector<CaseSpec>& plan, const Options& o);

/// Runs fn(begin, end) over [0, n) on up to hardware_concurrency threads (one thread for small n).
void parallel_for(std::size_t n, const std::function<void(std::size_t, std::size_t)>& fn);

}  // namespace gpucheck::collectives
