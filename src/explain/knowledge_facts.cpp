#include "explain/knowledge_facts.h"

namespace gpucheck::explain {

// The compat knowledge base (issue "doctor", src/compat/knowledge_base.h) is wired in here once it lands;
// until then every kb_* fact is unknown and fix templates use their generic alternatives.
KnowledgeCall load_knowledge_facts(std::string& note) {
  note = "compat knowledge base not available: fixes are given without version-specific facts";
  return {};
}

}  // namespace gpucheck::explain
