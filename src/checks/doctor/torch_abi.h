#pragma once
// The C++11 string ABI (_GLIBCXX_USE_CXX11_ABI) of a torch PyTorch's own wheels built, for a report that does not
// print torch._C._GLIBCXX_USE_CXX11_ABI (a paste): data/compat/torch.json's `cxx11_abi` of that build.
#include <optional>
#include <string>

#include "knowledge/knowledge_base.h"

namespace gpucheck::doctor {

/// True for the new ABI, false for the old, as the table records it for the build `torch_version` names ("+cu126";
/// PyPI's default build without a label; any build when all of its release's agree). Releases older than the
/// table were all built with the old ABI. nullopt when `torch_version` is no wheel of PyTorch's (a source build
/// "2.1.0a0+4136153", NVIDIA's "2.5.0a0+...nv24.08") or the table cannot tell.
std::optional<bool> wheel_torch_uses_cxx11_abi(const knowledge::KnowledgeBase& kb, const std::string& torch_version);

}  // namespace gpucheck::doctor
