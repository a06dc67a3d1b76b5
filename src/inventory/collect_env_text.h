#pragma once
// A pasted environment report as an inventory: the output of `python -m torch.utils.collect_env` (every
// torch since 1.0: "Key: value" lines) and vLLM's collect_env.py (the same keys, or since 2025 sections
// of "Key   : value"). A maintainer triaging an issue has exactly that. What it states becomes the
// inventory's facts (torch and the CUDA it was built with, the nvcc found, the driver, GPU names, gcc,
// glibc, cuDNN, pip packages); what it cannot state (paths, compute capabilities, loader state) stays
// empty, and a note says where the facts came from.
#include <optional>
#include <string>
#include <string_view>

#include "inventory/model.h"

namespace gpucheck::inventory {

/// The root of the toolkit the report's nvcc belongs to: the report has no path, so this names what is
/// known; a command quoting it would not work, and doctor --from-text (report::doctor_report_pasted) leaves such steps out.
inline constexpr const char* kCollectEnvToolkitRoot = "(the nvcc the pasted report ran; path not in the report)";

/// Records the nvcc a pasted report ran (`version`, read from `source`) as the toolkit both PATH and torch's
/// cpp_extension pick; its root is kCollectEnvToolkitRoot. `why` says how the paste knew it.
void add_pasted_nvcc(Inventory& inv, const std::string& version, const std::string& source, const std::string& why);

/// True when `text` contains a collect_env report: a "PyTorch version" line and at least three of its
/// other keys.
bool looks_like_collect_env(std::string_view text);

/// The inventory the report describes (schema 2); nullopt when `text` is not one. `name` labels it in
/// the inventory's notes.
std::optional<Inventory> inventory_from_collect_env(std::string_view text, const std::string& name);

}  // namespace gpucheck::inventory
