// collectives.nccl: BMTrain's collectives, bit-exact, with nccl-tests' bandwidth metrics.
//   --transport nccl (default): every local GPU in one process, or one process per GPU under mpirun/srun.
//   --transport mpi: the same checks on host memory over Open MPI (runs anywhere; what CI tests).
// Rank 0 writes the merged result; other ranks only take part. See docs/collectives.md.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <thread>

#include <unistd.h>  // environ (g++ defines _GNU_SOURCE)

#include <fmt/format.h>

#include "collectives/harness.h"
#include "collectives/known_bugs.h"
#include "collectives/merge.h"
#include "collectives/options.h"
#include "collectives/pairs.h"
#include "collectives/plan.h"
#include "core/errors.h"
#include "core/json_input.h"
#include "core/paths.h"
#include "core/regular_file.h"
#include "core/text.h"
#include "probe/probe.h"

#ifdef GPUCHECK_COLL_HAVE_MPI
#include "mpi_transport.h"
#endif
#ifdef GPUCHECK_COLL_HAVE_NCCL
#include "nccl_loader.h"
#include "nccl_transport.h"
#endif

namespace {

using namespace gpucheck;
using namespace gpucheck::collectives;

// Started by mpirun (Open MPI) or srun with PMI/PMIx: one process per rank.
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"})
    if (std::getenv(v)) return true;
  return false;
}

struct JobState {
  bool multi_process = false;
  bool abort_job = false;  // a rank stopped (timeout, error): the job cannot finish its collectives
};

std::unique_ptr<Transport> make_transport(const Options& o, JobState& job, Finding& r) {
  if (o.transport == "mpi") {
#ifdef GPUCHECK_COLL_HAVE_MPI
    return std::make_unique<MpiTransport>(MPI_COMM_WORLD);
#else
    probe::skip(r, "--transport mpi: this build has no MPI (Open MPI was not found at configure time)");
    return nullptr;
#endif
  }
#ifdef GPUCHECK_COLL_HAVE_NCCL
  if (std::string why = load_nccl(); !why.empty()) {
    r.add_fix("install NCCL where this probe finds it: torch's CUDA wheels bring it (nvidia-nccl-cu*) into "
              "the environment gpucheck is installed in; or NCCL system-wide, or its folder on LD_LIBRARY_PATH");
    probe::skip(r, "NCCL collectives cannot run here: " + why);
    return nullptr;
  }
  {
    // Which libnccl the loader picked (a wheel's nvidia/nccl/lib/libnccl.so.2, the toolkit's, the system's)
    // and whether it is the version the probe was compiled against.
    NcclLoaded n = nccl_loaded();
    r.evidence["nccl_version"] = n.version;
    r.evidence["nccl_header_version"] = n.header_version;
    r.evidence["nccl_library"] = n.path.empty() ? "unknown (dladdr found no file)" : n.path;
  }
  try {
#ifdef GPUCHECK_COLL_HAVE_MPI
    if (job.multi_process) return NcclTransport::create_per_process(MPI_COMM_WORLD, o.timeout_s);
#endif
    (void)job;
    return NcclTransport::create_single_process(o.timeout_s);
  } catch (const NcclUnavailable& e) {
    r.add_fix("run on a node with an NVIDIA driver and GPU; `gpucheck run --only device.runtime` shows why "
                       "CUDA cannot reach one. The host path runs anywhere: --transport mpi");
    probe::skip(r, std::string("NCCL collectives cannot run here: ") + e.what());
    return nullptr;
  } catch (const std::runtime_error& e) {
    // There is a GPU but NCCL cannot build a communicator (or the watchdog fired during it): a broken stack.
    r.status = Status::kFail;
    r.summary = std::string("NCCL communicator initialisation failed: ") + e.what();
    r.add_fix("rerun with NCCL_DEBUG=INFO to see which transport or device NCCL rejected");
    job.abort_job = job.multi_process;
    return nullptr;
  }
#else
  (void)job;
  probe::skip(r, "--transport nccl: this build has no NCCL/CUDA (not found at configure time); --transport mpi runs");
  return nullptr;
#endif
}

// NCCL's tuning variables change algorithms and protocols; a result is only comparable with them known.
void record_nccl_environment(Finding& r) {
  for (char** e = environ; e && *e; ++e) {
    std::string kv = *e;
    if (kv.rfind("NCCL_", 0) != 0) continue;
    auto eq = kv.find('=');
    r.evidence["env." + kv.substr(0, eq)] = eq == std::string::npos ? "" : kv.substr(eq + 1);
  }
}

