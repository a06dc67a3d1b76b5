#pragma once
// The order a device transport must keep when its watchdog fires or an init fails. A hung NCCL kernel keeps
// spinning: cudaFree, cudaStreamDestroy's implicit waits, ncclCommFinalize/Destroy and MPI collectives all
// block behind it, so the communicators are aborted FIRST (ncclCommAbort is the one call that ends the
// kernel), then the error is thrown, and once aborted no device memory is ever freed (the process exits
// soon; the driver reclaims it). A host test drives this through the real harness with a stub transport.
#include <cstddef>
#include <functional>
#include <string>

namespace gpucheck::collectives {

class AbortGuard {
 public:
  /// `abort_all` aborts every communicator (called at most once).
  explicit AbortGuard(std::function<void()> abort_all) : abort_all_(std::move(abort_all)) {}

  /// Aborts (once) and throws CollectiveTimeout(what).
  [[noreturn]] void timeout(const std::string& what);
  /// Aborts (once) and throws TransportError(what).
  [[noreturn]] void error(const std::string& what);
  /// Aborts once; later calls do nothing.
  void abort();
  bool aborted() const { return aborted_; }

  /// Runs `free_fn` unless aborted; after an abort the buffer is left to the process exit (counted).
  void release(const std::function<void()>& free_fn);
  std::size_t leaked() const { return leaked_; }

 private:
  std::function<void()> abort_all_;
  bool aborted_ = false;
  std::size_t leaked_ = 0;
};

}  // namespace gpucheck::collectives
