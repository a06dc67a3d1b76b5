#pragma once
// The runtime's internal state shared by the executor (executor.cpp), the checker (checker.cpp) and the
// CUDA runtime API (cudart.cpp). One OS thread simulates at a time; fibers never run concurrently.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "fiber.h"
#include "hostsim.h"

namespace gpucheck::hostsim::internal {

enum class ThreadState : std::uint8_t { kNotStarted, kRunnable, kAtBarrier, kAtWarpOp, kDone };

struct SimThread {
  detail::ThreadView view;  // first member: t_current points at it
  unsigned linear = 0;      // within the block
  unsigned warp = 0, lane = 0;
  std::uint32_t global_id = 0;  // block linear * threads per block + linear
  ThreadState state = ThreadState::kNotStarted;
  Fiber* fiber = nullptr;
  int barrier_result = 0;
  std::uint64_t warp_value = 0, warp_result = 0;
  unsigned warp_arg = 0;
  std::uint8_t warp_epoch = 0;  // bumped by each __syncwarp this lane completes (checker ordering)
};

struct PendingWarpOp {
  detail::WarpOp op;
  unsigned mask = 0, arrived = 0;
  int width = 32;
};

struct SimWarp {
  unsigned size = 32;  // lanes that exist (the last warp of a block may be partial)
  std::vector<PendingWarpOp> pending;
  std::uint8_t epoch = 0;
  unsigned exited = 0;  // lanes that have exited
};

struct BlockRun {
  uint3 idx{};
  unsigned linear = 0;
  std::vector<SimThread> threads;
  std::vector<SimWarp> warps;
  unsigned at_barrier = 0;
  unsigned live = 0;  // threads not yet exited
  detail::BarrierOp barrier_op = detail::BarrierOp::kSync;
  int barrier_acc = 0;
  std::uint32_t epoch = 0;  // completed __syncthreads of this block (checker ordering)
  bool aborted = false;
};

struct LaunchRun {
  const char* kernel = "";
  dim3 grid{}, block{};
  unsigned threads_per_block = 0;
  Schedule schedule = Schedule::kLockstep;
  std::mt19937_64 rng;
  BlockRun* block_run = nullptr;
  std::size_t dynamic_shared = 0;
};

extern LaunchRun* g_launch;  // non-null while a kernel runs

/// Records a finding ("hostsim: ..." on stderr, kept for findings()) and marks the launch failed.
void report(const std::string& what);
/// The current thread (inside a kernel).
inline SimThread& me() { return *reinterpret_cast<SimThread*>(detail::t_current); }
/// Random schedule only: maybe let another thread run now (called at shared-memory accesses).
void maybe_preempt();
/// Suspends the current simulated thread until the scheduler resumes it.
void suspend();
/// Ends the current block like a GPU fault: the calling thread never runs again.
[[noreturn]] void abort_current_block();

// ---- checker (checker.cpp) ----
void checker_begin_launch();
void checker_begin_block(std::uint8_t poison);
std::string describe_address(std::uintptr_t a);
/// A typed 16-byte access: reported when not 16-byte aligned, then checked like any other.
void check_aligned16(const void* p, bool write);

// ---- device memory (cudart.cpp / checker.cpp) ----
struct Allocation {
  std::uintptr_t base = 0;
  std::size_t bytes = 0;
  bool live = false;
};
struct DeviceHeap {
  std::uintptr_t base = 0;     // arena start (reserved, MAP_NORESERVE)
  std::size_t reserved = 0;
  std::size_t top = 0;         // bump pointer (bytes from base)
  std::size_t used = 0;        // live bytes
  std::vector<Allocation> allocations;  // id = index + 1
  std::vector<std::uint32_t> granule_owner;  // per 256-byte granule: allocation id or 0
};
DeviceHeap& heap();
inline constexpr std::size_t kGranule = 256;
inline constexpr std::size_t kRedzone = 512;
/// Allocation id holding [a, a + n) completely, or 0.
std::uint32_t allocation_of(std::uintptr_t a, std::size_t n);
/// The last launch failure's text (cudaGetErrorString(cudaErrorLaunchFailure)).
extern std::string g_failure;
/// A non-sticky error for the next cudaGetLastError (a launch with a bad configuration).
void set_last_error(cudaError_t e);
/// Start of the launch's dynamic shared memory (16-byte aligned, followed by a redzone).
void* dynamic_shared_base();
extern bool g_sticky;

}  // namespace gpucheck::hostsim::internal
