#pragma once
// Answers the kb_* facts of fix templates from the compat knowledge base shared with `doctor`.
#include <string>

#include "checks/explain/fix_facts.h"
#include "inventory/model.h"

namespace gpucheck::explain {

/// A KnowledgeCall backed by compat::KnowledgeBase (data/compat, the same facts `doctor` uses):
///   kb_torch_install(cuda)            the planner's torch for that CUDA (the build doctor names), as commands
///   kb_plan(requirement, torch_pin)   the planner's top plan for what a log asked ("bmtrain>=0.2.1",
///                                     "<2.0.0,>=1.10"), as commands joined by &&
///   kb_plan_build(package, version[, torch_pin])  the same for one release, torch first
///   kb_min_driver(cuda), kb_max_gcc(cuda), kb_last_cuda_for_arch(arch), kb_wheel_release(package),
///   kb_wheel_pythons(package).
/// Plans are for `inv`'s machine (the same one doctor judges) or, without one, for an unknown machine
/// ("python3", nothing checked against a driver, GPU or toolkit). Returns an empty function (every kb_*
/// fact unknown) when the knowledge base cannot be loaded, and says why in `note` (empty when it loaded).
/// `dir` defaults to data_path("compat").
KnowledgeCall load_knowledge_facts(std::string& note, const std::string& dir = "",
                                   const inventory::Inventory* inv = nullptr);

/// The kb_* facts whose answer depends on the machine (kb_plan, kb_plan_build, kb_torch_install): a caller
/// gathering the inventory lazily gathers it (with the Python probe) only when one of these is asked.
bool knowledge_fact_needs_machine(const std::string& fn);

}  // namespace gpucheck::explain
