#pragma once
// The doctor's rules. Each reads the context and appends findings; none prints or throws on odd input
// (a value it cannot interpret means the rule has nothing to say).
#include <vector>

#include "checks/doctor/doctor_context.h"
#include "core/finding.h"

namespace gpucheck::doctor {

/// nvcc an extension build would use vs torch.version.cuda; CUDA_HOME unset, dangling, or disagreeing with PATH.
void check_toolkit_vs_torch(const DoctorContext& ctx, std::vector<Finding>& out);
/// Driver too old for torch's CUDA runtime or for the toolkit (with the minor-version-compatibility caveat).
void check_driver(const DoctorContext& ctx, std::vector<Finding>& out);
/// Host compiler outside the range the build toolkit's nvcc accepts.
void check_host_compiler(const DoctorContext& ctx, std::vector<Finding>& out);
/// GPU compute capability not covered by torch's arch list (SASS or PTX); TORCH_CUDA_ARCH_LIST torch rejects.
void check_gpu_arch(const DoctorContext& ctx, std::vector<Finding>& out);
/// LD_LIBRARY_PATH / ld.so cache libraries shadowing the ones torch bundles.
void check_library_shadowing(const DoctorContext& ctx, std::vector<Finding>& out);
/// Installed extensions violating their implicit constraints (flash-attn, bmtrain, ...).
void check_installed_extensions(const DoctorContext& ctx, std::vector<Finding>& out);
/// Requires-Dist not met, as `pip check` decides it (markers evaluated, no extras).
void check_requirements(const DoctorContext& ctx, std::vector<Finding>& out);
/// A file two distributions' RECORDs claim with different hashes (nvidia-nccl-cu11 over -cu12's libnccl.so.2).
void check_shared_files(const DoctorContext& ctx, std::vector<Finding>& out);
/// A pasted environment listing two distributions that install the same package (onnxruntime beside
/// onnxruntime-gpu: data/compat/shared_packages.json); on the machine itself check_shared_files reads the files.
void check_shared_packages(const DoctorContext& ctx, std::vector<Finding>& out);
/// torch that cannot convert numpy arrays (built against another numpy C ABI).
void check_numpy_abi(const DoctorContext& ctx, std::vector<Finding>& out);
/// An installed package the probe imported that raised (and no other rule explained).
void check_import_failures(const DoctorContext& ctx, std::vector<Finding>& out);
/// CPU-only torch on a GPU node, torch that fails to import, several torch installs.
void check_torch_install(const DoctorContext& ctx, std::vector<Finding>& out);

}  // namespace gpucheck::doctor
