#include "mpi_transport.h"

#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <unistd.h>

#include <fmt/format.h>

#include "collectives/host_reduce.h"
#include "mpi_ring_reduce_scatter.h"

namespace gpucheck::collectives {

namespace {

void check_mpi(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw TransportError(fmt::format("{}: {}", what, std::string(text, static_cast<std::size_t>(len))));
}

template <DType T, RedOp Op>
void user_op(void* in, void* inout, int* len, MPI_Datatype*) {
  reduce_into(T, Op, inout, in, static_cast<std::size_t>(*len));
}

MPI_Op half_op(DType t, RedOp op) {
  static MPI_Op ops[2][2] = {{MPI_OP_NULL, MPI_OP_NULL}, {MPI_OP_NULL, MPI_OP_NULL}};
  int ti = t == DType::kF16 ? 0 : 1, oi = op == RedOp::kMax ? 1 : 0;
  if (ops[ti][oi] == MPI_OP_NULL) {
    MPI_User_function* fn = nullptr;
    if (t == DType::kF16) fn = op == RedOp::kMax ? &user_op<DType::kF16, RedOp::kMax> : &user_op<DType::kF16, RedOp::kSum>;
    else fn = op == RedOp::kMax ? &user_op<DType::kBF16, RedOp::kMax> : &user_op<DType::kBF16, RedOp::kSum>;
    MPI_Op_create(fn, /*commute=*/1, &ops[ti][oi]);
  }
  return ops[ti][oi];
}

MPI_Datatype bits_type(DType t) {
  switch (dtype_size(t)) {
    case 1: return MPI_UINT8_T;
    case 2: return MPI_UINT16_T;
    default: return MPI_UINT32_T;
  }
}

// Datatype and operation for a reduction of dtype t.
std::pair<MPI_Datatype, MPI_Op> reduction(DType t, RedOp op) {
  RedOp base = op == RedOp::kAvg ? RedOp::kSum : op;
  switch (t) {
    case DType::kF32: return {MPI_FLOAT, base == RedOp::kMax ? MPI_MAX : MPI_SUM};
    case DType::kU8: return {MPI_UINT8_T, base == RedOp::kMax ? MPI_MAX : MPI_SUM};
    default: return {MPI_UINT16_T, half_op(t, base)};
  }
}

}  // namespace

std::string mpi_hostname() {
  char name[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  MPI_Get_processor_name(name, &len);
  return std::string(name, static_cast<std::size_t>(len));
}

std::vector<std::string> mpi_gather_strings(MPI_Comm comm, const std::string& s) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int len = static_cast<int>(s.size());
  std::vector<int> lens(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
  check_mpi(MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, comm), "MPI_Gather");
  std::vector<char> all;
  if (rank == 0) {
    int total = 0;
    for (int i = 0; i < size; ++i) {
      displs[static_cast<std::size_t>(i)] = total;
      total += lens[static_cast<std::size_t>(i)];
    }
    all.resize(static_cast<std::size_t>(total) + 1);
  }
  check_mpi(MPI_Gatherv(s.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, 0, comm),
            "MPI_Gatherv");
  std::vector<std::string> out;
  if (rank == 0)
    for (int i = 0; i < size; ++i)
      out.emplace_back(all.data() + displs[static_cast<std::size_t>(i)], static_cast<std::size_t>(lens[static_cast<std::size_t>(i)]));
  return out;
}

std::vector<std::string> mpi_all_gather_strings(MPI_Comm comm, const std::string& s) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  int len = static_cast<int>(s.size());
  std::vector<int> lens(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
  check_mpi(MPI_Allgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, comm), "MPI_Allgather");
  int total = 0;
  for (int i = 0; i < size; ++i) {
    displs[static_cast<std::size_t>(i)] = total;
    total += lens[static_cast<std::size_t>(i)];
  }
  std::vector<char> all(static_cast<std::size_t>(total) + 1);
  check_mpi(MPI_Allgatherv(s.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, comm),
            "MPI_Allgatherv");
  std::vector<std::string> out;
  for (int i = 0; i < size; ++i)
    out.emplace_back(all.data() + displs[static_cast<std::size_t>(i)], static_cast<std::size_t>(lens[static_cast<std::size_t>(i)]));
  return out;
}

