#include "inventory/trace.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gpucheck::inventory {

namespace {
// Initialised with the other statics before main(), so it is the process's start-up to within a millisecond.
const auto kOrigin = std::chrono::steady_clock::now();
}  // namespace

bool trace_enabled() {
  static const bool on = [] {
    const char* v = std::getenv("GPUCHECK_TRACE");
    return v && *v && std::strcmp(v, "0") != 0;
  }();
  return on;
}

void trace(const std::string& what) {
  if (!trace_enabled()) return;
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - kOrigin).count();
  std::fprintf(stderr, "gpucheck-trace +%.1f ms %s\n", ms, what.c_str());  // one locked write per line
}

}  // namespace gpucheck::inventory
