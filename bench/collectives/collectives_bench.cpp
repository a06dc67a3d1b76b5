// Collective bandwidth with Google Benchmark's manual timing, through the same transports the probe uses.
//
//   bench_collectives                                     # one rank (MPI singleton; NCCL over local GPUs)
//   mpirun -np 4 bench_collectives --benchmark_filter=Mpi # real MPI ranks; rank 0 reports
//
// Every iteration's time is the slowest rank's (an MPI max), as a collective is only done when every rank
// is. Counters: busbw_GBps (nccl-tests' bus bandwidth) and, as the baseline measured in the same run,
// busbw_vs_memcpy (busbw / a host memcpy of the same bytes) for MPI, and busbw_vs_nccl_tests (busbw /
// nccl-tests' all_reduce_perf busbw at the same size) for NCCL when all_reduce_perf is on PATH.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "../rank_benchmarks.h"
#include "collectives/bandwidth.h"
#include "collectives/transport.h"
#include "core/files.h"
#include "core/subprocess.h"

#ifdef GPUCHECK_COLL_HAVE_MPI
#include "mpi_transport.h"
#endif
#ifdef GPUCHECK_COLL_HAVE_NCCL
#include "nccl_transport.h"
#endif

#include <nlohmann/json.hpp>

namespace {

using namespace gpucheck::collectives;

bool g_mpi = false;

double slowest_rank(double seconds) {
#ifdef GPUCHECK_COLL_HAVE_MPI
  if (g_mpi) {
    double out = seconds;
    MPI_Allreduce(&seconds, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return out;
  }
#endif
  return seconds;
}

// Host memory bandwidth for `bytes` (median of 5 copies): the baseline of the MPI path.
double memcpy_gbps(std::size_t bytes) {
  std::vector<unsigned char> a(bytes, 1), b(bytes, 0);
  std::vector<double> t;
  for (int i = 0; i < 5; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    std::memcpy(b.data(), a.data(), bytes);
    benchmark::DoNotOptimize(b.data());
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return algbw_gbps(bytes, median(t));
}

// Runs one collective of `bytes` per iteration on every local rank of `t`.
void run_collective(benchmark::State& st, Transport& t, CollOp op, DType type, double baseline_gbps,
                    const char* baseline_name) {
  const std::size_t bytes = static_cast<std::size_t>(st.range(0));
  const std::size_t W = static_cast<std::size_t>(t.world());
  const std::size_t es = dtype_size(type);
  std::size_t count = bytes / es;
  if (op == CollOp::kAllGather || op == CollOp::kReduceScatter) count /= W;
  if (count == 0) count = 1;
  std::size_t send_n = op == CollOp::kReduceScatter ? count * W : count;
  std::size_t recv_n = op == CollOp::kAllGather ? count * W : count;
  Collective c;
  c.op = op;
  c.redop = op == CollOp::kAllReduce || op == CollOp::kReduceScatter ? RedOp::kSum : RedOp::kNone;
  c.dtype = type;
  c.count = count;
  std::vector<std::pair<void*, void*>> bufs;
  std::vector<unsigned char> zeros(std::max(send_n, recv_n) * es, 0);
  for (int l = 0; l < t.local_count(); ++l) {
    void* s = t.alloc(l, send_n * es);
    void* r = t.alloc(l, recv_n * es);
    t.upload(l, s, zeros.data(), send_n * es);
    bufs.emplace_back(s, r);
    c.local.push_back({s, r});
  }
  t.run({c}, 2, 120);  // warm-up: connections, buffers
  double total = 0;
  for (auto _ : st) {
    double s = slowest_rank(t.run({c}, 1, 120));
    total += s;
    st.SetIterationTime(s);
  }
  std::size_t S = algo_bytes(op, count, type, t.world());
  double per_iter = total / static_cast<double>(st.iterations());
  double busbw = busbw_gbps(op, S, per_iter, t.world());
  st.counters["busbw_GBps"] = busbw;
  st.counters["algbw_GBps"] = algbw_gbps(S, per_iter);
  st.counters["ranks"] = static_cast<double>(t.world());
  if (baseline_gbps > 0) st.counters[baseline_name] = busbw / baseline_gbps;
  st.SetBytesProcessed(static_cast<std::int64_t>(S) * st.iterations());
  for (std::size_t l = 0; l < bufs.size(); ++l) {
    t.release(static_cast<int>(l), bufs[l].first);
    t.release(static_cast<int>(l), bufs[l].second);
  }
}

#ifdef GPUCHECK_COLL_HAVE_MPI
Transport& mpi_transport() {
  static MpiTransport t(MPI_COMM_WORLD);
  return t;
}

void BM_Mpi(benchmark::State& st, CollOp op, DType type) {
  run_collective(st, mpi_transport(), op, type, memcpy_gbps(static_cast<std::size_t>(st.range(0))), "busbw_vs_memcpy");
}

// Issue 21's row: the host reduction of the MPI transport against the same run's all-gather of the same
// bytes. Each iteration times one all-gather and one reduce-scatter sum (alternated, so both see the same
// machine state); `reduce_scatter_vs_all_gather` = reduce-scatter busbw / all-gather busbw (goal >= 0.5),
// each from the median iteration, with the 10th/90th percentile of the per-iteration ratio, and the same
// for a second all-gather against the first (`all_gather_vs_all_gather`: the noise floor).
void BM_MpiReduceVsAllGather(benchmark::State& st, DType type) {
  Transport& t = mpi_transport();
  if (t.world() < 2) {
    st.SkipWithError("needs at least 2 ranks (mpirun -np 2 ...): one rank reduces nothing");
    return;
  }
  const std::size_t bytes = static_cast<std::size_t>(st.range(0)), W = static_cast<std::size_t>(t.world());
  const std::size_t es = dtype_size(type), count = std::max<std::size_t>(1, bytes / es / W);
  std::vector<unsigned char> init(count * W * es);
  for (std::size_t i = 0; i < count * W; ++i)  // small normal values, never inf: the real arithmetic path
    store_bits(type, init.data(), i, encode(type, 1.0 + static_cast<double>(i % 61) / 64));
  void* big_send = t.alloc(0, count * W * es);  // reduce-scatter input
  void* big_recv = t.alloc(0, count * W * es);  // all-gather output
  void* small = t.alloc(0, count * es);
  t.upload(0, big_send, init.data(), init.size());
  t.upload(0, small, init.data(), count * es);
  Collective ag, rs;
  ag.op = CollOp::kAllGather, ag.dtype = type, ag.count = count, ag.local = {{small, big_recv}};
  rs.op = CollOp::kReduceScatter, rs.redop = RedOp::kSum, rs.dtype = type, rs.count = count;
  rs.local = {{big_send, small}};
  t.run({ag}, 2, 120);
  t.run({rs}, 2, 120);
  // Each iteration: all-gather, reduce-scatter, all-gather again. The second all-gather is the noise
  // control: on a loaded machine the all-gather against itself swings as much as reduce-scatter against
  // it does, and its spread says how far one figure can be trusted.
  std::vector<double> t_ag, t_rs, t_ag2;
  for (auto _ : st) {
    double a = slowest_rank(t.run({ag}, 1, 120));
    t.upload(0, big_send, init.data(), init.size());  // the same inputs every time (sums stay finite)
    double r = slowest_rank(t.run({rs}, 1, 120));
    double a2 = slowest_rank(t.run({ag}, 1, 120));
    t_ag.push_back(a), t_rs.push_back(r), t_ag2.push_back(a2);
    st.SetIterationTime(a + r);
  }
  // Medians: on a shared, oversubscribed machine single iterations stall for whole scheduler slices.
  const std::size_t S = algo_bytes(CollOp::kAllGather, count, type, t.world());
  double ag_bw = busbw_gbps(CollOp::kAllGather, S, median(t_ag), t.world());
  double rs_bw = busbw_gbps(CollOp::kReduceScatter, S, median(t_rs), t.world());
  double ag2_bw = busbw_gbps(CollOp::kAllGather, S, median(t_ag2), t.world());
  // Per-iteration ratios (busbw ratio = inverse time ratio: both move the same bytes), 10th and 90th percentile.
  std::vector<double> rs_vs_ag, ag_vs_ag;
  for (std::size_t i = 0; i < t_ag.size(); ++i) {
    rs_vs_ag.push_back(t_ag[i] / t_rs[i]);
    ag_vs_ag.push_back(t_ag[i] / t_ag2[i]);
  }
  auto pct = [](std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5)];
  };
  st.counters["all_gather_busbw_GBps"] = ag_bw;
  st.counters["reduce_scatter_busbw_GBps"] = rs_bw;
  st.counters["reduce_scatter_vs_all_gather"] = rs_bw / ag_bw;
  st.counters["reduce_scatter_vs_all_gather_p10"] = pct(rs_vs_ag, 0.1);
  st.counters["reduce_scatter_vs_all_gather_p90"] = pct(rs_vs_ag, 0.9);
  st.counters["all_gather_vs_all_gather"] = ag2_bw / ag_bw;
  st.counters["all_gather_vs_all_gather_p10"] = pct(ag_vs_ag, 0.1);
  st.counters["all_gather_vs_all_gather_p90"] = pct(ag_vs_ag, 0.9);
  // Best iterations: load only ever adds time, so the fastest of each is the least disturbed estimate.
  auto best = [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); };
  st.counters["reduce_scatter_vs_all_gather_best"] = best(t_ag) / best(t_rs);
  st.counters["all_gather_vs_all_gather_best"] = best(t_ag) / best(t_ag2);
  st.counters["ranks"] = static_cast<double>(t.world());
  t.release(0, big_send), t.release(0, big_recv), t.release(0, small);
}
#endif

