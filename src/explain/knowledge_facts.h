#pragma once
// Answers the kb_* facts of fix templates from the compat knowledge base shared with `doctor`.
#include "explain/fix_facts.h"

namespace gpucheck::explain {

/// A KnowledgeCall backed by the knowledge base under data_dir(); returns an empty function (every kb_*
/// fact unknown) when the knowledge base is not installed, and says why in `note`.
KnowledgeCall load_knowledge_facts(std::string& note);

}  // namespace gpucheck::explain
