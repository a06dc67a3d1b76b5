#pragma once
// Rank 0 turns every rank's report into one gpucheck Finding: a row per case (time averaged over ranks as
// nccl-tests' default -a 1, algbw, busbw, #wrong summed over ranks with the first bad rank and index), a
// plateau busbw per sweep, one DeviceFinding per rank (rank, host, GPU, its own plateau busbw) and a verdict.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "collectives/options.h"
#include "collectives/plan.h"
#include "collectives/rank_report.h"
#include "core/finding.h"

namespace gpucheck::collectives {

struct RankWrong {
  int rank = 0;
  std::size_t wrong = 0;
  std::int64_t first_index = -1;
};

struct Row {
  const CaseSpec* spec = nullptr;
  std::size_t bytes = 0;
  double time_us = -1;  // mean over ranks; < 0 not timed
  double algbw = 0, busbw = 0;
  std::size_t wrong = 0, checked = 0;
  int ranks_reported = 0;
  int first_bad_rank = -1;
  std::int64_t first_bad_index = -1;
  std::uint32_t expected_bits = 0, got_bits = 0;
  std::vector<RankWrong> wrong_by_rank;  // only ranks with wrong elements, by rank
};

std::vector<Row> merge_rows(const std::vector<RankReport>& ranks, const std::vector<CaseSpec>& plan, int world);

/// Fills r.status, summary, metrics, evidence, devices and details. `transport` names what ran ("nccl").
void merge_into_result(const std::vector<RankReport>& ranks, const std::vector<CaseSpec>& plan, const Options& o,
                       const std::string& transport, int world, Finding& r);

}  // namespace gpucheck::collectives
