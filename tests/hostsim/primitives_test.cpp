// The hostsim runtime's primitives against hand-computed results: built-in variables, every warp shuffle
// with masks and widths, votes, __syncwarp, the block barriers with predicates, the "warp 0 reduces, then
// __syncthreads" shape, atomics, static and dynamic shared memory, __half and __nv_bfloat16.
#include "hostsim_test_util.h"

namespace gpucheck::hostsim::test {
namespace {

__global__ void builtins(unsigned* out) {
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned g = b * blockDim.x * blockDim.y * blockDim.z + t;
  out[g] = threadIdx.x | threadIdx.y << 4 | threadIdx.z << 8 | blockIdx.x << 12 | blockIdx.y << 16 | blockIdx.z << 20 |
           blockDim.x << 24 | gridDim.y << 28;
}

TEST_F(Hostsim, BuiltinVariables) {
  const dim3 grid(2, 3, 1), block(4, 2, 2);
  Dev<unsigned> out(2 * 3 * 16);
  GK_LAUNCH(builtins, grid, block)(out.p);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  auto h = out.get();
  // thread (3,1,1) of block (1,2,0): block 1 + 2*2 = 5, thread 3 + 4*(1 + 2*1) = 15, global 5*16 + 15 = 95
  EXPECT_EQ(h[95], 3u | 1u << 4 | 1u << 8 | 1u << 12 | 2u << 16 | 0u << 20 | 4u << 24 | 3u << 28);
  EXPECT_EQ(h[0], 0u | 4u << 24 | 3u << 28);
  for (unsigned i = 0; i < h.size(); ++i) EXPECT_EQ(h[i] >> 24, 4u | 3u << 4) << i;
}

__global__ void shuffles(int* out, int width) {
  const int l = static_cast<int>(threadIdx.x);
  const int v = 100 + l;
  out[0 * 32 + l] = __shfl_sync(0xffffffffu, v, l + 3, width);
  out[1 * 32 + l] = __shfl_up_sync(0xffffffffu, v, 2, width);
  out[2 * 32 + l] = __shfl_down_sync(0xffffffffu, v, 3, width);
  out[3 * 32 + l] = __shfl_xor_sync(0xffffffffu, v, 5, width);
}

TEST_F(Hostsim, ShufflesFullWidth) {
  Dev<int> out(4 * 32);
  GK_LAUNCH(shuffles, 1, 32)(out.p, 32);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  auto h = out.get();
  EXPECT_EQ(h[0 * 32 + 0], 103);
  EXPECT_EQ(h[0 * 32 + 30], 101);  // lane 33 mod 32
  EXPECT_EQ(h[1 * 32 + 0], 100);   // up: lanes below delta keep their own value
  EXPECT_EQ(h[1 * 32 + 1], 101);
  EXPECT_EQ(h[1 * 32 + 2], 100);
  EXPECT_EQ(h[1 * 32 + 31], 129);
  EXPECT_EQ(h[2 * 32 + 28], 131);  // down: 28 + 3
  EXPECT_EQ(h[2 * 32 + 29], 129);  // 29 + 3 = 32 is past the warp: own value
  EXPECT_EQ(h[3 * 32 + 0], 105);
  EXPECT_EQ(h[3 * 32 + 7], 102);
  EXPECT_EQ(h[3 * 32 + 31], 126);
}

TEST_F(Hostsim, ShufflesWithWidth) {
  Dev<int> out(4 * 32);
  GK_LAUNCH(shuffles, 1, 32)(out.p, 8);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  auto h = out.get();
  EXPECT_EQ(h[0 * 32 + 6], 101);   // srcLane 9 within segment [0,8): lane 1
  EXPECT_EQ(h[0 * 32 + 13], 108);  // srcLane 16 mod 8 = 0 of segment [8,16)
  EXPECT_EQ(h[1 * 32 + 9], 109);   // up by 2 from position 1 of its segment: own
  EXPECT_EQ(h[1 * 32 + 10], 108);
  EXPECT_EQ(h[2 * 32 + 4], 107);   // down 3 from position 4 of 8: lane 7
  EXPECT_EQ(h[2 * 32 + 5], 105);   // position 5 + 3 = 8 leaves the segment: own
  EXPECT_EQ(h[3 * 32 + 0], 105);   // xor 5: lane 5 is in the same segment of 8
  EXPECT_EQ(h[3 * 32 + 5], 100);
  EXPECT_EQ(h[3 * 32 + 10], 115);
  Dev<int> out4(4 * 32);
  GK_LAUNCH(shuffles, 1, 32)(out4.p, 4);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  auto h4 = out4.get();
  EXPECT_EQ(h4[3 * 32 + 0], 100);  // xor 5 with width 4: lane 5 is a later group: own value
  EXPECT_EQ(h4[3 * 32 + 4], 101);  // lane 1 is an earlier group: allowed
  EXPECT_EQ(h4[3 * 32 + 6], 103);
}

__global__ void votes(unsigned* out) {
  const unsigned l = threadIdx.x;
  out[0 * 32 + l] = __ballot_sync(0xffffffffu, l % 3 == 0);
  out[1 * 32 + l] = __any_sync(0xffffffffu, l == 17);
  out[2 * 32 + l] = __all_sync(0xffffffffu, l < 31);
  if (l < 16) out[3 * 32 + l] = __ballot_sync(0x0000ffffu, l & 1);  // a half-warp vote
  else out[3 * 32 + l] = __all_sync(0xffff0000u, l >= 16);
}

TEST_F(Hostsim, Votes) {
  Dev<unsigned> out(4 * 32);
  GK_LAUNCH(votes, 1, 32)(out.p);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  auto h = out.get();
  EXPECT_EQ(h[0], 0x49249249u);
  EXPECT_EQ(h[31], 0x49249249u);
  EXPECT_EQ(h[1 * 32 + 3], 1u);
  EXPECT_EQ(h[2 * 32 + 3], 0u);
  EXPECT_EQ(h[3 * 32 + 0], 0x0000aaaau);
  EXPECT_EQ(h[3 * 32 + 20], 1u);
}

__global__ void block_votes(int* out) {
  const int t = static_cast<int>(threadIdx.x);
  const int o = __syncthreads_or(t == 77);
  const int a = __syncthreads_and(t < 100);
  const int c = __syncthreads_count(t % 10 == 0);
  const int a2 = __syncthreads_and(t < 1000);
  if (t == 5) out[0] = o, out[1] = a, out[2] = c, out[3] = a2;
}

TEST_F(Hostsim, BlockBarrierPredicates) {
  Dev<int> out(4);
  GK_LAUNCH(block_votes, 1, 160)(out.p);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  EXPECT_EQ(out.get(), (std::vector<int>{1, 0, 16, 1}));
}

// Warp 0 reduces (every other warp is already waiting at the barrier), then __syncthreads: the shuffles of
// warp 0 must complete while the other warps hold the barrier, and the barrier must wait for warp 0.
__global__ void warp0_reduces(const float* in, float* out) {
  __shared__ float total;
  float v = in[threadIdx.x];
  if (threadIdx.x < 32) {
    for (int i = threadIdx.x + 32; i < static_cast<int>(blockDim.x); i += 32) v += in[i];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) total = v;
  }
  __syncthreads();
  out[threadIdx.x] = total;
}

TEST_F(Hostsim, Warp0ReducesThenSyncthreads) {
  std::vector<float> in(256);
  for (int i = 0; i < 256; ++i) in[i] = static_cast<float>(i);
  Dev<float> din(256, in), out(256);
  GK_LAUNCH(warp0_reduces, 1, 256)(din.p, out.p);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  for (float f : out.get()) EXPECT_EQ(f, 32640.0f);  // 0 + 1 + ... + 255
}

// 48 threads: warp 1 has 16 lanes; it reduces with the mask of the lanes that exist.
__global__ void partial_warp(int* out) {
  const unsigned mask = threadIdx.x < 32 ? 0xffffffffu : 0x0000ffffu;
  int v = static_cast<int>(threadIdx.x);
  const int width = threadIdx.x < 32 ? 32 : 16;
  for (int o = width / 2; o > 0; o >>= 1) v += __shfl_down_sync(mask, v, o, width);
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = v;
}

TEST_F(Hostsim, PartialLastWarp) {
  Dev<int> out(2);
  GK_LAUNCH(partial_warp, 1, 48)(out.p);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  EXPECT_EQ(out.get(), (std::vector<int>{496, 32 * 16 + 120}));  // 0..31; 32..47
}

__global__ void syncwarp_exchange(int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = static_cast<int>(threadIdx.x) * 2;
  __syncwarp();
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}

TEST_F(Hostsim, SyncwarpOrdersSharedMemoryInTheWarp) {
  Dev<int> out(64);
  GK_LAUNCH(syncwarp_exchange, 1, 64)(out.p);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  auto h = out.get();
  EXPECT_EQ(h[0], 2);
  EXPECT_EQ(h[33], 64);
}

__global__ void atomics(unsigned long long* count, int* mx, unsigned* cas_wins, float* fsum) {
  atomicAdd(count, 1ULL);
  atomicMax(mx, static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x));
  if (atomicCAS(cas_wins + 1, 0u, 1u) == 0u) atomicAdd(cas_wins, 1u);
  atomicAdd(fsum, 0.5f);
}

