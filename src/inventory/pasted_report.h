#pragma once
// A pasted environment report as one inventory, whatever its format: torch's or vLLM's collect_env
// (collect_env_text.h), detectron2's collect_env, sglang's check_env, `python -m xformers.info`, `python -m bitsandbytes`,
// `nvidia-smi`, `pip list` / `pip freeze`, `conda list` (paste_formats.h). A paste often holds several
// (an issue template asks for collect_env and pip list); their facts are merged, the first format that
// states a fact wins, and every fact's source says "pasted <format>". The doctor judges the result with
// the same rules as a live inventory.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "inventory/model.h"

namespace gpucheck::inventory {

struct PastedEnvironment {
  Inventory inventory;
  std::vector<std::string> formats;  // what was recognised, in the order read ("collect_env", "pip list")
};

/// Notes the inventory carries when the paste does not state a fact whose absence a rule would judge: the
/// doctor's verdicts on a pasted report leave out findings that rest on that absence (doctor_report.cpp).
inline constexpr const char* kPasteLacksDriver = "the pasted report does not state the NVIDIA driver";
/// torch's version when the paste shows only torch's own check of its CUDA (cpp_extension's refusal).
inline constexpr const char* kTorchVersionNotPasted = "(version not in the paste)";
/// The GPU of a pasted report that shows a Jetson's platform (L4T, JetPack) but lists no GPU: its integrated one.
inline constexpr const char* kJetsonGpu = "NVIDIA Jetson (integrated GPU)";
/// torch's assertion when CUDA is asked of a build without it; pasted, a PythonEnv::cuda_error.
inline constexpr const char* kTorchNotCompiledWithCuda = "AssertionError: Torch not compiled with CUDA enabled";
inline constexpr const char* kPasteLacksToolkit = "the pasted report does not say whether nvcc (a CUDA toolkit) is installed";

/// True when `text` holds at least one environment report format.
bool looks_like_environment_report(std::string_view text);

/// The merged inventory; nullopt when no format is recognised. With `compat_dir` (the knowledge base's
/// directory, data/compat), each GPU named by a model name without a stated compute capability gets its
/// capability from the `gpu_models` table there; "" leaves it unknown. `log_statements`: also a build log's
/// statements of facts (torch's cpp_extension refusal, pip's conflicts), for `doctor --from-text`; `explain`
/// names those causes from the log itself, so it reads the reports alone.
std::optional<PastedEnvironment> read_pasted_environment(std::string_view text, const std::string& name,
                                                         const std::string& compat_dir, bool log_statements = true);

/// The formats read_pasted_environment recognises, for messages.
const char* pasted_formats_help();

}  // namespace gpucheck::inventory
