#include "nccl_transport.h"

#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "core/driver_requirement.h"
#include "nccl_loader.h"

namespace gpucheck::collectives {

namespace {

using Clock = std::chrono::steady_clock;

std::string nccl_text(ncclResult_t r, ncclComm_t comm) {
  const char* last = ncclGetLastError(comm);
  return fmt::format("{} ({}){}{}", ncclGetErrorString(r), static_cast<int>(r), last && *last ? ": " : "",
                     last ? last : "");
}

// cudaGetDeviceCount's failure, with the driver this runtime needs when the driver is the reason.
std::string device_count_error(cudaError_t e) {
  std::string why = "cudaGetDeviceCount failed: " + cuda_error_text(e);
  if (e == cudaErrorInsufficientDriver) {
    int runtime = 0, driver = 0;
    if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) runtime = CUDART_VERSION;
    if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
    why += " (" + driver_requirement(runtime, driver) + ")";
  }
  return why;
}

void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw TransportError(fmt::format("{}: {}", what, cuda_error_text(e)));
}

ncclDataType_t nccl_type(DType t) {
  switch (t) {
    case DType::kF16: return ncclFloat16;
    case DType::kBF16: return ncclBfloat16;
    case DType::kF32: return ncclFloat32;
    case DType::kU8: return ncclUint8;
  }
  return ncclUint8;
}

ncclRedOp_t nccl_op(RedOp r) {
  switch (r) {
    case RedOp::kMax: return ncclMax;
    case RedOp::kAvg: return ncclAvg;
    default: return ncclSum;
  }
}

std::string hostname() {
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

RankInfo describe(int rank, int device) {
  RankInfo info;
  info.rank = rank;
  info.host = hostname();
  cudaDeviceProp prop{};
  char bus[32] = {};
  cudaGetDeviceProperties(&prop, device);
  cudaDeviceGetPCIBusId(bus, sizeof bus, device);
  info.device = fmt::format("GPU {}: {} ({})", device, prop.name, bus);
  return info;
}

int usable_device_count() {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) throw NcclUnavailable(device_count_error(e));
  if (count == 0) throw NcclUnavailable("CUDA sees no GPU (cudaGetDeviceCount returned 0)");
  return count;
}

ncclConfig_t nonblocking_config() {
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  config.blocking = 0;  // calls return ncclInProgress; we poll, so a hang can be aborted
  return config;
}

}  // namespace

std::string cuda_error_text(cudaError_t e) {
  return fmt::format("{} ({}): {}", cudaGetErrorName(e), static_cast<int>(e), cudaGetErrorString(e));
}

namespace {
std::string version_code_text(int v) {
  // NCCL >= 2.9 encodes X*10000 + Y*100 + Z; older ones X*1000 + Y*100 + Z.
  if (v < 10000) return fmt::format("{}.{}.{}", v / 1000, (v / 100) % 10, v % 100);
  return fmt::format("{}.{}.{}", v / 10000, (v / 100) % 100, v % 100);
}
}  // namespace

std::string nccl_version_text() {
  int v = 0;
  ncclGetVersion(&v);
  return version_code_text(v);
}

NcclLoaded nccl_loaded() {
  NcclLoaded n;
  n.version = nccl_version_text();
  n.header_version = version_code_text(NCCL_VERSION_CODE);
  n.path = nccl_library_file();
  return n;
}

void NcclTransport::wait_ready(double timeout_s, const std::string& what) {
  auto deadline = Clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    bool pending = false;
    for (auto c : comms_) {
      ncclResult_t st = ncclSuccess;
      ncclResult_t r = ncclCommGetAsyncError(c, &st);
      if (r != ncclSuccess) guard_.error(what + ": ncclCommGetAsyncError: " + nccl_text(r, c));
      if (st == ncclInProgress) pending = true;
      else if (st != ncclSuccess) guard_.error(what + ": " + nccl_text(st, c));
    }
    if (!pending) return;
    if (Clock::now() > deadline) guard_.timeout(what + fmt::format(" still in progress after {} s", timeout_s));
  }
}