TEST_F(Hostsim, Atomics) {
  Dev<unsigned long long> count(1);
  Dev<int> mx(1, {-5});
  Dev<unsigned> cas(2);
  Dev<float> fsum(1);
  GK_LAUNCH(atomics, 7, 96)(count.p, mx.p, cas.p, fsum.p);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  EXPECT_EQ(count.get()[0], 7u * 96u);
  EXPECT_EQ(mx.get()[0], 7 * 96 - 1);
  EXPECT_EQ(cas.get()[0], 1u);  // exactly one thread won the compare-and-swap
  EXPECT_EQ(fsum.get()[0], 336.0f);
}

// The other atomics, each commutative over the 64 threads (so every schedule ends with the same memory),
// atomicExch from one thread.
__global__ void more_atomics(int* i, unsigned* u) {
  const int t = static_cast<int>(threadIdx.x);
  atomicSub(i + 0, t);
  atomicMin(i + 1, 100 - t);
  atomicAnd(u + 0, ~(1u << (t % 32)) | (t >= 32 ? 0u : 1u << 31));
  atomicOr(u + 1, 1u << (t % 16));
  atomicXor(u + 2, static_cast<unsigned>(t));
  atomicInc(u + 3, 9u);  // 64 increments wrapping after 9: 64 mod 10
  atomicDec(u + 4, 9u);  // from 0: 0 -> 9 -> 8 ... ; 64 decrements: (0 - 64) mod 10 = 6
  if (t == 5) i[2] = atomicExch(i + 3, 77);
}

