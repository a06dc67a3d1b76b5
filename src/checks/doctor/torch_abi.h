#pragma once
// The C++11 string ABI (_GLIBCXX_USE_CXX11_ABI) of a torch release as PyTorch's own wheels build it, for a
// report that does not print torch._C._GLIBCXX_USE_CXX11_ABI (a paste): up to 2.5 the old ABI, 2.6 the old one
// but its cu126 builds, from 2.7 the new one (shared/research/compat-facts.md).
#include <optional>
#include <string>

namespace gpucheck::doctor {

/// True for the new ABI, false for the old; nullopt when `torch_version` is no release of PyTorch's wheels
/// (a source build "2.1.0a0+4136153", NVIDIA's "2.5.0a0+...nv24.08", an unparsable version).
std::optional<bool> wheel_torch_uses_cxx11_abi(const std::string& torch_version);

}  // namespace gpucheck::doctor
