#pragma once
// Fibers for the simulated threads: a stack each (with a guard page) and a switch that saves only what the
// SysV x86-64 ABI says a callee keeps (rbx, rbp, r12-r15, rsp, MXCSR, x87 control word), so a switch costs
// a few nanoseconds; ucontext's swapcontext makes a sigprocmask system call on every switch.
#include <cstddef>

namespace gpucheck::hostsim {

class Fiber {
 public:
  using Entry = void (*)(Fiber*);
  Fiber(std::size_t stack_bytes, Entry entry, void* user);
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  /// Runs this fiber from the caller's context until it switches back with yield_to_caller().
  void resume();
  /// Called on the fiber: back to whoever called resume().
  void yield_to_caller();
  /// Starts the entry function again on the next resume() (the old frames are abandoned: kernel code holds
  /// no resources, so an aborted block's fibers are simply reset).
  void reset();
  void* user() const { return user_; }

 private:
  void* sp_ = nullptr;         // the fiber's saved stack pointer while it is not running
  void* caller_sp_ = nullptr;  // the resumer's, while the fiber runs
  char* map_ = nullptr;
  std::size_t map_bytes_ = 0;
  Entry entry_;
  void* user_;
  static void start(Fiber* self);
};

}  // namespace gpucheck::hostsim
