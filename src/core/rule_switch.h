#pragma once
// The selftest's hook for proving it notices a missing check (gpucheck selftest, docs/acceptance.md): a
// rule whose id is listed in GPUCHECK_SELFTEST_DISABLE (comma-separated) does not fire, exactly as if its
// check had been deleted from the code. Every acceptance rule asks here before it fires. `gpucheck run`
// refuses to start while the variable is set, so it can never silence a real acceptance run.
#include <string>

namespace gpucheck {

inline constexpr const char* kDisableRuleEnv = "GPUCHECK_SELFTEST_DISABLE";

/// True when `id` ("health.ecc_uncorrected") is listed in GPUCHECK_SELFTEST_DISABLE.
bool rule_disabled(const std::string& id);

}  // namespace gpucheck