// Wrong data whose pattern is a known NCCL bug of the loaded version: the failure stays (the data is wrong
// for whatever calls NCCL this way, torch included) and names the bug and its fixed release first.
void name_known_bug(int world, Finding& r) {
  nlohmann::json catalog;
  try {
    catalog = parse_json_input(read_regular_file(data_path("collectives/known_bugs.json"), 1 << 20),
                               "collectives/known_bugs.json");
  } catch (const std::exception& e) {
    std::cerr << probe::kId << ": known NCCL bugs not consulted: " << e.what() << "\n";
    return;
  }
  const std::string version = r.evidence.count("nccl_version") ? r.evidence.at("nccl_version") : std::string();
  auto bug = match_known_bug(catalog, r.details.value("rows", nlohmann::json::array()), world, version);
  if (!bug) return;
  r.summary += fmt::format("; known NCCL bug {} ({}), fixed in NCCL {}", bug->id, bug->sources.front(), bug->fixed_in);
  r.evidence["known_bug"] = bug->title + ": " + bug->why;
  r.evidence["known_bug_sources"] = join(bug->sources, " ");
  Fix f;
  f.summary = fmt::format("NCCL {} has a known bug ({}): use NCCL {} or newer (for torch's NCCL, the "
                          "nvidia-nccl wheel of that version in the environment that runs the job), or avoid the "
                          "pattern the wrong cases show", version, bug->title, bug->fixed_in);
  r.fixes.insert(r.fixes.begin(), f);
  for (std::size_t i = 0; i < r.fixes.size(); ++i) r.fixes[i].rank = static_cast<int>(i + 1);
}

void execute(const Options& o, JobState& job, Finding& r) {
  auto t = make_transport(o, job, r);
  if (!t) return;
  r.evidence["level"] = o.level;
  record_nccl_environment(r);
  if (o.pairs != PairsMode::kOff) {
    run_pairs(*t, o, r);
    return;
  }
  if (o.hang_rank && t->local_count() > 1)
    throw InputError("--hang-rank needs one process per rank (mpirun/srun)");
  auto plan = make_plan(o, t->world());
  // Each case is a named phase: a collective that never completes is reported with its label, the GPUs
  // and ranks of this process (the runner names it when it has to kill the probe).
  std::vector<int> ranks, gpus;
  for (int l = 0; l < t->local_count(); ++l) {
    RankInfo info = t->info(l);
    ranks.push_back(info.rank);
    int gpu = -1;
    if (std::sscanf(info.device.c_str(), "GPU %d", &gpu) == 1) gpus.push_back(gpu);
  }
  Options with_phases = o;
  with_phases.on_phase = [&](const std::string& what) { probe::phase(what, gpus, ranks); };
  auto reports = run_plan(*t, plan, with_phases);
  bool stopped = false;
  for (auto& rep : reports) stopped = stopped || !rep.error.empty();
  if (stopped) {
    for (auto& rep : reports) std::cerr << probe::kId << ": rank " << rep.info.rank << ": " << rep.error << "\n";
    t->abort();
    job.abort_job = job.multi_process;
    // The other ranks may be stuck: this process reports what it saw, without gathering.
    merge_into_result(reports, plan, o, t->name(), t->world(), r);
    return;
  }
  nlohmann::json mine = nlohmann::json::array();
  for (auto& rep : reports) mine.push_back(to_json(rep));
  auto gathered = t->gather_to_root(mine.dump());
  if (!t->is_root_process()) return;
  std::vector<RankReport> all;
  for (auto& s : gathered)
    for (auto& j : nlohmann::json::parse(s)) all.push_back(rank_report_from_json(j));
  merge_into_result(all, plan, o, t->name(), t->world(), r);
  if (r.status == Status::kFail && t->name() == "nccl") name_known_bug(t->world(), r);
  if (o.print_table) std::cerr << r.details["table"].get<std::string>();
}

}  // namespace

int main(int argc, char** argv) {
  // Options first, so a bad flag is one line and exit 2 before any MPI or CUDA start-up.
  std::string level = "standard";
  std::vector<std::string> extra;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--result-fd" && i + 1 < argc) ++i;
    else if (a == "--level" && i + 1 < argc) level = argv[++i];
    else if (a != "--json") extra.push_back(a);
  }
  Options o;
  try {
    o = parse_options(extra, level);
  } catch (const InputError& e) {
    std::cerr << probe::kId << ": " << e.what() << "\n";
    return kExitUsage;
  }

  JobState job;
  int rank = 0;
  bool use_mpi = false;
#ifdef GPUCHECK_COLL_HAVE_MPI
  use_mpi = o.transport == "mpi" || launched_by_mpi();
  if (use_mpi) {
    MPI_Init(&argc, &argv);
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    job.multi_process = size > 1;
  }
#endif
  auto body = [&](const probe::Context&, Finding& r) { execute(o, job, r); };
  int rc = 0;
  if (rank == 0) {
    rc = probe::run(argc, argv, body);
  } else {
    Finding r;
    try {
      body(probe::Context{}, r);
    } catch (const std::exception& e) {
      std::cerr << probe::kId << ": rank " << rank << ": " << e.what() << "\n";
      job.abort_job = job.multi_process;
    }
  }
  std::cout.flush();
#ifdef GPUCHECK_COLL_HAVE_MPI
  if (use_mpi) {
    if (job.abort_job) {
      // Rank 0 ends the job as soon as its result is written; another rank that stopped gives rank 0 its own
      // watchdog period first, so its MPI_Abort does not kill rank 0 before the result is out.
      if (rank != 0) std::this_thread::sleep_for(std::chrono::duration<double>(o.timeout_s + 5));
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Finalize();
  }
#endif
  (void)use_mpi;
  return rc;
}
