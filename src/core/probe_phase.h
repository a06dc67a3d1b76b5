#pragma once
// The channel a probe's phases travel on (probe::phase() writes, runner::run_probe reads): the runner sets
// this variable to a file in a private temp directory for each probe; the probe writes its current phase
// there as one JSON object, {"phase": "...", "seq": N, "gpus_reached": [...], "ranks_reached": [...]}.
namespace gpucheck {
inline constexpr const char* kPhaseFileEnv = "GPUCHECK_PHASE_FILE";
}  // namespace gpucheck
