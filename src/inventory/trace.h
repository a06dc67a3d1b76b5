#pragma once
// Opt-in timing trace of `gpucheck env`'s phases: with GPUCHECK_TRACE=1 in the environment each call prints
// "gpucheck-trace +12.3 ms <what>" to stderr, the time counted from process start-up. Off: one cached check.
#include <string>

namespace gpucheck::inventory {

bool trace_enabled();
void trace(const std::string& what);

}  // namespace gpucheck::inventory
