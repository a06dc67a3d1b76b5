#pragma once
// Reduce-scatter over MPI point-to-point as a pipelined ring, progressed by the transport's watchdog loop.
//
// Why not MPI_Ireduce_scatter_block: Open MPI's non-blocking collectives (coll/libnbc) implement it as a
// reduce of the whole W x count buffer to rank 0 followed by a scatter, so rank 0 receives and reduces
// (W-1) x the whole buffer and every other rank waits for it; measured here it ran at 0.15-0.34 of the
// same-run all-gather busbw at 16 MiB (issue 21). The ring moves (W-1)/W of the buffer per rank, like the
// all-gather, and reduces each segment (our reduce_into, at memory speed) as soon as it arrives, while the
// next segments are still in flight.
//
// Step s (0..W-2): rank r sends its partial sum of block (r-s-1) mod W to rank r+1 and receives the
// partial sum of block (r-s-2) mod W from rank r-1, adding its own input of that block. After the last
// step rank r holds the full reduction of block r. Each block travels in segments; a segment of step s+1
// is sent as soon as the same segment of step s is reduced (tag = segment, so per-sender order is the
// step order and no buffer is reused while in flight).
#include <mpi.h>

#include <cstddef>
#include <vector>

#include "collectives/dtype.h"

namespace gpucheck::collectives {

class RingReduceScatter {
 public:
  /// `send`: W x count elements (block r is this rank's input for rank r); `recv`: count elements, may be
  /// send + rank x count (in place). `tag_base`: distinct per concurrent ring on `comm`. Posts step 0.
  RingReduceScatter(MPI_Comm comm, DType t, RedOp op, const void* send, void* recv, std::size_t count,
                    int tag_base);
  RingReduceScatter(const RingReduceScatter&) = delete;
  RingReduceScatter& operator=(const RingReduceScatter&) = delete;
  RingReduceScatter(RingReduceScatter&&) = default;
  ~RingReduceScatter();

  /// Tests what is in flight, reduces what arrived, posts what became ready. True when complete.
  bool progress();

  /// How many tags one ring uses (its segments), for the caller's tag_base of the next ring.
  int tags() const { return static_cast<int>(segments_); }
  static constexpr std::size_t kMaxSegments = 64;

 private:
  void post_send(int step, std::size_t seg);
  const unsigned char* own_block(int block) const;
  unsigned char* step_buffer(int step);  // where step's received partial sums land and are reduced

  MPI_Comm comm_;
  DType dtype_;
  RedOp op_;
  const unsigned char* send_;
  unsigned char* recv_;
  std::size_t count_, es_, seg_elems_ = 0, segments_ = 0;
  int rank_ = 0, size_ = 1, tag_base_ = 0, next_ = 0, prev_ = 0;
  bool in_place_ = false;
  std::vector<unsigned char> tmp_;          // steps 0..W-3 (and the last one in place), count each
  std::vector<MPI_Request> recvs_, sends_;  // recvs_[step * segments + seg]
  std::vector<int> done_idx_;
  std::size_t recvs_left_ = 0;
};

}  // namespace gpucheck::collectives
