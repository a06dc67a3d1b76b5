#include "fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#if !defined(__x86_64__)
#error "hostsim's fiber switch is written for x86-64 (SysV ABI); tests/hostsim/CMakeLists.txt builds it only there"
#endif

extern "C" void gpucheck_hostsim_switch(void** save_sp, void* to_sp);
extern "C" void gpucheck_hostsim_fiber_start();

// save_sp <- rsp after pushing the callee-saved state; rsp <- to_sp; pop the other side's state; ret.
asm(R"(
  .text
  .globl gpucheck_hostsim_switch
  .type gpucheck_hostsim_switch,@function
gpucheck_hostsim_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $16, %rsp
  stmxcsr 8(%rsp)
  fnstcw 12(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr 8(%rsp)
  fldcw 12(%rsp)
  addq $16, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size gpucheck_hostsim_switch, .-gpucheck_hostsim_switch

  .globl gpucheck_hostsim_fiber_start
  .type gpucheck_hostsim_fiber_start,@function
gpucheck_hostsim_fiber_start:
  movq %r13, %rdi
  callq *%r12
  ud2
  .size gpucheck_hostsim_fiber_start, .-gpucheck_hostsim_fiber_start
)");

namespace gpucheck::hostsim {

Fiber::Fiber(std::size_t stack_bytes, Entry entry, void* user) : entry_(entry), user_(user) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  stack_bytes = (stack_bytes + page - 1) / page * page;
  map_bytes_ = stack_bytes + page;
  void* m = mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) {
    std::perror("hostsim: fiber stack mmap");
    std::abort();
  }
  map_ = static_cast<char*>(m);
  mprotect(map_, page, PROT_NONE);  // guard page: a stack overflow faults instead of corrupting memory
  reset();
}

Fiber::~Fiber() { munmap(map_, map_bytes_); }

void Fiber::start(Fiber* self) {
  self->entry_(self);
  std::fputs("hostsim: fiber entry returned\n", stderr);
  std::abort();
}

void Fiber::reset() {
  // Frame popped by the switch: 16 bytes of MXCSR/x87 CW, r15, r14, r13, r12, rbx, rbp, return address.
  // After its `ret` the start stub runs with rsp 16-byte aligned, as a `call` needs.
  auto top = reinterpret_cast<std::uintptr_t>(map_ + map_bytes_) & ~std::uintptr_t{15};
  auto* sp = reinterpret_cast<std::uint64_t*>(top - 88);
  std::uint32_t mxcsr = 0;
  std::uint16_t fpcw = 0;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(fpcw));
  std::uint32_t* ctl = reinterpret_cast<std::uint32_t*>(sp);
  ctl[2] = mxcsr;
  ctl[3] = fpcw;
  sp[2] = 0;                                                 // r15
  sp[3] = 0;                                                 // r14
  sp[4] = reinterpret_cast<std::uint64_t>(this);             // r13: the start stub's argument
  sp[5] = reinterpret_cast<std::uint64_t>(&Fiber::start);    // r12: what it calls
  sp[6] = 0;                                                 // rbx
  sp[7] = 0;                                                 // rbp
  sp[8] = reinterpret_cast<std::uint64_t>(&gpucheck_hostsim_fiber_start);
  sp_ = sp;
}

void Fiber::resume() { gpucheck_hostsim_switch(&caller_sp_, sp_); }

void Fiber::yield_to_caller() { gpucheck_hostsim_switch(&sp_, caller_sp_); }

}  // namespace gpucheck::hostsim
