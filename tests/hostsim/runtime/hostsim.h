#pragma once
// hostsim: the project's own execution of its CUDA C++ on the CPU, for tests only (no GPU in CI).
//
// A kernel TU is compiled as host C++ by g++ with cuda_glue.h force-included and with GCC's ThreadSanitizer
// instrumentation (-fsanitize=thread at compile time only): every load and store of the kernel code calls
// a __tsan_* hook, which this runtime implements itself (checker.cpp) instead of linking libtsan. Each
// block's threads run as fibers (fiber.h), switched only at CUDA's sync points (warp collectives, block
// barriers) and, in the random schedule, also at shared-memory accesses. The checker keeps, per 4-byte word
// of shared and global memory, the last writer and readers with the barrier epoch they were at, and
// reports RAW/WAR/WAW between threads with no barrier between them, and any access outside an allocation.
// Every launch runs under each schedule of options() (lockstep, reversed, seeded random) from the same
// memory snapshot; a launch whose results differ between schedules fails.
//
// A failed launch behaves like a GPU fault: the error is sticky (cudaGetLastError, cudaDeviceSynchronize and
// every later call return cudaErrorLaunchFailure), and cudaGetErrorString names what was found. Everything
// found is also printed to stderr as lines starting "hostsim: ".
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace gpucheck::hostsim {

enum class Schedule { kLockstep, kReversed, kRandom };
const char* to_string(Schedule s);

struct Options {
  std::vector<Schedule> schedules{Schedule::kLockstep, Schedule::kReversed, Schedule::kRandom};
  std::uint64_t seed = 1;  // of the random schedule
  bool check = true;       // race and bounds checker
};
/// The process's options: HOSTSIM_SCHEDULES (e.g. "lockstep,reversed,random"), HOSTSIM_SEED.
Options& options();

/// What the runtime found (races, out-of-bounds accesses, sync errors, schedule differences), in order.
const std::vector<std::string>& findings();
/// Forgets the findings and clears the sticky launch error (tests that expect a failure use it).
void reset();

/// Size of the simulated device memory (HOSTSIM_DEVICE_MIB, default 64).
std::size_t device_bytes();

// ---- launch -------------------------------------------------------------------------------------------
void run_kernel(const char* name, dim3 grid, dim3 block, std::size_t dynamic_shared, void (*body)(void*), void* ctx);

/// GK_LAUNCH(kernel, grid, block[, shared, stream])(args...) under hostsim: the arguments are converted to
/// the kernel's parameter types once, like CUDA's parameter buffer, and every thread calls the kernel.
template <class... P>
class Launch {
 public:
  Launch(const char* name, void (*kernel)(P...), dim3 grid, dim3 block, std::size_t shared = 0,
         cudaStream_t = nullptr)
      : name_(name), kernel_(kernel), grid_(grid), block_(block), shared_(shared) {}

  template <class... A>
  void operator()(A&&... args) const {
    static_assert(sizeof...(A) == sizeof...(P), "kernel launched with the wrong number of arguments");
    using Params = std::tuple<std::decay_t<P>...>;
    Params params(std::forward<A>(args)...);
    struct Ctx {
      void (*kernel)(P...);
      Params* params;
    } ctx{kernel_, &params};
    run_kernel(name_, grid_, block_, shared_,
               [](void* c) {
                 auto* x = static_cast<Ctx*>(c);
                 std::apply(x->kernel, *x->params);
               },
               &ctx);
  }

 private:
  const char* name_;
  void (*kernel_)(P...);
  dim3 grid_, block_;
  std::size_t shared_;
};

// ---- what device code calls (through cuda_glue.h) ------------------------------------------------------
namespace detail {

struct ThreadView {  // the first member of every simulated thread: what threadIdx & co. read
  uint3 thread_idx;
  uint3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
};
extern thread_local ThreadView* t_current;  // null outside a kernel

enum class WarpOp : int { kShfl, kShflUp, kShflDown, kShflXor, kBallot, kAny, kAll, kSyncwarp };
enum class BarrierOp : int { kSync, kOr, kAnd, kCount };

std::uint64_t warp_collective(WarpOp op, unsigned mask, std::uint64_t value, unsigned arg, int width);
int block_barrier(BarrierOp op, int predicate);
void* dynamic_shared();
/// Atomics are done by the runtime (not instrumented); it tells the checker itself.
void note_atomic(const void* address, std::size_t bytes);
[[noreturn]] void trap(const char* why);
[[noreturn]] void outside_kernel(const char* what);
inline ThreadView& current(const char* what) {
  if (!t_current) outside_kernel(what);
  return *t_current;
}

}  // namespace detail

}  // namespace gpucheck::hostsim
