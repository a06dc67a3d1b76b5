#pragma once
// What a finding is about, in one place for every command (doctor, explain, abi, run's probes, every
// format): broken now, at risk for a goal, or a note; which finding a user should act on first; and the
// one registry of cause ids, with the old ids kept as aliases so saved reports still resolve.
//
// The rules (docs/cli.md "Verdicts and the next step"):
// - broken now: something installed fails today (an import, a symbol, the library the loader picks, the
//   driver against torch's CUDA, a GPU torch's build lacks). FAIL.
// - at risk for a goal: fails only when the user does something (a source build against a torch whose CUDA
//   major differs from nvcc). FAIL only when the command's goal is that thing (doctor --for a package that
//   compiles, explain of a build log, -r with an sdist); otherwise a WARNING that says when it matters.
// - note: a fact worth reading, no action needed.
#include <string>
#include <vector>

#include "core/finding.h"

namespace gpucheck {

enum class Concern { kBrokenNow, kAtRisk, kNote };

/// "broken_now", "at_risk", "note" (the JSON field `concern` of a finding).
const char* to_string(Concern c);

/// What the user is about to do, as far as the command knows.
enum class Goal {
  kUseInstalled,  // plain doctor, run, abi: judge what is installed
  kSourceBuild,   // doctor --for a package that compiles, -r with an sdist, explain of a build log
};

/// The current id for `id`: an old id (e.g. explain's "cuda-mismatch-nvcc-torch") resolves to the one
/// doctor reports ("cuda.nvcc_torch_major_mismatch"); an id with no alias is returned unchanged.
std::string canonical_cause_id(const std::string& id);
/// Every id that names the same cause as `id` (itself included, canonical first).
std::vector<std::string> cause_aliases(const std::string& id);
/// True when `a` and `b` name the same cause.
bool same_cause(const std::string& a, const std::string& b);
/// True when the registry has a row for `id` (as its id or an alias): every cause explain can name has one.
bool is_registered_cause(const std::string& id);

/// What `f` is about: the registry's answer for its id (prefixes included: install.*, plan.* are about a
/// goal), else its status (fail/error: broken now, warn: at risk, anything else: a note).
Concern concern_of(const Finding& f);

/// True when a finding with this id becomes an error under `goal` (the nvcc-vs-torch mismatch under a
/// source build).
bool fails_under(const std::string& id, Goal goal);

/// Raises the findings that `goal` makes fatal to FAIL (their summary then starts with `why`); the rest
/// unchanged. The single place that turns "at risk" into "breaks this goal".
void apply_goal(std::vector<Finding>& findings, Goal goal,
                const std::string& why = "This command's goal is a source build, which this breaks. ");

/// The findings a user should act on, most blocking first: broken now, then at risk, then notes that are
/// warnings; within each, failures before warnings, a root cause (details.root) before its consequences,
/// then the order given. Passes, skips and plain information are left out.
std::vector<const Finding*> rank_for_action(const std::vector<const Finding*>& findings);

/// rank_for_action(...).front(), or nullptr when nothing needs action.
const Finding* first_to_act_on(const std::vector<const Finding*>& findings);

}  // namespace gpucheck
