#pragma once
// NCCL on GPUs. Two shapes: one process driving every local GPU (communicators created in one
// ncclGroupStart/End, which is what ncclCommInitAll does, but with a non-blocking config), or one process
// per GPU under mpirun/srun (rank 0's ncclUniqueId broadcast over MPI, local rank from the shared-memory
// split picks the GPU). Communicators are non-blocking so a watchdog can abort a hang (ncclCommAbort);
// errors carry ncclGetLastError's text.
#include <cuda_runtime.h>
#include <nccl.h>

#include <stdexcept>

#include "collectives/abort_guard.h"
#include "collectives/transport.h"

#ifdef GPUCHECK_COLL_HAVE_MPI
#include <mpi.h>
#endif

namespace gpucheck::collectives {

/// This machine cannot run NCCL collectives (no driver, no GPU): the probe reports skip with this text.
struct NcclUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// "cudaErrorNoDevice (100): no CUDA-capable device is detected"
std::string cuda_error_text(cudaError_t e);
/// "2.28.9" from ncclGetVersion.
std::string nccl_version_text();
/// The NCCL library this process really loaded (the file that defines ncclGetVersion) and its version
/// against the header the probe was built with: what a wheel-installed NCCL changes.
struct NcclLoaded {
  std::string path;            // "/venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2"
  std::string version;         // ncclGetVersion
  std::string header_version;  // NCCL_VERSION_CODE at build time
};
NcclLoaded nccl_loaded();

class NcclTransport : public Transport {
 public:
  /// Every visible GPU of this process. Throws NcclUnavailable when CUDA reports no usable device.
  static std::unique_ptr<NcclTransport> create_single_process(double timeout_s);
#ifdef GPUCHECK_COLL_HAVE_MPI
  /// One GPU per MPI process of `comm`.
  static std::unique_ptr<NcclTransport> create_per_process(MPI_Comm comm, double timeout_s);
#endif
  ~NcclTransport() override;

  std::string name() const override { return "nccl"; }
  int world() const override { return world_; }
  int local_count() const override { return static_cast<int>(comms_.size()); }
  RankInfo info(int local) const override { return infos_.at(static_cast<std::size_t>(local)); }
  bool is_root_process() const override;
  void* alloc(int local, std::size_t bytes) override;
  void release(int local, void* p) override;
  void upload(int local, void* dst, const void* host_src, std::size_t bytes) override;
  void download(int local, void* host_dst, const void* src, std::size_t bytes) override;
  double run(const std::vector<Collective>& group, int iterations, double timeout_s) override;
  std::optional<double> copy_seconds(int local, std::size_t bytes, int iterations, double timeout_s) override;
  double sum_over_processes(double v) override;
  std::vector<std::string> gather_to_root(const std::string& s) override;
  std::vector<std::string> all_gather_strings(const std::string& s) override;
  std::unique_ptr<Transport> split(int color, int key) override;
  void abort() override;

 private:
  NcclTransport() = default;
  void wait_ready(double timeout_s, const std::string& what);
  void finish_setup();

  int world_ = 1;
  std::vector<int> devices_;
  std::vector<ncclComm_t> comms_;
  std::vector<cudaStream_t> streams_;
  std::vector<RankInfo> infos_;
  // Every timeout and error path aborts the communicators through this before it throws, and after an
  // abort no cudaFree/cudaStreamDestroy/finalize runs (they would wait for the hung kernel).
  AbortGuard guard_{[this] {
    for (auto c : comms_)
      if (c) ncclCommAbort(c);
  }};
#ifdef GPUCHECK_COLL_HAVE_MPI
  MPI_Comm mpi_ = MPI_COMM_NULL;  // set in the one-process-per-GPU shape
#endif
};

}  // namespace gpucheck::collectives
