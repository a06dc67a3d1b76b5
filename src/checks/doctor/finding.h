#pragma once
// What `gpucheck doctor` concludes: findings with evidence and a ranked fix plan of exact commands.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpucheck::compat {

enum class Severity { kInfo, kWarn, kError };
const char* to_string(Severity s);

struct Evidence {
  std::string what;    // "torch.version.cuda"
  std::string value;   // "11.8"
  std::string source;  // where the value came from: "/opt/env/bin/python", "driver.json (NVIDIA release notes)"
};

struct FixStep {
  int rank = 0;                       // 1 = try first
  std::string summary;                // "Install the bmtrain release that ships a prebuilt wheel"
  std::vector<std::string> commands;  // exact shell lines, in order
  std::string cost;                   // what it costs: download size, build time, what it changes
};

struct Finding {
  std::string id;        // stable: "cuda.nvcc_torch_major_mismatch"
  Severity severity = Severity::kInfo;
  std::string title;     // one line
  std::vector<Evidence> evidence;
  std::string explanation;
  std::vector<FixStep> fixes;  // ranked
  std::vector<std::string> references;  // knowledge-base source URLs behind the verdict
};

void to_json(nlohmann::json& j, const Evidence& e);
void to_json(nlohmann::json& j, const FixStep& f);
void to_json(nlohmann::json& j, const Finding& f);

}  // namespace gpucheck::compat
