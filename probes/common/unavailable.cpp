// Stand-in for a probe whose dependencies this build lacks (no nvcc, no NCCL, no LibTorch, no MPI): it
// reports `skip` with the reason instead of silently disappearing from the suite. Its id and title are the
// real probe's, from that probe's probe.json (gpucheck_add_unavailable_probe in probes/CMakeLists.txt).
#include <string>

#include "probe/probe.h"

int main(int argc, char** argv) {
  return gpucheck::probe::run(argc, argv, [](const gpucheck::probe::Context&, gpucheck::Finding& r) {
    gpucheck::probe::skip(r, GPUCHECK_UNAVAILABLE_REASON);
  });
}
