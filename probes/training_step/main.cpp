// training.step: BMTrain's ZeRO-3 training step end to end (all-gather, forward, cross-entropy with the
// loss scale, backward, reduce-scatter, inf/NaN skip, fused Adam on each rank's partition), every stage
// checked against double precision from its own inputs and every step against a single-process double
// reference of the same steps. See docs/kernels.md "training.step".
//   With GPUs, the GPU path: this probe starts itself under mpirun, one rank per local GPU, over NCCL with
//   the CUDA kernels and cuBLASLt GEMMs (--transport nccl).
//   Without a GPU, the host path: under mpirun at -np 2, then -np 4 (--ranks), one rank per process on
//   host memory over Open MPI (loopback transports only), the kernels' shared element code on the CPU
//   (--transport mpi). The hostsim build (tests/hostsim) runs the CUDA kernels themselves there.
//   Under mpirun/srun it is one rank of the job; rank 0 writes the result.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/paths.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "probe/probe.h"
#include "step_report.h"

#ifdef GPUCHECK_TRAINING_HAVE_MPI
#include "mpi_transport.h"
#endif
#if defined(GPUCHECK_TRAINING_HAVE_CUDA) || defined(GPUCHECK_TRAINING_HOSTSIM)
#include "common/cuda_support.h"
#include "cuda_step_kernels.h"
#endif
#if defined(GPUCHECK_TRAINING_HAVE_CUDA) && defined(GPUCHECK_COLL_HAVE_NCCL)
#define GPUCHECK_TRAINING_GPU_PATH 1
#include "cublaslt_gemm.h"
#include "nccl_loader.h"
#include "nccl_transport.h"
#endif

namespace {

using namespace gpucheck;
using namespace gpucheck::training;

struct Options {
  std::string level = "standard";
  std::string transport = "auto";  // auto | mpi | nccl
  std::vector<Dtype> dtypes{Dtype::kFp16, Dtype::kBf16};
  std::vector<int> worlds{2, 4};
  int steps = 0;  // 0: the level's
  Injection inject = Injection::kNone;
  int inject_step = 2, inject_rank = 0;
  double timeout_s = 60;  // watchdog of each collective
  std::vector<std::string> forwarded;  // what a launched rank gets again
};

int to_int(const std::string& flag, const std::string& v, int lo, int hi) {
  int x = 0;
  std::size_t used = 0;
  try {
    x = std::stoi(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != v.size() || x < lo || x > hi) throw InputError(fmt::format("{} {}: expected {}..{}", flag, v, lo, hi));
  return x;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw InputError(a + " needs a value");
      return argv[++i];
    };
    if (a == "--json") continue;
    if (a == "--result-fd") {
      value();
      continue;
    }
    if (a == "--level") {
      o.level = value();
      continue;
    }
    if (a == "--transport") {
      o.transport = value();
      if (o.transport != "auto" && o.transport != "mpi" && o.transport != "nccl")
        throw InputError("--transport " + o.transport + ": expected auto, mpi or nccl");
      continue;
    }
    if (a == "--ranks") {
      o.worlds.clear();
      for (auto& w : split(value(), ',')) o.worlds.push_back(to_int("--ranks", w, 1, 64));
      continue;
    }
    std::string v = value();
    if (a == "--dtypes") {
      o.dtypes.clear();
      for (auto& d : split(v, ',')) {
        if (d == "fp16") o.dtypes.push_back(Dtype::kFp16);
        else if (d == "bf16") o.dtypes.push_back(Dtype::kBf16);
        else throw InputError("--dtypes " + v + ": expected fp16 and/or bf16");
      }
    } else if (a == "--steps") {
      o.steps = to_int(a, v, 1, 1000);
    } else if (a == "--inject") {
      o.inject = parse_injection(v);
    } else if (a == "--inject-step") {
      o.inject_step = to_int(a, v, 1, 1000);
    } else if (a == "--inject-rank") {
      o.inject_rank = to_int(a, v, 0, 63);
    } else if (a == "--collective-timeout") {
      o.timeout_s = to_int(a, v, 1, 3600);
    } else {
      throw InputError("unknown option " + a + " (training.step takes --steps, --dtypes, --ranks, --transport, "
                       "--inject, --inject-step, --inject-rank, --collective-timeout)");
    }
    o.forwarded.push_back(a);
    o.forwarded.push_back(v);
  }
  config_for_level(o.level);  // validates the level
  if (o.dtypes.empty() || o.worlds.empty()) throw InputError("--dtypes and --ranks need at least one value");
  return o;
}