#ifdef GPUCHECK_COLL_HAVE_NCCL
struct NcclHolder {
  std::unique_ptr<NcclTransport> t;
  std::string why_not;
};

NcclHolder& nccl() {
  static NcclHolder h = [] {
    NcclHolder x;
    try {
#ifdef GPUCHECK_COLL_HAVE_MPI
      int size = 1;
      if (g_mpi) MPI_Comm_size(MPI_COMM_WORLD, &size);
      if (size > 1) x.t = NcclTransport::create_per_process(MPI_COMM_WORLD, 120);
      else
#endif
        x.t = NcclTransport::create_single_process(120);
    } catch (const std::exception& e) {
      x.why_not = e.what();
    }
    return x;
  }();
  return h;
}

// nccl-tests' out-of-place busbw at one size, when all_reduce_perf is installed (-J writes its JSON).
std::optional<double> nccl_tests_busbw(std::size_t bytes, int gpus) {
  std::string exe = gpucheck::find_in_path("all_reduce_perf");
  if (exe.empty() || g_mpi) return std::nullopt;
  std::string json = "/tmp/gpucheck-nccl-tests-" + std::to_string(bytes) + ".json";
  auto r = gpucheck::run_subprocess({exe, "-b", std::to_string(bytes), "-e", std::to_string(bytes), "-g",
                                     std::to_string(gpus), "-n", "20", "-J", json});
  if (!r.ok()) return std::nullopt;
  try {
    auto j = nlohmann::json::parse(gpucheck::read_file(json));
    return j.at("results").at(0).at("out_of_place").at("bus_bw").get<double>();
  } catch (...) {
    return std::nullopt;
  }
}

