#include "core/interrupt.h"

#include <signal.h>

#include <atomic>
#include <initializer_list>

namespace gpucheck {
namespace {

std::atomic<int> g_signal{0};

extern "C" void record_interrupt(int sig) {
  if (g_signal.load() == sig) {  // asked twice: stop now
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  g_signal.store(sig);
}

}  // namespace

void catch_interrupts() {
  struct sigaction sa {};
  sa.sa_handler = record_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: poll() returns EINTR and the loop sees the flag
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
}

int interrupt_signal() { return g_signal.load(); }

void clear_interrupt() { g_signal.store(0); }

}  // namespace gpucheck