StepConfig config(const Options& o, Dtype d) {
  StepConfig c = config_for_level(o.level);
  c.dtype = d;
  if (o.steps) c.steps = o.steps;
  if (c.overflow_step > c.steps) c.overflow_step = 0;
  c.inject = o.inject, c.inject_step = o.inject_step, c.inject_rank = o.inject_rank;
  return c;
}

bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"})
    if (std::getenv(v)) return true;
  return false;
}

#ifdef GPUCHECK_TRAINING_HAVE_MPI
// The kernels a rank of the host path computes with.
std::unique_ptr<StepKernels> host_kernels() {
#ifdef GPUCHECK_TRAINING_HOSTSIM
  return std::make_unique<CudaStepKernels>();  // the CUDA kernels, executed by hostsim on the CPU
#else
  return std::make_unique<HostStepKernels>();
#endif
}

// This process is one rank of an MPI job: every dtype's steps, then rank 0 merges the ranks' outcomes.
void run_rank(const Options& o, collectives::Transport& t, StepKernels& k, Finding& r, bool& failed) {
  if (t.local_count() != 1) throw InputError("training.step needs one rank per process");
  if (o.inject_rank >= t.world())
    throw InputError(fmt::format("--inject-rank {} needs at least {} ranks", o.inject_rank, o.inject_rank + 1));
  std::vector<DtypeOutcome> outcomes;
  for (Dtype d : o.dtypes) {
    DtypeOutcome out;
    out.config = config(o, d);
    out.reference = run_reference(out.config, t.world());
    probe::phase(fmt::format("{} ZeRO-3 steps, {}", out.config.steps, kernels::to_string(d)), {}, {t.info(0).rank});
    RankOutcome mine;
    try {
      mine = run_zero_steps(out.config, t, k, out.reference, o.timeout_s);
    } catch (const std::exception&) {
      failed = true;  // a collective timed out or failed: the other ranks cannot finish theirs
      throw;
    }
    auto gathered = t.gather_to_root(nlohmann::json(mine).dump());
    for (auto& s : gathered) out.ranks.push_back(nlohmann::json::parse(s).get<RankOutcome>());
    outcomes.push_back(std::move(out));
  }
  if (!t.is_root_process()) return;
  fill_world_result(outcomes, t.world(), t.name(), r);
  r.evidence["kernels"] = k.name();
  r.evidence["device"] = t.info(0).device;
}

// Rank of a job over NCCL (one GPU per process) or MPI on host memory; `auto` (started by hand under
// mpirun/srun) is NCCL where a GPU is usable.
void run_rank_on_transport(const Options& o, Finding& r, bool& failed) {
  bool nccl = o.transport == "nccl";
#ifdef GPUCHECK_TRAINING_GPU_PATH
  if (o.transport == "auto") nccl = !kernels::cuda_unavailable_reason();
#endif
  if (nccl) {
#ifdef GPUCHECK_TRAINING_GPU_PATH
    if (auto no_gpu = kernels::cuda_unavailable_reason()) {
      probe::skip(r, "--transport nccl: no GPU (" + *no_gpu + ")");
      return;
    }
    if (std::string why = collectives::load_nccl(); !why.empty()) {
      probe::skip(r, "the GPU path needs NCCL: " + why);
      return;
    }
    std::string why;
    auto gemm = CublasLtGemm::create(why);
    if (!gemm) {
      probe::skip(r, "the GPU path needs cuBLASLt: " + why);
      return;
    }
    std::unique_ptr<collectives::Transport> t;
    try {
      t = collectives::NcclTransport::create_per_process(MPI_COMM_WORLD, o.timeout_s);
    } catch (const collectives::NcclUnavailable& e) {
      probe::skip(r, std::string("NCCL cannot run here: ") + e.what());
      return;
    }
    CudaStepKernels k(std::move(gemm));
    run_rank(o, *t, k, r, failed);
    return;
#else
    throw InputError("--transport nccl: this build has no NCCL/CUDA GPU path");
#endif
  }
  collectives::MpiTransport t(MPI_COMM_WORLD);
  auto k = host_kernels();
  run_rank(o, t, *k, r, failed);
}
#endif

