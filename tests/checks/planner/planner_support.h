#pragma once
// Shared fixtures of the planner tests: the real knowledge base and machines described by their facts.
#include <string>
#include <vector>

#include "checks/planner/requirements_file.h"
#include "checks/planner/resolver.h"
#include "knowledge/knowledge_base.h"

namespace gpucheck::testing {

inline const knowledge::KnowledgeBase& planner_kb() {
  static knowledge::KnowledgeBase kb = knowledge::KnowledgeBase::load(std::string(GPUCHECK_SOURCE_DIR) + "/data/compat");
  return kb;
}

inline planner::Machine machine(const std::string& python_version, const std::string& driver_cuda,
                                std::vector<std::string> gpus, const std::string& nvcc = "") {
  planner::Machine m;
  m.python = "/opt/venv/bin/python";
  m.python_version = python_version;
  m.driver_cuda = driver_cuda;
  m.gpu_ccs = std::move(gpus);
  m.glibc = "2.36";
  m.nvcc = nvcc;
  m.nvcc_root = nvcc.empty() ? "" : "/usr/local/cuda-" + nvcc;
  m.gcc = "12.2.0";
  return m;
}

inline std::vector<planner::Ask> asks(const std::vector<std::string>& specs) {
  std::vector<planner::Ask> out;
  for (const auto& s : specs) out.push_back(planner::ask_from_spec(s));
  return out;
}

}  // namespace gpucheck::testing
