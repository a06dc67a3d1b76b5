#include "mpi_ring_reduce_scatter.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "collectives/host_reduce.h"
#include "collectives/transport.h"

namespace gpucheck::collectives {

namespace {

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw TransportError(fmt::format("{} failed in the reduce-scatter ring (code {})", what, rc));
}

// Segment size adapted to the block: a quarter of it, within [128 KiB, 1 MiB]. A 512 KiB block (1 MiB over
// 2 ranks) travels as 4 segments, each reduced while it is still in cache right after it arrived, and
// while the next is in flight; large blocks keep 1 MiB messages (per-message costs vanish; 256 KiB
// measured no better at 16 MiB). At most kMaxSegments per block.
std::size_t segment_bytes(std::size_t block_bytes) {
  return std::clamp<std::size_t>(block_bytes / 4, 128 << 10, 1 << 20);
}

}  // namespace

RingReduceScatter::RingReduceScatter(MPI_Comm comm, DType t, RedOp op, const void* send, void* recv,
                                     std::size_t count, int tag_base)
    : comm_(comm), dtype_(t), op_(op), send_(static_cast<const unsigned char*>(send)),
      recv_(static_cast<unsigned char*>(recv)), count_(count), es_(dtype_size(t)), tag_base_(tag_base) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  in_place_ = recv_ == send_ + static_cast<std::size_t>(rank_) * count_ * es_;
  if (size_ == 1 || count_ == 0) {
    if (!in_place_ && count_) std::memcpy(recv_, send_, count_ * es_);
    return;
  }
  next_ = (rank_ + 1) % size_;
  prev_ = (rank_ + size_ - 1) % size_;
  const std::size_t bytes = count_ * es_;
  const std::size_t seg_bytes = segment_bytes(bytes);
  segments_ = std::clamp<std::size_t>((bytes + seg_bytes - 1) / seg_bytes, 1, kMaxSegments);
  segments_ = std::min(segments_, count_);
  seg_elems_ = (count_ + segments_ - 1) / segments_;
  segments_ = (count_ + seg_elems_ - 1) / seg_elems_;
  const int steps = size_ - 1;
  tmp_.resize(static_cast<std::size_t>(steps - 1 + (in_place_ ? 1 : 0)) * bytes);

  recvs_.assign(static_cast<std::size_t>(steps) * segments_, MPI_REQUEST_NULL);
  done_idx_.resize(recvs_.size());
  for (int s = 0; s < steps; ++s)
    for (std::size_t k = 0; k < segments_; ++k) {
      std::size_t first = k * seg_elems_, n = std::min(seg_elems_, count_ - first);
      check(MPI_Irecv(step_buffer(s) + first * es_, static_cast<int>(n * es_), MPI_BYTE, prev_,
                      tag_base_ + static_cast<int>(k), comm_, &recvs_[static_cast<std::size_t>(s) * segments_ + k]),
            "MPI_Irecv");
    }
  recvs_left_ = recvs_.size();
  for (std::size_t k = 0; k < segments_; ++k) post_send(0, k);
}

RingReduceScatter::~RingReduceScatter() {
  // Only after a watchdog timeout is anything still in flight; the probe then ends the job, so the
  // requests are cancelled where MPI can (receives) and released.
  for (auto& r : recvs_)
    if (r != MPI_REQUEST_NULL) {
      MPI_Cancel(&r);
      MPI_Request_free(&r);
    }
  for (auto& r : sends_)
    if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
}

const unsigned char* RingReduceScatter::own_block(int block) const {
  return send_ + static_cast<std::size_t>(block) * count_ * es_;
}

unsigned char* RingReduceScatter::step_buffer(int step) {
  const std::size_t bytes = count_ * es_;
  if (step < size_ - 2 || in_place_) return tmp_.data() + static_cast<std::size_t>(step) * bytes;
  return recv_;  // the last step's sums are the result
}

void RingReduceScatter::post_send(int step, std::size_t seg) {
  std::size_t first = seg * seg_elems_, n = std::min(seg_elems_, count_ - first);
  const unsigned char* data = step == 0 ? own_block((rank_ + size_ - 1) % size_) : step_buffer(step - 1);
  MPI_Request req = MPI_REQUEST_NULL;
  check(MPI_Isend(data + first * es_, static_cast<int>(n * es_), MPI_BYTE, next_, tag_base_ + static_cast<int>(seg),
                  comm_, &req),
        "MPI_Isend");
  sends_.push_back(req);
}

bool RingReduceScatter::progress() {
  if (recvs_left_ > 0) {
    int outcount = 0;
    check(MPI_Testsome(static_cast<int>(recvs_.size()), recvs_.data(), &outcount, done_idx_.data(),
                       MPI_STATUSES_IGNORE),
          "MPI_Testsome");
    if (outcount == MPI_UNDEFINED) outcount = 0;
    for (int i = 0; i < outcount; ++i) {
      const std::size_t idx = static_cast<std::size_t>(done_idx_[static_cast<std::size_t>(i)]);
      const int step = static_cast<int>(idx / segments_);
      const std::size_t seg = idx % segments_;
      const std::size_t first = seg * seg_elems_, n = std::min(seg_elems_, count_ - first), off = first * es_;
      const int block = ((rank_ - step - 2) % size_ + size_) % size_;
      unsigned char* got = step_buffer(step) + off;
      if (step == size_ - 2 && in_place_) reduce_into(dtype_, op_, recv_ + off, got, n);  // own input is recv_
      else reduce_into(dtype_, op_, got, own_block(block) + off, n);
      if (step < size_ - 2) post_send(step + 1, seg);
      --recvs_left_;
    }
  }
  if (sends_.empty()) return recvs_left_ == 0;
  int sent = 0;
  check(MPI_Testall(static_cast<int>(sends_.size()), sends_.data(), &sent, MPI_STATUSES_IGNORE), "MPI_Testall");
  return recvs_left_ == 0 && sent;
}

}  // namespace gpucheck::collectives
