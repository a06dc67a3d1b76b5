// A probe that hangs in a named phase, for gpucheck selftest: it reports the phases a collective probe
// goes through (probe::phase()) and then blocks forever in the last one, like an NCCL call waiting for a
// peer that never comes. The runner must kill it at its timeout and name "ncclAllReduce 1 GiB, step 12".
// With --no-hang it returns pass after the same phases (the clean run of the kernel-log rule).
#include <unistd.h>

#include "probe/probe.h"

int main(int argc, char** argv) {
  using namespace gpucheck;
  return probe::run_as(argc, argv, "selftest.hang", "a probe that hangs in a named phase",
                       [](const probe::Context& ctx, Finding& r) {
                         probe::phase("cudaMalloc 1 GiB on GPU 0", {0});
                         probe::phase("cudaMalloc 1 GiB on GPU 1", {1});
                         probe::phase("ncclCommInitAll on GPUs 0,1,2,3", {0, 1, 2, 3}, {0, 1, 2, 3});
                         probe::phase("ncclAllReduce 1 GiB, step 12", {0, 1, 2, 3}, {0, 1, 2, 3});
                         if (ctx.flag("--no-hang")) {
                           r.status = Status::kPass;
                           r.summary = "every phase finished";
                           return;
                         }
                         for (;;) pause();  // until the runner's SIGTERM
                       });
}
