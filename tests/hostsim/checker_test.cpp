// The race and bounds checker: each hazard class is reported (and fails the launch), each correct pattern
// next to it is clean.
#include "hostsim_test_util.h"

namespace gpucheck::hostsim::test {
namespace {

__global__ void broadcast(int* out, bool barrier) {
  __shared__ int s;
  if (threadIdx.x == 0) s = 42;
  if (barrier) __syncthreads();
  out[threadIdx.x] = s;
}

TEST_F(Hostsim, ReadAfterWriteWithoutBarrier) {
  Dev<int> out(64);
  GK_LAUNCH(broadcast, 1, 64)(out.p, true);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  GK_LAUNCH(broadcast, 1, 64)(out.p, false);
  EXPECT_EQ(sync(), cudaErrorLaunchFailure);
  EXPECT_FOUND(all_findings(), "race: read-after-write on shared memory");
  EXPECT_FOUND(std::string(cudaGetErrorString(cudaErrorLaunchFailure)), "hostsim: race: read-after-write");
}

// Reads the right neighbour, then overwrites its own slot: a write-after-read race unless a barrier
// separates the read from the write. The lockstep schedule gives the right answer anyway.
__global__ void shift_left(int* out, bool barrier) {
  __shared__ int s[128];
  s[threadIdx.x] = static_cast<int>(threadIdx.x);
  __syncthreads();
  const int right = s[(threadIdx.x + 1) % blockDim.x];
  if (barrier) __syncthreads();
  s[threadIdx.x] = right;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

TEST_F(Hostsim, WriteAfterReadWithoutBarrier) {
  Dev<int> out(128);
  GK_LAUNCH(shift_left, 1, 128)(out.p, true);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  EXPECT_EQ(out.get()[127], 0);
  options().schedules = {Schedule::kLockstep};  // the race is found without running another schedule
  GK_LAUNCH(shift_left, 1, 128)(out.p, false);
  EXPECT_EQ(sync(), cudaErrorLaunchFailure);
  EXPECT_FOUND(all_findings(), "race: write-after-read on shared memory");
}

__global__ void same_word_from_blocks(int* out) {
  if (threadIdx.x == 0) out[0] = static_cast<int>(blockIdx.x);
}

TEST_F(Hostsim, WriteAfterWriteBetweenBlocks) {
  Dev<int> out(1);
  GK_LAUNCH(same_word_from_blocks, 2, 32)(out.p);
  EXPECT_EQ(sync(), cudaErrorLaunchFailure);
  EXPECT_FOUND(all_findings(), "race: write-after-write on device allocation");
  EXPECT_FOUND(all_findings(), "of block (1,0,0)");
}

__global__ void neighbours_16bit(std::uint16_t* out) { out[threadIdx.x] = static_cast<std::uint16_t>(threadIdx.x); }

TEST_F(Hostsim, DistinctBytesOfOneWordDoNotRace) {
  Dev<std::uint16_t> out(64);
  GK_LAUNCH(neighbours_16bit, 1, 64)(out.p);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  EXPECT_EQ(out.get()[63], 63);
}

__global__ void warp_exchange(int* out, bool syncwarp) {
  __shared__ int s[32];
  s[threadIdx.x] = static_cast<int>(threadIdx.x);
  if (syncwarp) __syncwarp();
  out[threadIdx.x] = s[31 - threadIdx.x];
}

TEST_F(Hostsim, SyncwarpIsABarrierForItsLanesOnly) {
  Dev<int> out(32);
  GK_LAUNCH(warp_exchange, 1, 32)(out.p, true);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  GK_LAUNCH(warp_exchange, 1, 32)(out.p, false);
  EXPECT_EQ(sync(), cudaErrorLaunchFailure);
  EXPECT_FOUND(all_findings(), "race: read-after-write on shared memory");
}

__global__ void counter(int* c, bool atomic) {
  if (atomic) atomicAdd(c, 1);
  else c[0] += 1;
}

TEST_F(Hostsim, AtomicsDoNotRaceWithAtomics) {
  Dev<int> c(1);
  GK_LAUNCH(counter, 2, 64)(c.p, true);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  EXPECT_EQ(c.get()[0], 128);
  GK_LAUNCH(counter, 2, 64)(c.p, false);
  EXPECT_EQ(sync(), cudaErrorLaunchFailure);
  EXPECT_FOUND(all_findings(), "race: read-after-write");
}

__global__ void read_n(const float* in, float* out, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += in[i];
  out[threadIdx.x] = s;
}

TEST_F(Hostsim, OutOfBoundsGlobalRead) {
  Dev<float> in(10, std::vector<float>(10, 1.0f)), out(1);
  GK_LAUNCH(read_n, 1, 1)(in.p, out.p, 10);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  EXPECT_EQ(out.get()[0], 10.0f);
  GK_LAUNCH(read_n, 1, 1)(in.p, out.p, 11);
  EXPECT_EQ(sync(), cudaErrorLaunchFailure);
  EXPECT_FOUND(all_findings(), "out-of-bounds global read of 4 bytes at 0 bytes past the end of device allocation");
}

__global__ void dynamic_overrun(int* out, int n) {
  GK_DYNAMIC_SHARED(int, buf);
  buf[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0) out[0] = buf[n];
}

TEST_F(Hostsim, OutOfBoundsDynamicShared) {
  Dev<int> out(1);
  GK_LAUNCH(dynamic_overrun, 1, 32, 32 * sizeof(int))(out.p, 31);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  GK_LAUNCH(dynamic_overrun, 1, 32, 32 * sizeof(int))(out.p, 32);
  EXPECT_EQ(sync(), cudaErrorLaunchFailure);
  EXPECT_FOUND(all_findings(), "out-of-bounds shared read of 4 bytes at dynamic shared offset 128");
}

__global__ void vector_copy(const std::uint32_t* in, std::uint32_t* out, int offset) {
  const uint4 v = *reinterpret_cast<const uint4*>(in + offset + 4 * threadIdx.x);
  *reinterpret_cast<uint4*>(out + 4 * threadIdx.x) = v;
}

TEST_F(Hostsim, Misaligned16ByteAccess) {
  Dev<std::uint32_t> in(4 * 33), out(4 * 32);
  GK_LAUNCH(vector_copy, 1, 32)(in.p, out.p, 0);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  GK_LAUNCH(vector_copy, 1, 32)(in.p, out.p, 1);
  EXPECT_EQ(sync(), cudaErrorLaunchFailure);
  EXPECT_FOUND(all_findings(), "misaligned 16-byte load at device allocation #1 (528 bytes) + 4");
}

// Sync errors: a mask without the caller, a lane read that is not in the mask, a width that is not a power
// of two, a warp collective some lanes never reach because they wait at __syncthreads.
__global__ void bad_sync(int* out, int which) {
  int v = static_cast<int>(threadIdx.x);
  if (which == 0) v = __shfl_down_sync(0x0000ffffu, v, 16);        // lanes 16.. call with a mask without them
  if (which == 1 && threadIdx.x < 16) v = __shfl_down_sync(0x0000ffffu, v, 8);  // lanes 8..15 read 16..23
  if (which == 2) v = __shfl_sync(0xffffffffu, v, 0, 3);
  if (which == 3) {
    if (threadIdx.x < 16) v = __shfl_sync(0xffffffffu, v, 0);
    __syncthreads();
  }
  out[threadIdx.x] = v;
}

TEST_F(Hostsim, WarpCollectiveMisuse) {
  Dev<int> out(64);
  const char* want[] = {"which excludes itself", "reads lane 16, which is not in the mask", "with width 3",
                        "deadlock in kernel bad_sync"};
  for (int which = 0; which < 4; ++which) {
    reset();
    GK_LAUNCH(bad_sync, 1, 64)(out.p, which);
    EXPECT_EQ(sync(), cudaErrorLaunchFailure) << which;
    SCOPED_TRACE(which);
    EXPECT_FOUND(all_findings(), want[which]);
  }
}

__global__ void barrier_kinds(int* out) {
  if (threadIdx.x < 32) out[0] = __syncthreads_or(1);
  else __syncthreads();
}

TEST_F(Hostsim, OneBarrierInstanceOfTwoKinds) {
  Dev<int> out(1);
  GK_LAUNCH(barrier_kinds, 1, 64)(out.p);
  EXPECT_EQ(sync(), cudaErrorLaunchFailure);
  EXPECT_FOUND(all_findings(), "one barrier instance, two kinds");
}

TEST_F(Hostsim, LaunchConfigurationErrorsAreNotSticky) {
  Dev<int> out(1);
  GK_LAUNCH(barrier_kinds, 1, 2048)(out.p);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

}  // namespace
}  // namespace gpucheck::hostsim::test
