#pragma once
// Will a binary's kernels run on a GPU of compute capability X.Y? SASS runs within its major on the same
// or a newer minor (arch-specific "a"/"f" targets only on their exact capability); PTX is JIT-compiled for
// any capability at least as new.
#include <string>
#include <vector>

namespace gpucheck::doctor {

enum class Coverage { kSass, kPtxOnly, kNone };

/// `targets` in torch.cuda.get_arch_list() spelling ("sm_86", "sm_90a", "compute_90") or in
/// TORCH_CUDA_ARCH_LIST spelling ("8.6", "9.0+PTX"); `cc` as "8.9".
Coverage arch_coverage(const std::string& cc, const std::vector<std::string>& targets);

/// "sm_86" / "compute_86" / "8.6" / "8.6+PTX" -> "8.6"; "" when not an arch.
std::string arch_to_cc(const std::string& target);

}  // namespace gpucheck::doctor
