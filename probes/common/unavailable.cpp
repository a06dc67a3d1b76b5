// Stand-in for a probe whose dependencies this build lacks (no nvcc, no NCCL, no LibTorch, no MPI): it
// reports `skip` with the reason instead of silently disappearing from the suite.
#include <string>

#include "probe/probe.h"

int main(int argc, char** argv) {
  return gpucheck::probe::run(argc, argv, GPUCHECK_PROBE_ID, GPUCHECK_PROBE_ID,
                              [](const gpucheck::probe::Context&, gpucheck::Finding& r) {
                                gpucheck::probe::skip(r, GPUCHECK_UNAVAILABLE_REASON);
                              });
}