MpiTransport::MpiTransport(MPI_Comm comm) {
  check_mpi(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  int* ub = nullptr;
  int has_ub = 0;
  MPI_Comm_get_attr(comm_, MPI_TAG_UB, &ub, &has_ub);
  if (has_ub && ub) tag_ub_ = *ub;
  int world_rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  info_.rank = rank_;
  info_.host = mpi_hostname();
  info_.device = fmt::format("host memory (MPI_COMM_WORLD rank {}, pid {})", world_rank, static_cast<long>(getpid()));
}

MpiTransport::~MpiTransport() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void* MpiTransport::alloc(int, std::size_t bytes) {
  void* p = std::malloc(bytes ? bytes : 1);
  if (!p) throw TransportError(fmt::format("cannot allocate {} bytes of host memory", bytes));
  return p;
}
void MpiTransport::release(int, void* p) { std::free(p); }
void MpiTransport::upload(int, void* dst, const void* src, std::size_t bytes) { std::memcpy(dst, src, bytes); }
void MpiTransport::download(int, void* dst, const void* src, std::size_t bytes) { std::memcpy(dst, src, bytes); }

double MpiTransport::run(const std::vector<Collective>& group, int iterations, double timeout_s) {
  auto t0 = std::chrono::steady_clock::now();
  auto deadline = t0 + std::chrono::duration<double>(timeout_s);
  const std::size_t W = static_cast<std::size_t>(size_);
  for (int it = 0; it < iterations; ++it) {
    std::vector<MPI_Request> reqs;
    std::vector<std::vector<unsigned char>> scratch;  // avg pre-scaled inputs, alive until completion
    std::vector<RingReduceScatter> rings;  // reduce-scatter: our ring, progressed in the polling loop below
    rings.reserve(group.size());
    int next_tag = 0;
    for (auto& c : group) {
      const CallBuffers& b = c.local.at(0);
      const std::size_t es = dtype_size(c.dtype);
      if (c.count * (c.op == CollOp::kReduceScatter ? W : 1) > static_cast<std::size_t>(INT_MAX))
        throw TransportError(fmt::format("{} elements exceed MPI's int counts; use a smaller --max-bytes", c.count));
      const int n = static_cast<int>(c.count);
      auto* recv = static_cast<unsigned char*>(b.recv);
      MPI_Request req = MPI_REQUEST_NULL;
      switch (c.op) {
        case CollOp::kAllGather: {
          bool in_place = b.send == recv + static_cast<std::size_t>(rank_) * c.count * es;
          check_mpi(MPI_Iallgather(in_place ? MPI_IN_PLACE : b.send, n, bits_type(c.dtype), recv, n, bits_type(c.dtype),
                                   comm_, &req), "MPI_Iallgather");
          break;
        }
        case CollOp::kBroadcast:
          if (rank_ == c.root && b.send != recv) std::memcpy(recv, b.send, c.count * es);
          check_mpi(MPI_Ibcast(recv, n, bits_type(c.dtype), c.root, comm_, &req), "MPI_Ibcast");
          break;
        case CollOp::kAllReduce:
        case CollOp::kReduceScatter: {
          auto [type, op] = reduction(c.dtype, c.redop);
          std::size_t send_n = c.op == CollOp::kReduceScatter ? c.count * W : c.count;
          const void* send = b.send;
          bool in_place = c.op == CollOp::kAllReduce ? b.send == recv
                                                     : recv == static_cast<const unsigned char*>(b.send) + static_cast<std::size_t>(rank_) * c.count * es;
          if (c.redop == RedOp::kAvg) {
            const auto* s = static_cast<const unsigned char*>(b.send);
            scratch.emplace_back(s, s + send_n * es);
            scale_in_place(c.dtype, scratch.back().data(), send_n, 1.0 / static_cast<double>(size_));
            send = scratch.back().data();
            in_place = false;
          }
          if (c.op == CollOp::kAllReduce) {
            check_mpi(MPI_Iallreduce(in_place ? MPI_IN_PLACE : send, recv, n, type, op, comm_, &req), "MPI_Iallreduce");
          } else {
            if (next_tag > tag_ub_ - static_cast<int>(RingReduceScatter::kMaxSegments))
              throw TransportError("too many reduce-scatters in one group for MPI's tag range");
            // in place: the ring reads this rank's block from recv itself (the avg copy is never in place)
            rings.emplace_back(comm_, c.dtype, c.redop == RedOp::kMax ? RedOp::kMax : RedOp::kSum, send, recv,
                               c.count, next_tag);
            next_tag += rings.back().tags();
            continue;  // no MPI request: the ring is progressed by the loop below
          }
          break;
        }
      }
      reqs.push_back(req);
    }
    // Watchdog: poll until every request completes or the deadline passes.
    for (;;) {
      int done = 0;
      check_mpi(MPI_Testall(static_cast<int>(reqs.size()), reqs.data(), &done, MPI_STATUSES_IGNORE), "MPI_Testall");
      for (auto& r : rings) done = r.progress() && done;
      if (done) break;
      std::this_thread::yield();  // oversubscribed ranks (CI, laptops) must not starve each other
      if (std::chrono::steady_clock::now() > deadline) {
        const Collective& c = group.front();
        throw CollectiveTimeout(fmt::format("{} {} {} x{} still pending on rank {} after {} s", to_string(c.op),
                                            to_string(c.redop), to_string(c.dtype), c.count, rank_, timeout_s));
      }
    }
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double MpiTransport::sum_over_processes(double v) {
  double out = 0;
  check_mpi(MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_SUM, comm_), "MPI_Allreduce");
  return out;
}

std::vector<std::string> MpiTransport::gather_to_root(const std::string& s) { return mpi_gather_strings(comm_, s); }
std::vector<std::string> MpiTransport::all_gather_strings(const std::string& s) { return mpi_all_gather_strings(comm_, s); }

std::unique_ptr<Transport> MpiTransport::split(int color, int key) {
  MPI_Comm sub = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split(comm_, color < 0 ? MPI_UNDEFINED : color, key, &sub), "MPI_Comm_split");
  if (sub == MPI_COMM_NULL) return nullptr;
  auto t = std::make_unique<MpiTransport>(sub);
  MPI_Comm_free(&sub);
  return t;
}

// MPI cannot cancel a pending collective; the caller decides whether to MPI_Abort the job.
void MpiTransport::abort() {}

}  // namespace gpucheck::collectives
