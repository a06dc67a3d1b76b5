#pragma once
// A resolved plan as commands that work where they are meant to run: `<that python> -m pip` for the judged
// interpreter, a venv first where PEP 668 forbids installing, torch (with its index) before anything that
// builds against it, `wheel` before a --no-build-isolation build, every later install pinned to the
// planned torch so pip cannot swap it, and the build's TORCH_CUDA_ARCH_LIST kept.
#include "checks/planner/machine.h"
#include "checks/planner/resolver.h"

namespace gpucheck::planner {

/// Fills plan.commands, plan.summary and plan.cost; adds a note for each package that imports only with torch
/// loaded RTLD_GLOBAL (its commands then end with that export).
void render_plan(Plan& plan, const Machine& m);

/// Single-quotes for POSIX shells when `s` holds anything but [A-Za-z0-9_./:@%+=,-].
std::string quote(const std::string& s);

}  // namespace gpucheck::planner
