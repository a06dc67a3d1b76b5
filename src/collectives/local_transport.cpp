#include "collectives/local_transport.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "collectives/host_reduce.h"
#include "core/errors.h"

namespace gpucheck::collectives {

LocalTransport::LocalTransport(int world) : world_(world) {
  if (world < 1) throw InputError("LocalTransport: world must be >= 1");
}

RankInfo LocalTransport::info(int local) const { return {local, "localhost", "host memory"}; }

void* LocalTransport::alloc(int, std::size_t bytes) { return std::malloc(bytes ? bytes : 1); }
void LocalTransport::release(int, void* p) { std::free(p); }
void LocalTransport::upload(int, void* dst, const void* src, std::size_t bytes) { std::memcpy(dst, src, bytes); }
void LocalTransport::download(int, void* dst, const void* src, std::size_t bytes) { std::memcpy(dst, src, bytes); }

std::unique_ptr<Transport> LocalTransport::split(int, int) {
  throw TransportError("the in-process transport cannot split");
}

void LocalTransport::run_one(const Collective& c) {
  const std::size_t W = static_cast<std::size_t>(world_);
  const std::size_t es = dtype_size(c.dtype);
  std::size_t send_n = c.op == CollOp::kReduceScatter ? c.count * W : c.count;
  // Snapshot every send buffer first: in-place calls alias send and receive.
  std::vector<std::vector<unsigned char>> in(W);
  for (std::size_t r = 0; r < W; ++r) {
    const auto* s = static_cast<const unsigned char*>(c.local[r].send);
    in[r].assign(s, s + send_n * es);
    if (c.redop == RedOp::kAvg) scale_in_place(c.dtype, in[r].data(), send_n, 1.0 / world_);
  }
  RedOp op = c.redop == RedOp::kAvg ? RedOp::kSum : c.redop;
  auto reduce_element = [&](std::size_t src_index, void* dst, std::size_t dst_index) {
    std::size_t start = dst_index % W;
    unsigned char acc[4];
    std::memcpy(acc, in[start].data() + src_index * es, es);
    for (std::size_t k = 1; k < W; ++k)
      reduce_into(c.dtype, op, acc, in[(start + k) % W].data() + src_index * es, 1);
    std::memcpy(static_cast<unsigned char*>(dst) + dst_index * es, acc, es);
  };
  for (std::size_t r = 0; r < W; ++r) {
    void* out = c.local[r].recv;
    switch (c.op) {
      case CollOp::kAllGather:
        for (std::size_t b = 0; b < W; ++b) std::memcpy(static_cast<unsigned char*>(out) + b * c.count * es, in[b].data(), c.count * es);
        break;
      case CollOp::kBroadcast: std::memcpy(out, in[static_cast<std::size_t>(c.root)].data(), c.count * es); break;
      case CollOp::kAllReduce:
        for (std::size_t i = 0; i < c.count; ++i) reduce_element(i, out, i);
        break;
      case CollOp::kReduceScatter:
        for (std::size_t i = 0; i < c.count; ++i) {
          // reduce element r*count+i of every rank into out[i]
          std::size_t start = (r * c.count + i) % W;
          unsigned char acc[4];
          std::memcpy(acc, in[start].data() + (r * c.count + i) * es, es);
          for (std::size_t k = 1; k < W; ++k)
            reduce_into(c.dtype, op, acc, in[(start + k) % W].data() + (r * c.count + i) * es, 1);
          std::memcpy(static_cast<unsigned char*>(out) + i * es, acc, es);
        }
        break;
    }
  }
}

double LocalTransport::run(const std::vector<Collective>& group, int iterations, double) {
  auto t0 = std::chrono::steady_clock::now();
  for (int it = 0; it < iterations; ++it)
    for (auto& c : group) run_one(c);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace gpucheck::collectives