void NcclTransport::finish_setup() {
  for (std::size_t l = 0; l < devices_.size(); ++l) {
    check_cuda(cudaSetDevice(devices_[l]), "cudaSetDevice");
    cudaStream_t s = nullptr;
    check_cuda(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    streams_.push_back(s);
  }
}

std::unique_ptr<NcclTransport> NcclTransport::create_single_process(double timeout_s) {
  int count = usable_device_count();
  std::unique_ptr<NcclTransport> t(new NcclTransport());
  t->world_ = count;
  ncclUniqueId id;
  ncclResult_t r = ncclGetUniqueId(&id);
  if (r != ncclSuccess) throw TransportError("ncclGetUniqueId: " + nccl_text(r, nullptr));
  t->comms_.assign(static_cast<std::size_t>(count), nullptr);
  ncclConfig_t config = nonblocking_config();
  ncclGroupStart();
  for (int d = 0; d < count; ++d) {
    check_cuda(cudaSetDevice(d), "cudaSetDevice");
    r = ncclCommInitRankConfig(&t->comms_[static_cast<std::size_t>(d)], count, id, d, &config);
    if (r != ncclSuccess && r != ncclInProgress) {
      ncclGroupEnd();
      t->guard_.error(fmt::format("ncclCommInitRankConfig(rank {}): {}", d, nccl_text(r, nullptr)));
    }
    t->devices_.push_back(d);
    t->infos_.push_back(describe(d, d));
  }
  r = ncclGroupEnd();
  if (r != ncclSuccess && r != ncclInProgress) t->guard_.error("ncclGroupEnd (init): " + nccl_text(r, nullptr));
  t->wait_ready(timeout_s, fmt::format("communicator initialisation over {} GPUs", count));
  t->finish_setup();
  return t;
}

#ifdef GPUCHECK_COLL_HAVE_MPI
std::unique_ptr<NcclTransport> NcclTransport::create_per_process(MPI_Comm comm, double timeout_s) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // Local rank among the processes sharing this node picks the GPU (as nccl-tests does with a hostname hash).
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int local = 0;
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  int count = 0;
  cudaError_t ce = cudaGetDeviceCount(&count);
  // Every rank must agree before anyone blocks in the ncclUniqueId broadcast.
  int ok = ce == cudaSuccess && count > 0 ? 1 : 0, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
  if (!ok) throw NcclUnavailable(ce != cudaSuccess ? device_count_error(ce)
                                                   : "CUDA sees no GPU (cudaGetDeviceCount returned 0)");
  if (!all_ok) throw NcclUnavailable("another rank has no usable GPU");

  std::unique_ptr<NcclTransport> t(new NcclTransport());
  MPI_Comm_dup(comm, &t->mpi_);
  t->world_ = size;
  int device = local % count;
  check_cuda(cudaSetDevice(device), "cudaSetDevice");
  // Rank 0's id travels with its status: a failed ncclGetUniqueId stops every rank at once with rank 0's
  // error, instead of every rank initialising from a zero id (and hanging or failing obscurely).
  struct IdMessage {
    int ok = 0;
    char error[480] = {};
    ncclUniqueId id;
  } msg;
  if (rank == 0) {
    ncclResult_t r = ncclGetUniqueId(&msg.id);
    msg.ok = r == ncclSuccess;
    if (!msg.ok) std::snprintf(msg.error, sizeof msg.error, "%s", nccl_text(r, nullptr).c_str());
  }
  MPI_Bcast(&msg, sizeof msg, MPI_BYTE, 0, comm);
  if (!msg.ok) throw TransportError(std::string("ncclGetUniqueId failed on rank 0: ") + msg.error);
  t->comms_.assign(1, nullptr);
  ncclConfig_t config = nonblocking_config();
  ncclResult_t r = ncclCommInitRankConfig(&t->comms_[0], size, msg.id, rank, &config);
  if (r != ncclSuccess && r != ncclInProgress)
    t->guard_.error(fmt::format("ncclCommInitRankConfig(rank {} of {}): {}", rank, size, nccl_text(r, nullptr)));
  t->devices_.push_back(device);
  t->infos_.push_back(describe(rank, device));
  t->wait_ready(timeout_s, fmt::format("communicator initialisation, rank {} of {}", rank, size));
  t->finish_setup();
  return t;
}
#endif

NcclTransport::~NcclTransport() {
  if (!guard_.aborted()) {
    for (auto c : comms_)
      if (c) ncclCommFinalize(c);
    try {
      wait_ready(30, "finalize");  // a finalize that does not finish aborts (through guard_)
    } catch (...) {
    }
  }
  if (!guard_.aborted()) {
    for (auto c : comms_)
      if (c) ncclCommDestroy(c);
    for (auto s : streams_) cudaStreamDestroy(s);
  }
#ifdef GPUCHECK_COLL_HAVE_MPI
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (mpi_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&mpi_);
#endif
}

