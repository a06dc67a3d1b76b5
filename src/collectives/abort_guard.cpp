#include "collectives/abort_guard.h"

#include "collectives/transport.h"

namespace gpucheck::collectives {

void AbortGuard::abort() {
  if (aborted_) return;
  aborted_ = true;  // before the call: an abort that throws must not be retried from a destructor
  if (abort_all_) abort_all_();
}

void AbortGuard::timeout(const std::string& what) {
  abort();
  throw CollectiveTimeout(what);
}

void AbortGuard::error(const std::string& what) {
  abort();
  throw TransportError(what);
}

void AbortGuard::release(const std::function<void()>& free_fn) {
  if (aborted_) {
    ++leaked_;
    return;
  }
  free_fn();
}

}  // namespace gpucheck::collectives