void BM_Nccl(benchmark::State& st, CollOp op, DType type) {
  auto& h = nccl();
  if (!h.t) {
    st.SkipWithError(("no NCCL here: " + h.why_not).c_str());
    return;
  }
  double base = 0;
  if (op == CollOp::kAllReduce && type == DType::kF32)
    if (auto b = nccl_tests_busbw(static_cast<std::size_t>(st.range(0)), h.t->world())) base = *b;
  run_collective(st, *h.t, op, type, base, "busbw_vs_nccl_tests");
}
#endif

void register_all() {
#ifdef GPUCHECK_COLL_HAVE_MPI
  for (DType t : {DType::kF16, DType::kBF16, DType::kF32})
    benchmark::RegisterBenchmark((std::string("MpiReduceVsAllGather/") + to_string(t)).c_str(), BM_MpiReduceVsAllGather, t)
        ->Arg(1 << 20)->Arg(16 << 20)->Iterations(30)->UseManualTime()->Unit(benchmark::kMicrosecond);
#endif
  const std::pair<const char*, CollOp> ops[] = {{"all_gather", CollOp::kAllGather},
                                                {"reduce_scatter", CollOp::kReduceScatter},
                                                {"all_reduce", CollOp::kAllReduce},
                                                {"broadcast", CollOp::kBroadcast}};
  for (auto& [name, op] : ops) {
    for (DType t : {DType::kF32, DType::kF16}) {
      std::string suffix = std::string(name) + "/" + to_string(t);
#ifdef GPUCHECK_COLL_HAVE_MPI
      // Fixed iteration counts: every rank must run the same number of collectives.
      benchmark::RegisterBenchmark(("Mpi/" + suffix).c_str(), BM_Mpi, op, t)
          ->RangeMultiplier(8)->Range(8, 16 << 20)->Iterations(20)->UseManualTime()->Unit(benchmark::kMicrosecond);
#endif
#ifdef GPUCHECK_COLL_HAVE_NCCL
      benchmark::RegisterBenchmark(("Nccl/" + suffix).c_str(), BM_Nccl, op, t)
          ->RangeMultiplier(8)->Range(8, 1 << 30)->Iterations(20)->UseManualTime()->Unit(benchmark::kMicrosecond);
#endif
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  int rank = 0;
#ifdef GPUCHECK_COLL_HAVE_MPI
  MPI_Init(&argc, &argv);
  g_mpi = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#endif
  benchmark::Initialize(&argc, argv);
  register_all();
  gpucheck::bench::run_benchmarks_reporting_on_rank0(rank);
  benchmark::Shutdown();
#ifdef GPUCHECK_COLL_HAVE_NCCL
  nccl().t.reset();
#endif
#ifdef GPUCHECK_COLL_HAVE_MPI
  MPI_Finalize();
#endif
  return 0;
}