TEST_F(Hostsim, MoreAtomics) {
  Dev<int> i(4, {1000, 1000, 0, 12});
  Dev<unsigned> u(5, {0xffffffffu, 0u, 0u, 0u, 0u});
  GK_LAUNCH(more_atomics, 1, 64)(i.p, u.p);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  EXPECT_EQ(i.get(), (std::vector<int>{1000 - 2016, 37, 12, 77}));  // 0 + 1 + ... + 63 = 2016
  EXPECT_EQ(u.get(), (std::vector<unsigned>{0u, 0xffffu, 0u, 4u, 6u}));  // xor of 0..63 is 0
}

__global__ void dynamic_reverse(const int* in, int* out) {
  GK_DYNAMIC_SHARED(int, buf);
  buf[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

TEST_F(Hostsim, DynamicSharedMemory) {
  std::vector<int> in(3 * 100);
  for (int i = 0; i < 300; ++i) in[i] = i;
  Dev<int> din(300, in), out(300);
  GK_LAUNCH(dynamic_reverse, 3, 100, 100 * sizeof(int))(din.p, out.p);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  auto h = out.get();
  EXPECT_EQ(h[0], 99);
  EXPECT_EQ(h[199], 100);
  EXPECT_EQ(h[250], 249);
}

__global__ void static_shared_blocks(int* out) {
  __shared__ int s[128];
  s[threadIdx.x] = static_cast<int>(blockIdx.x * 1000 + threadIdx.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}

TEST_F(Hostsim, StaticSharedMemoryPerBlock) {
  Dev<int> out(4 * 128);
  GK_LAUNCH(static_shared_blocks, 4, 128)(out.p);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  auto h = out.get();
  EXPECT_EQ(h[0], 1);
  EXPECT_EQ(h[3 * 128 + 127], 3000);
}

__global__ void halves(const float* in, __half* h_out, __nv_bfloat16* b_out, float* f_out) {
  const unsigned l = threadIdx.x;
  const __half h = __float2half_rn(in[l]);
  h_out[l] = __shfl_xor_sync(0xffffffffu, h, 1);
  b_out[l] = __float2bfloat16_rn(in[l]);
  f_out[l] = __half2float(__hadd(h, h));
}

TEST_F(Hostsim, HalfAndBfloat16FromTheToolkitHeaders) {
  std::vector<float> in(32);
  for (int i = 0; i < 32; ++i) in[i] = 1.0f + static_cast<float>(i) / 1024.0f;
  in[3] = 65520.0f;  // rounds to +inf in fp16
  in[4] = 1.00390625f;  // 1 + 2^-8: bf16 ties to even -> 1.0
  Dev<float> din(32, in), f(32);
  Dev<__half> h(32);
  Dev<__nv_bfloat16> b(32);
  GK_LAUNCH(halves, 1, 32)(din.p, h.p, b.p, f.p);
  ASSERT_EQ(sync(), cudaSuccess) << all_findings();
  auto hh = h.get();
  auto bb = b.get();
  auto ff = f.get();
  EXPECT_EQ(__half_as_ushort(hh[2]), 0x7c00u);  // lane 2 got lane 3's +inf
  EXPECT_EQ(__half_as_ushort(hh[0]), 0x3c01u);  // lane 0 got lane 1: 1 + 1/1024
  EXPECT_EQ(__bfloat16_as_ushort(bb[4]), 0x3f80u);
  EXPECT_EQ(ff[1], 2.0f + 2.0f / 1024.0f);
}

}  // namespace
}  // namespace gpucheck::hostsim::test
