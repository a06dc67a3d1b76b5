#pragma once
// What the shared collectives logic needs from a transport (NCCL on GPUs, MPI on host memory, or the
// in-process LocalTransport of the tests). A process drives one or more "local ranks" (one per GPU in the
// single-process NCCL mode); buffers are opaque pointers the transport allocated (device or host memory).
#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "collectives/dtype.h"

namespace gpucheck::collectives {

struct RankInfo {
  int rank = 0;
  std::string host;    // hostname
  std::string device;  // "GPU 0: NVIDIA H200 (0000:19:00.0)", or "host memory"
};

/// One collective call of one local rank; for in-place calls send and recv alias as in NCCL
/// (all-gather: send = recv + rank*count; reduce-scatter: recv = send + rank*count; others: send == recv).
struct CallBuffers {
  const void* send = nullptr;
  void* recv = nullptr;
};

struct Collective {
  CollOp op = CollOp::kAllReduce;
  RedOp redop = RedOp::kSum;
  DType dtype = DType::kF32;
  std::size_t count = 0;  // as CaseSpec::count
  int root = 0;
  std::vector<CallBuffers> local;  // one per local rank, in local_ranks() order
};

/// A collective did not complete within the watchdog deadline.
struct CollectiveTimeout : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// The transport reported an error (NCCL/MPI/CUDA error text).
struct TransportError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Transport {
 public:
  virtual ~Transport() = default;
  virtual std::string name() const = 0;
  virtual int world() const = 0;
  virtual int local_count() const = 0;
  virtual RankInfo info(int local) const = 0;
  virtual bool is_root_process() const = 0;

  virtual void* alloc(int local, std::size_t bytes) = 0;
  virtual void release(int local, void* p) = 0;
  virtual void upload(int local, void* dst, const void* host_src, std::size_t bytes) = 0;
  virtual void download(int local, void* host_dst, const void* src, std::size_t bytes) = 0;

  /// Runs the group `iterations` times back to back (several collectives = one group call) and waits for
  /// completion; returns host wall seconds for all iterations. Throws CollectiveTimeout past `timeout_s`
  /// and TransportError on an error.
  virtual double run(const std::vector<Collective>& group, int iterations, double timeout_s) = 0;

  /// The baseline a collective on one rank is judged against (nothing crosses a bus, so busbw is 0): a
  /// device-to-device copy of `bytes` on the local rank's device, `iterations` back to back on the stream
  /// the collectives use, timed as run() is. nullopt where the transport has no such copy (host memory).
  virtual std::optional<double> copy_seconds(int local, std::size_t bytes, int iterations, double timeout_s) {
    (void)local, (void)bytes, (void)iterations, (void)timeout_s;
    return std::nullopt;
  }

  /// Host-side bookkeeping across processes (no-ops in a single process).
  virtual double sum_over_processes(double v) = 0;
  /// The root process receives every process's string (in process order); others get an empty list.
  virtual std::vector<std::string> gather_to_root(const std::string& s) = 0;
  /// Every process receives every process's string (pairs mode: which node each rank is on).
  virtual std::vector<std::string> all_gather_strings(const std::string& s) = 0;

  /// A transport over the processes with the same color (pairs mode), or nullptr for color < 0.
  /// Throws TransportError where the transport cannot split.
  virtual std::unique_ptr<Transport> split(int color, int key) = 0;
  /// Gives up on pending work after a timeout (ncclCommAbort; a no-op for MPI, which cannot cancel a
  /// collective: the probe then ends the job with MPI_Abort).
  virtual void abort() = 0;
};

}  // namespace gpucheck::collectives
