#pragma once
// Runs a staged probe the way the runner starts it (`--result-fd 3`, GPUCHECK_STAGE_PROBES) and returns the
// result it wrote there; a probe that does not exit cleanly fails the calling test.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/subprocess.h"

namespace gpucheck::testing {

inline nlohmann::json run_probe(const std::string& id, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> argv{std::string(GPUCHECK_STAGE_PROBES) + "/" + id, "--result-fd", "3"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  SubprocessOptions o;
  o.result_fd = 3;
  o.timeout = std::chrono::minutes(4);
  auto r = run_subprocess(argv, o);
  EXPECT_TRUE(r.ok()) << id << ": " << r.describe() << "\n" << r.err;
  return nlohmann::json::parse(r.result);
}

}  // namespace gpucheck::testing
