#pragma once
// The host path: the same collectives on host memory over Open MPI (MPI_Iallgather, MPI_Iallreduce,
// MPI_Ibcast: the non-blocking forms of MPI_Allgather & co., so the watchdog can stop waiting; reduce-scatter
// is our own pipelined ring of non-blocking sends and receives, mpi_ring_reduce_scatter.h). fp16/bf16 reductions use user-defined MPI operations that round after
// every step, as a GPU kernel does; avg pre-multiplies by 1/W like NCCL.
#include <mpi.h>

#include "collectives/transport.h"

namespace gpucheck::collectives {

class MpiTransport : public Transport {
 public:
  /// Takes a duplicate of `comm`; MPI must be initialised.
  explicit MpiTransport(MPI_Comm comm);
  ~MpiTransport() override;
  std::string name() const override { return "mpi"; }
  int world() const override { return size_; }
  int local_count() const override { return 1; }
  RankInfo info(int) const override { return info_; }
  bool is_root_process() const override { return rank_ == 0; }
  void* alloc(int local, std::size_t bytes) override;
  void release(int local, void* p) override;
  void upload(int local, void* dst, const void* host_src, std::size_t bytes) override;
  void download(int local, void* host_dst, const void* src, std::size_t bytes) override;
  double run(const std::vector<Collective>& group, int iterations, double timeout_s) override;
  double sum_over_processes(double v) override;
  std::vector<std::string> gather_to_root(const std::string& s) override;
  std::vector<std::string> all_gather_strings(const std::string& s) override;
  std::unique_ptr<Transport> split(int color, int key) override;
  void abort() override;

  MPI_Comm comm() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  int tag_ub_ = 32767;  // MPI guarantees at least this; the communicator's MPI_TAG_UB when it says more
  RankInfo info_;
};

/// Hostname as MPI sees it (MPI_Get_processor_name).
std::string mpi_hostname();
/// Gathers a string from every process of `comm` to its rank 0 (empty list elsewhere).
std::vector<std::string> mpi_gather_strings(MPI_Comm comm, const std::string& s);
/// Every process of `comm` receives every process's string.
std::vector<std::string> mpi_all_gather_strings(MPI_Comm comm, const std::string& s);

}  // namespace gpucheck::collectives
