#include "core/interrupt.h"

#include <signal.h>

#include <atomic>
#include <initializer_list>

namespace gpucheck {
namespace {

std::atomic<int> g_signal{0};
std::atomic<int> g_count{0};
constexpr int kSlots = 64;
std::atomic<pid_t> g_groups[kSlots];  // 0: free; lock-free atomics are async-signal-safe

void kill_child_groups() {
  for (auto& g : g_groups)
    if (pid_t p = g.load(); p > 0) kill(-p, SIGKILL);
}

extern "C" void record_interrupt(int sig) {
  const int n = g_count.fetch_add(1) + 1;
  if (n == 1) {
    g_signal.store(sig);
    return;  // run_subprocess sees the flag and stops its child (TERM, then KILL after the grace period)
  }
  kill_child_groups();  // asked again: no more grace for the children; the report is still written
  if (n >= 3) {  // asked a third time: out now, the default way
    signal(sig, SIG_DFL);
    raise(sig);
  }
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

int interrupt_count() { return g_count.load(); }

void clear_interrupt() {
  g_signal.store(0);
  g_count.store(0);
}

void register_child_group(pid_t group) {
  for (auto& g : g_groups) {
    pid_t expected = 0;
    if (g.compare_exchange_strong(expected, group)) return;
  }
}

void unregister_child_group(pid_t group) {
  for (auto& g : g_groups) {
    pid_t expected = group;
    if (g.compare_exchange_strong(expected, 0)) return;
  }
}

}  // namespace gpucheck
