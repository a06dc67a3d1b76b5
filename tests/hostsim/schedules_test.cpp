// Schedules: every launch runs under lockstep, reversed and seeded random schedules from the same memory;
// a launch whose results differ between them fails, and the failure is sticky like a GPU fault.
#include "hostsim_test_util.h"

namespace gpucheck::hostsim::test {
namespace {

// Which thread takes ticket 0 depends on the order threads run: atomics keep the checker quiet, the
// schedule comparison does not.
__global__ void tickets(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = atomicAdd(out + 256, 1); }

TEST_F(Hostsim, ResultsThatDependOnTheScheduleFail) {
  Dev<int> out(257);
  options().schedules = {Schedule::kLockstep};
  GK_LAUNCH(tickets, 2, 128)(out.p);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  EXPECT_EQ(out.get()[0], 0);  // lockstep: thread 0 of block 0 first
  options().schedules = {Schedule::kReversed};
  GK_LAUNCH(tickets, 2, 128)(out.p);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  EXPECT_EQ(out.get()[255], 256);  // reversed: the last thread of the last block first (counter was 256)
  options().schedules = {Schedule::kLockstep, Schedule::kReversed, Schedule::kRandom};
  GK_LAUNCH(tickets, 2, 128)(out.p);
  EXPECT_EQ(sync(), cudaErrorLaunchFailure);
  EXPECT_FOUND(all_findings(), "results of kernel tickets differ between schedules");
  EXPECT_FOUND(all_findings(), "under lockstep");
  // Sticky: everything after it fails, as after a GPU fault.
  int h = 0;
  EXPECT_EQ(cudaMemcpy(&h, out.p, sizeof h, cudaMemcpyDeviceToHost), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
  reset();
  EXPECT_EQ(cudaMemcpy(&h, out.p, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
}

__global__ void uninitialized_shared(int* out) {
  __shared__ int s[64];
  if (threadIdx.x >= blockDim.x) s[0] = 1;  // never runs; keeps g++ from folding a never-written static to 0
  out[threadIdx.x] = s[threadIdx.x];
}

TEST_F(Hostsim, ReadingSharedMemoryNobodyWroteIsReported) {
  Dev<int> out(64);
  GK_LAUNCH(uninitialized_shared, 1, 64)(out.p);
  EXPECT_EQ(sync(), cudaErrorLaunchFailure);
  EXPECT_FOUND(all_findings(), "read of uninitialized shared memory");
}

__global__ void uninitialized_dynamic_shared(int* out) {
  GK_DYNAMIC_SHARED(int, s);
  out[threadIdx.x] = s[threadIdx.x];
}

// With the checker off, the schedules still see it: each fills shared memory with its own garbage.
TEST_F(Hostsim, ReadingDynamicSharedMemoryNobodyWroteDiffersBetweenSchedules) {
  Dev<int> out(64);
  options().check = false;
  GK_LAUNCH(uninitialized_dynamic_shared, 1, 64, 64 * sizeof(int))(out.p);
  EXPECT_EQ(sync(), cudaErrorLaunchFailure);
  EXPECT_FOUND(all_findings(), "differ between schedules");
}

// Deterministic block-wide work with barriers and shuffles: the same bits under every schedule and seed.
__global__ void block_scan(const int* in, int* out) {
  __shared__ int warp_sums[8];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (unsigned o = 1; o < 32; o <<= 1) {
    const int u = __shfl_up_sync(0xffffffffu, v, o);
    if (lane >= o) v += u;
  }
  if (lane == 31) warp_sums[warp] = v;
  __syncthreads();
  int before = 0;
  for (unsigned w = 0; w < warp; ++w) before += warp_sums[w];
  out[blockIdx.x * blockDim.x + threadIdx.x] = v + before;
}

TEST_F(Hostsim, DeterministicKernelIsCleanUnderEverySchedule) {
  std::vector<int> in(4 * 256);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i % 7);
  for (std::uint64_t seed : {1u, 2u, 99u}) {
    options().seed = seed;
    Dev<int> din(in.size(), in), out(in.size());
    GK_LAUNCH(block_scan, 4, 256)(din.p, out.p);
    ASSERT_EQ(sync(), cudaSuccess) << all_findings();
    auto h = out.get();
    for (int b = 0; b < 4; ++b) {
      int run = 0;
      for (int t = 0; t < 256; ++t) {
        run += in[b * 256 + t];
        ASSERT_EQ(h[b * 256 + t], run) << "block " << b << " thread " << t << " seed " << seed;
      }
    }
  }
}

}  // namespace
}  // namespace gpucheck::hostsim::test
