#pragma once
// Answers the kb_* facts of fix templates from the compat knowledge base shared with `doctor`.
#include <string>

#include "checks/explain/fix_facts.h"

namespace gpucheck::explain {

/// A KnowledgeCall backed by compat::KnowledgeBase (data/compat, the same facts `doctor` uses):
///   kb_torch_index(cuda), kb_torch_install(cuda), kb_min_driver(cuda), kb_max_gcc(cuda),
///   kb_last_cuda_for_arch(arch), kb_wheel_release(package), kb_wheel_pythons(package).
/// Returns an empty function (every kb_* fact unknown) when the knowledge base cannot be loaded, and says
/// why in `note` (empty when it loaded). `dir` defaults to data_path("compat").
KnowledgeCall load_knowledge_facts(std::string& note, const std::string& dir = "");

}  // namespace gpucheck::explain
