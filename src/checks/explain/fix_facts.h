#pragma once
// The facts fix templates may ask for, as "{fn(args)}":
//   helpers     mm(v) -> "11.8" from "11.8.89" or "11080"; cu_tag(v) -> "cu118"
//   inventory   env_toolkit_root(v), env_toolkits(), env_torch(), env_torch_cuda(), env_python(),
//               env_python_version(), env_driver(), env_driver_cuda(), env_gpu_cc(), env_gcc(),
//               env_glibc(), env_glibcxx_max(), env_nvcc_cuda(), env_driver_absent()
//   knowledge   kb_*(...): answered by the compat knowledge base shared with `doctor` (data/compat, see
//               knowledge_facts.h), never by a table kept here.
// An unknown fact is nullopt, so the template falls back to a generic alternative.
#include <optional>
#include <string>
#include <vector>

#include "checks/explain/fix_template.h"
#include "inventory/model.h"

namespace gpucheck::explain {

/// Looks up a version fact in the shared knowledge base; nullopt when unknown.
using KnowledgeCall = std::function<std::optional<std::string>(const std::string& fn, const std::vector<std::string>& args)>;

/// "11.8" from "11.8.89", "11.8", "cu118" or "11080" (cudaDriverGetVersion style); "" when not a version.
std::string major_minor(const std::string& v);

/// A FactCall over the helpers, the inventory (may be null: no environment) and the knowledge base.
FactCall make_fact_call(const inventory::Inventory* inv, KnowledgeCall knowledge);

}  // namespace gpucheck::explain