bool NcclTransport::is_root_process() const {
#ifdef GPUCHECK_COLL_HAVE_MPI
  if (mpi_ != MPI_COMM_NULL) {
    int rank = 0;
    MPI_Comm_rank(mpi_, &rank);
    return rank == 0;
  }
#endif
  return true;
}

void* NcclTransport::alloc(int local, std::size_t bytes) {
  check_cuda(cudaSetDevice(devices_.at(static_cast<std::size_t>(local))), "cudaSetDevice");
  void* p = nullptr;
  check_cuda(cudaMalloc(&p, bytes ? bytes : 1), fmt::format("cudaMalloc({} bytes)", bytes).c_str());
  return p;
}

void NcclTransport::release(int local, void* p) {
  guard_.release([&] {
    cudaSetDevice(devices_.at(static_cast<std::size_t>(local)));
    cudaFree(p);
  });
}

void NcclTransport::upload(int local, void* dst, const void* src, std::size_t bytes) {
  check_cuda(cudaSetDevice(devices_.at(static_cast<std::size_t>(local))), "cudaSetDevice");
  check_cuda(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy host to device");
  // From pageable memory cudaMemcpy may return before the DMA lands, and the collectives run on
  // non-blocking streams that do not order after the legacy stream: wait for the copy here.
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize after upload");
}

void NcclTransport::download(int local, void* dst, const void* src, std::size_t bytes) {
  check_cuda(cudaSetDevice(devices_.at(static_cast<std::size_t>(local))), "cudaSetDevice");
  check_cuda(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy device to host");
}

double NcclTransport::run(const std::vector<Collective>& group, int iterations, double timeout_s) {
  const Collective& first = group.front();
  std::string what = fmt::format("{} {} {} x{}", to_string(first.op), to_string(first.redop), to_string(first.dtype),
                                 first.count);
  auto t0 = Clock::now();
  auto deadline = t0 + std::chrono::duration<double>(timeout_s);
  for (int it = 0; it < iterations; ++it) {
    ncclGroupStart();
    for (auto& c : group) {
      for (std::size_t l = 0; l < comms_.size(); ++l) {
        const CallBuffers& b = c.local.at(l);
        ncclResult_t r = ncclSuccess;
        switch (c.op) {
          case CollOp::kAllGather: r = ncclAllGather(b.send, b.recv, c.count, nccl_type(c.dtype), comms_[l], streams_[l]); break;
          case CollOp::kReduceScatter:
            r = ncclReduceScatter(b.send, b.recv, c.count, nccl_type(c.dtype), nccl_op(c.redop), comms_[l], streams_[l]);
            break;
          case CollOp::kAllReduce:
            r = ncclAllReduce(b.send, b.recv, c.count, nccl_type(c.dtype), nccl_op(c.redop), comms_[l], streams_[l]);
            break;
          case CollOp::kBroadcast:
            r = ncclBroadcast(b.send, b.recv, c.count, nccl_type(c.dtype), c.root, comms_[l], streams_[l]);
            break;
        }
        if (r != ncclSuccess && r != ncclInProgress) {
          ncclGroupEnd();
          guard_.error(what + ": " + nccl_text(r, comms_[l]));
        }
      }
    }
    ncclResult_t r = ncclGroupEnd();
    if (r != ncclSuccess && r != ncclInProgress) guard_.error(what + ": ncclGroupEnd: " + nccl_text(r, comms_[0]));
    double left = std::chrono::duration<double>(deadline - Clock::now()).count();
    wait_ready(left > 0 ? left : 0, what);
  }
  // Watchdog: poll the streams and the communicators' async errors until done or past the deadline.
  for (;;) {
    bool busy = false;
    for (std::size_t l = 0; l < streams_.size(); ++l) {
      cudaError_t e = cudaStreamQuery(streams_[l]);
      if (e == cudaErrorNotReady) busy = true;
      else if (e != cudaSuccess) guard_.error(what + ": " + cuda_error_text(e));
      ncclResult_t st = ncclSuccess;
      ncclCommGetAsyncError(comms_[l], &st);
      if (st != ncclSuccess && st != ncclInProgress) guard_.error(what + ": " + nccl_text(st, comms_[l]));
    }
    if (!busy) break;
    if (Clock::now() > deadline)
      guard_.timeout(fmt::format("{} not complete on {} after {} s", what, infos_.front().device, timeout_s));
  }
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::optional<double> NcclTransport::copy_seconds(int local, std::size_t bytes, int iterations, double timeout_s) {
  const auto l = static_cast<std::size_t>(local);
  void* src = alloc(local, bytes);
  void* dst = nullptr;
  try {
    dst = alloc(local, bytes);
  } catch (...) {
    release(local, src);
    throw;
  }
  const std::string what = fmt::format("device-to-device copy of {} bytes", bytes);
  auto t0 = Clock::now();
  auto deadline = t0 + std::chrono::duration<double>(timeout_s);
  cudaError_t e = cudaSuccess;
  for (int it = 0; it < iterations && e == cudaSuccess; ++it)
    e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, streams_[l]);
  while (e == cudaSuccess && (e = cudaStreamQuery(streams_[l])) == cudaErrorNotReady) {
    if (Clock::now() > deadline) {
      e = cudaErrorNotReady;
      break;
    }
  }
  double s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (e == cudaErrorNotReady) guard_.timeout(fmt::format("{} not complete on {} after {} s", what, infos_.at(l).device, timeout_s));
  release(local, dst);
  release(local, src);
  if (e != cudaSuccess) throw TransportError(what + ": " + cuda_error_text(e));
  return s;
}

double NcclTransport::sum_over_processes(double v) {
#ifdef GPUCHECK_COLL_HAVE_MPI
  if (mpi_ != MPI_COMM_NULL) {
    double out = 0;
    MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_SUM, mpi_);
    return out;
  }
#endif
  return v;
}

#ifdef GPUCHECK_COLL_HAVE_MPI
std::vector<std::string> mpi_gather_strings(MPI_Comm comm, const std::string& s);      // mpi_transport.cpp
std::vector<std::string> mpi_all_gather_strings(MPI_Comm comm, const std::string& s);  // mpi_transport.cpp
#endif

std::vector<std::string> NcclTransport::all_gather_strings(const std::string& s) {
#ifdef GPUCHECK_COLL_HAVE_MPI
  if (mpi_ != MPI_COMM_NULL) return mpi_all_gather_strings(mpi_, s);
#endif
  return std::vector<std::string>(comms_.size(), s);
}

std::vector<std::string> NcclTransport::gather_to_root(const std::string& s) {
#ifdef GPUCHECK_COLL_HAVE_MPI
  if (mpi_ != MPI_COMM_NULL) return mpi_gather_strings(mpi_, s);
#endif
  return {s};
}

std::unique_ptr<Transport> NcclTransport::split(int color, int key) {
#ifdef GPUCHECK_COLL_HAVE_MPI
  if (mpi_ != MPI_COMM_NULL && comms_.size() == 1) {
    std::unique_ptr<NcclTransport> t(new NcclTransport());
    MPI_Comm sub = MPI_COMM_NULL;
    MPI_Comm_split(mpi_, color < 0 ? MPI_UNDEFINED : color, key, &sub);
    ncclConfig_t config = nonblocking_config();
    ncclComm_t nc = nullptr;
    ncclResult_t r = ncclCommSplit(comms_[0], color < 0 ? NCCL_SPLIT_NOCOLOR : color, key, &nc, &config);
    if (r != ncclSuccess && r != ncclInProgress) guard_.error("ncclCommSplit: " + nccl_text(r, comms_[0]));
    wait_ready(60, "ncclCommSplit");
    if (sub == MPI_COMM_NULL) return nullptr;
    t->mpi_ = sub;
    MPI_Comm_size(sub, &t->world_);
    int rank = 0;
    MPI_Comm_rank(sub, &rank);
    t->comms_.push_back(nc);
    t->devices_ = devices_;
    t->infos_.push_back(infos_[0]);
    t->infos_[0].rank = rank;
    t->wait_ready(60, "ncclCommSplit (new communicator)");
    t->finish_setup();
    return t;
  }
#endif
  (void)color;
  (void)key;
  throw TransportError("--pairs needs one process per GPU (launch with mpirun or srun)");
}

void NcclTransport::abort() { guard_.abort(); }

}  // namespace gpucheck::collectives
