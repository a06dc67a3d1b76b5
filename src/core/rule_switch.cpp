#include "core/rule_switch.h"

#include <cstdlib>
#include <sstream>

namespace gpucheck {

bool rule_disabled(const std::string& id) {
  const char* v = std::getenv(kDisableRuleEnv);
  if (!v || !*v) return false;
  std::istringstream list(v);
  std::string item;
  while (std::getline(list, item, ','))
    if (item == id) return true;
  return false;
}

}  // namespace gpucheck
