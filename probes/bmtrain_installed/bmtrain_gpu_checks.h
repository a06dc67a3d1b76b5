#pragma once
// BMTrain's GPU launchers (1.0.x: adam_{fp16,bf16}, has_nan_inf_{fp16,bf16}, cross_entropy_forward and
// cross_entropy_backward_inplace for fp16/bf16) called with device buffers this process allocates, each
// result checked against our double-precision references under the policy of common/tolerance.h.
#include <string>

#include "bmtrain_installed/bmtrain_peer.h"
#include "common/check_result.h"

namespace gpucheck::kernels::bmtrain {

/// Needs a usable GPU (the caller checks). Launchers the module lacks are recorded as failed checks;
/// a launcher that raises is a failed check with the Python error. Uses the legacy default stream (0),
/// which BMTrain's statically linked runtime and ours share through the device's primary context.
void check_gpu_launchers(NativeModule& module, const std::string& level, CheckCollector& checks);

}  // namespace gpucheck::kernels::bmtrain