// Not under MPI: starts this probe under mpirun once per world size and merges their results.
// `why`: why this path runs ("no GPU (<CUDA error>)", "--transport mpi", "4 GPUs"); `transport`: the
// ranks' --transport.
void launch_worlds(const Options& o, const std::vector<int>& world_sizes, const std::string& transport,
                   const std::string& why, Finding& r) {
  const std::string mpirun = find_in_path("mpirun");
  if (mpirun.empty()) {
    probe::skip(r, why + " and no MPI launcher: the " + (transport == "nccl" ? "GPU" : "host") +
                       " path runs the ranks under mpirun, which is not on PATH (install Open MPI: openmpi-bin)");
    return;
  }
  std::vector<std::pair<int, Finding>> worlds;
  for (int w : world_sizes) {
    // Loopback only (shared memory and self): the probe never uses the network.
    std::vector<std::string> argv{mpirun, "-np", std::to_string(w), "--oversubscribe", "--bind-to", "none",
                                  "--mca", "btl", "self,vader", "--mca", "btl_vader_single_copy_mechanism", "none"};
    if (geteuid() == 0) argv.push_back("--allow-run-as-root");
    for (auto& a : std::vector<std::string>{self_executable(), "--level", o.level, "--transport", transport, "--json"})
      argv.push_back(a);
    argv.insert(argv.end(), o.forwarded.begin(), o.forwarded.end());
    SubprocessOptions so;
    // Long at np=4 takes ~100 s of this probe on 2 busy cores; a hung rank is the watchdog's to report.
    so.timeout = std::chrono::milliseconds(static_cast<long>((o.timeout_s * 6 + 60) * 1000));
    probe::phase(fmt::format("mpirun -np {} training.step --transport {}", w, transport));
    auto res = run_subprocess(argv, so);
    std::cerr << res.err;  // the ranks' own diagnostics (hostsim's findings among them)
    Finding f;
    auto brace = res.out.find('{');
    try {
      if (brace == std::string::npos) throw std::runtime_error("no result on stdout");
      f = nlohmann::json::parse(res.out.substr(brace)).get<Finding>();
    } catch (const std::exception& e) {
      f.status = Status::kError;
      f.summary = fmt::format("mpirun -np {}: {} ({}); stderr: {}", w, e.what(), res.describe(),
                              res.err.substr(res.err.size() > 600 ? res.err.size() - 600 : 0));
    }
    if (f.status == Status::kSkip && !res.ok()) f.status = Status::kError;
    worlds.emplace_back(w, std::move(f));
  }
  merge_worlds(worlds, r);
}

void execute(const Options& o, Finding& r) {
#if defined(GPUCHECK_TRAINING_HOSTSIM)
  std::optional<std::string> no_gpu = std::string("the hostsim build runs the CUDA kernels on the CPU");
#elif defined(GPUCHECK_TRAINING_HAVE_CUDA)
  std::optional<std::string> no_gpu = kernels::cuda_unavailable_reason();
#else
  std::optional<std::string> no_gpu = std::string("this build has no CUDA");
#endif
  if (!no_gpu && o.transport != "mpi") {
#ifdef GPUCHECK_TRAINING_GPU_PATH
    int gpus = 0;
    kernels::cuda_check(cudaGetDeviceCount(&gpus), "cudaGetDeviceCount");
    launch_worlds(o, {gpus}, "nccl", fmt::format("{} GPU(s)", gpus), r);
#else
    probe::skip(r, "a GPU is usable, but this build has no NCCL for the GPU path; --transport mpi runs the "
                   "host path");
#endif
    return;
  }
#ifdef GPUCHECK_TRAINING_HAVE_MPI
  launch_worlds(o, o.worlds, "mpi", no_gpu ? "no GPU (" + *no_gpu + ")" : std::string("--transport mpi"), r);
#else
  probe::skip(r, fmt::format("no GPU ({}) and no MPI: this build has no Open MPI (not found at configure time) "
                             "for the host path", no_gpu ? *no_gpu : "--transport mpi"));
#endif
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const InputError& e) {
    std::cerr << probe::kId << ": " << e.what() << "\n";
    return kExitUsage;
  }
#ifdef GPUCHECK_TRAINING_HAVE_MPI
  if (launched_by_mpi()) {
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    bool failed = false;
    int rc = 0;
    {
      auto body = [&](const probe::Context&, Finding& r) { run_rank_on_transport(o, r, failed); };
      if (rank == 0) {
        rc = probe::run(argc, argv, body);
      } else {
        Finding r;
        try {
          body(probe::Context{}, r);
        } catch (const std::exception& e) {
          std::cerr << probe::kId << ": rank " << rank << ": " << e.what() << "\n";
          failed = true;
        }
      }
      std::cout.flush();
      if (failed) {
        // Rank 0 writes its result first; a stopped rank gives it the watchdog period before ending the job.
        if (rank != 0) std::this_thread::sleep_for(std::chrono::duration<double>(o.timeout_s + 5));
        MPI_Abort(MPI_COMM_WORLD, 3);
      }
    }
    MPI_Finalize();
    return rc;
  }
#endif
  (void)launched_by_mpi;
  return probe::run(argc, argv, [&](const probe::Context&, Finding& r) { execute(o, r); });
}
