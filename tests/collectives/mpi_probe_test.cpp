// The collectives.nccl probe for real: mpirun -np 2 and -np 4 on host memory over Open MPI (loopback
// only: shared-memory and self transports), a deliberately corrupted rank, a hanging rank (watchdog), the
// pairs bisection, and --transport nccl on this GPU-less machine (skip with the CUDA error).
#include <gtest/gtest.h>

#include "support/report_json.h"

#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <cstdlib>

#include "core/files.h"
#include "core/subprocess.h"

namespace {

using gpucheck::run_subprocess;
using gpucheck::SubprocessOptions;
using gpucheck::SubprocessResult;

const std::string kProbe = std::string(GPUCHECK_STAGE_PROBES) + "/collectives.nccl";

SubprocessOptions mpi_env(int timeout_s = 180) {
  SubprocessOptions so;
  so.timeout = std::chrono::seconds(timeout_s);
  so.set_env = {{"OMPI_MCA_btl", "self,vader"},
                {"OMPI_MCA_rmaps_base_oversubscribe", "1"},
                {"OMPI_ALLOW_RUN_AS_ROOT", "1"},
                {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"},
                {"OMPI_MCA_btl_vader_single_copy_mechanism", "none"}};
  return so;
}

std::string mpirun() { return gpucheck::find_in_path("mpirun"); }

SubprocessResult run_mpi(int np, std::vector<std::string> args, int timeout_s = 180) {
  std::vector<std::string> argv{mpirun(), "--allow-run-as-root", "--oversubscribe", "-np", std::to_string(np),
                                "--mca", "btl", "self,vader", kProbe, "--transport", "mpi", "--level", "quick",
                                "--json", "--layout-sizes", "7,1237,4099", "--warmup", "1", "--iters", "3"};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_subprocess(argv, mpi_env(timeout_s));
}

nlohmann::json parse_result(const SubprocessResult& r) {
  auto pos = r.out.find('{');
  if (pos == std::string::npos) {
    ADD_FAILURE() << "no JSON on stdout; " << r.describe() << "\nstderr: " << r.err;
    return nlohmann::json::object();
  }
  return nlohmann::json::parse(r.out.substr(pos));
}

double metric(const nlohmann::json& j, const std::string& name) {
  for (auto& m : j["metrics"])
    if (m["name"] == name) return m["value"].get<double>();
  ADD_FAILURE() << "no metric " << name;
  return -1;
}

class MpiProbe : public ::testing::Test {
 protected:
  void SetUp() override {
    if (mpirun().empty()) GTEST_SKIP() << "mpirun not found on PATH (install openmpi-bin)";
  }
};

const std::vector<std::string> kSmall{"--max-bytes", "64K", "--factor", "4"};

}  // namespace

TEST_F(MpiProbe, TwoAndFourRanksPassBitExact) {
  for (int np : {2, 4}) {
    auto r = run_mpi(np, kSmall);
    ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
    auto j = parse_result(r);
    EXPECT_EQ(j["status"], "pass") << j["summary"];
    EXPECT_EQ(metric(j, "wrong_elements"), 0);
    EXPECT_GT(metric(j, "checked_elements"), 1e5);
    EXPECT_EQ(j["details"]["world"], np);
    ASSERT_EQ(j["devices"].size(), static_cast<std::size_t>(np));
    for (int k = 0; k < np; ++k) {
      EXPECT_EQ(j["devices"][k]["status"], "pass");
      EXPECT_EQ(gpucheck::testing::evidence_of(j["devices"][k], "rank"), std::to_string(k));
      EXPECT_FALSE(gpucheck::testing::evidence_of(j["devices"][k], "host").empty());
    }
    // every sweep row was run on every rank and has nccl-tests' numbers
    std::size_t timed = 0;
    for (auto& row : j["details"]["rows"]) {
      EXPECT_EQ(row["ranks"], np) << row["key"];
      EXPECT_EQ(row["wrong"], 0) << row["key"];
      if (row.contains("busbw_gbps")) {
        ++timed;
        double factor = row["op"] == "all_reduce" ? 2.0 * (np - 1) / np : row["op"] == "broadcast" ? 1.0 : (np - 1.0) / np;
        EXPECT_NEAR(row["busbw_gbps"].get<double>(), row["algbw_gbps"].get<double>() * factor, 1e-9);
      }
    }
    EXPECT_EQ(timed, 3u * 4 * 7 * 2 + 2);  // 7 sizes (8 B..32 KiB) + the two grouped layout gathers
    EXPECT_FALSE(j["details"]["plateau"].empty());
    EXPECT_NE(j["summary"].get<std::string>().find("plateau busbw"), std::string::npos);
  }
}

TEST_F(MpiProbe, DetailsMatchTheirJsonSchema) {
  auto r = run_mpi(2, {"--max-bytes", "256", "--factor", "16", "--dtypes", "fp16,fp32", "--corrupt-rank", "1"});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  auto j = parse_result(r);
  std::string doc = ::testing::TempDir() + "/collectives-details.json";
  gpucheck::write_file_atomic(doc, j["details"].dump());
  std::string python = gpucheck::find_in_path("python3");
  if (python.empty()) GTEST_SKIP() << "python3 not found";
  auto v = run_subprocess({python, "-c",
                           "import json,sys\n"
                           "try:\n import jsonschema\nexcept ImportError:\n print('no jsonschema'); sys.exit(77)\n"
                           "jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))\n",
                           std::string(GPUCHECK_SOURCE_DIR) + "/reports/schema/collectives.details.schema.json", doc});
  if (v.exit_code == 77) GTEST_SKIP() << "python3 has no jsonschema (apt-get install python3-jsonschema)";
  EXPECT_TRUE(v.ok()) << v.describe() << "\n" << v.err;
}

TEST_F(MpiProbe, CorruptedRankGivesWrongElementsAndFail) {
  auto r = run_mpi(4, {"--max-bytes", "16K", "--factor", "8", "--corrupt-rank", "1"});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  auto j = parse_result(r);
  EXPECT_EQ(j["status"], "fail");
  EXPECT_GT(metric(j, "wrong_elements"), 0);
  EXPECT_NE(j["summary"].get<std::string>().find("#wrong"), std::string::npos) << j["summary"];
  // all-gather: every rank receives rank 1's bad block; reduce-scatter: the bad sums land on their owners
  bool saw_gather = false;
  for (auto& row : j["details"]["rows"]) {
    if (row["key"].get<std::string>().rfind("sweep.all_gather.fp32", 0) == 0 && row["count"].get<int>() >= 8) {
      saw_gather = true;
      EXPECT_GT(row["wrong"].get<int>(), 0);
      EXPECT_EQ(row["first_bad_rank"], 0);
      EXPECT_EQ(row["first_bad_index"].get<int>(), row["count"].get<int>() + 5);  // rank 1's block, element 5
      ASSERT_EQ(row["wrong_by_rank"].size(), 4u);  // every rank gathered the bad block
      for (int k = 0; k < 4; ++k) EXPECT_EQ(row["wrong_by_rank"][k]["rank"], k);
    }
    if (row["op"] == "broadcast") {
      EXPECT_EQ(row["wrong"], 0) << "roots are 0 and 3, rank 1 is not read";
    }
  }
  EXPECT_TRUE(saw_gather);
}

TEST_F(MpiProbe, HangingRankTripsTheWatchdog) {
  auto r = run_mpi(2, {"--max-bytes", "1K", "--timeout", "2", "--hang-rank", "1"}, 60);
  EXPECT_FALSE(r.timed_out) << "the probe itself must not hang";
  EXPECT_LT(r.elapsed_s, 30);
  auto j = parse_result(r);
  EXPECT_EQ(j["status"], "fail");
  EXPECT_NE(j["summary"].get<std::string>().find("timeout: all_gather"), std::string::npos) << j["summary"];
  EXPECT_NE(r.exit_code, 0) << "the job is ended with MPI_Abort";
  EXPECT_NE(r.err.find("rank 0: timeout"), std::string::npos) << r.err;
}

TEST_F(MpiProbe, PairsFindTheCorruptRank) {
  // --node-key rank: each rank is its own "node", so 4 ranks on one host give 6 pairs.
  auto ok = run_mpi(4, {"--pairs", "all", "--node-key", "rank", "--max-bytes", "4K", "--factor", "8", "--dtypes", "fp32"});
  ASSERT_TRUE(ok.ok()) << ok.describe() << "\n" << ok.err;
  auto j = parse_result(ok);
  EXPECT_EQ(j["details"]["pairs"].size(), 6u);
  EXPECT_EQ(j["details"]["rounds"], 3);
  bool any_bad = false;
  for (auto& p : j["details"]["pairs"]) any_bad = any_bad || p["status"] == "fail";
  if (!any_bad) {
    EXPECT_EQ(j["status"], "pass") << j["summary"];
  }
  // a slow pair on a busy machine could fail the speed rule; wrong data must never appear
  for (auto& p : j["details"]["pairs"]) EXPECT_EQ(p["wrong"], 0);

  auto bad = run_mpi(4, {"--pairs", "neighbour", "--node-key", "rank", "--max-bytes", "4K", "--factor", "8",
                         "--dtypes", "fp32", "--corrupt-rank", "2"});
  ASSERT_TRUE(bad.ok()) << bad.describe() << "\n" << bad.err;
  auto b = parse_result(bad);
  EXPECT_EQ(b["status"], "fail");
  ASSERT_EQ(b["details"]["suspects"].size(), 1u) << b.dump();
  EXPECT_EQ(b["details"]["suspects"][0], "rank2");
  std::size_t wrong_pairs = 0;
  for (auto& p : b["details"]["pairs"]) wrong_pairs += p["wrong"].get<int>() > 0;
  EXPECT_EQ(wrong_pairs, 2u);  // (1,2) and (2,3)
}

TEST(CollectivesProbe, NcclTransportSkipsWithTheCudaErrorWithoutAGpu) {
  auto r = run_subprocess({kProbe, "--level", "quick", "--json"});
  ASSERT_TRUE(r.ok()) << r.describe() << r.err;
  auto j = nlohmann::json::parse(r.out);
  if (j["status"] != "skip") GTEST_SKIP() << "this machine runs NCCL: " << j["summary"];
  std::string s = j["summary"];
  EXPECT_NE(s.find("cudaGetDeviceCount failed: cudaError"), std::string::npos) << s;
  EXPECT_FALSE(gpucheck::testing::evidence_of(j, "nccl_version").empty());
}

TEST(CollectivesProbe, BadOptionIsOneLineAndExit2) {
  auto r = run_subprocess({kProbe, "--transport", "gloo"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "collectives.nccl: --transport: expected nccl or mpi, got 'gloo'\n");
  auto r2 = run_subprocess({kProbe, "--max-bytes"});
  EXPECT_EQ(r2.exit_code, 2);
}

TEST(CollectivesProbe, SingleProcessMpiTransportIsOneRank) {
  auto r = run_subprocess({kProbe, "--transport", "mpi", "--level", "quick", "--max-bytes", "4K", "--json"}, mpi_env());
  ASSERT_TRUE(r.ok()) << r.describe() << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "pass") << j["summary"];
  EXPECT_NE(j["summary"].get<std::string>().find("busbw is not meaningful"), std::string::npos);
}

TEST_F(MpiProbe, MpiScriptWritesOneMergedResult) {
  std::string out = ::testing::TempDir() + "/collectives-script.json";
  auto so = mpi_env();
  so.set_env["MPIRUN_ARGS"] = "--oversubscribe";
  so.set_env["GPUCHECK_PROBE_DIR"] = GPUCHECK_STAGE_PROBES;
  auto r = run_subprocess({std::string(GPUCHECK_SOURCE_DIR) + "/scripts/mpi/collectives.sh", "-g", "2", "-o", out, "--",
                           "--transport", "mpi", "--level", "quick", "--max-bytes", "4K"},
                          so);
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
  EXPECT_NE(r.out.find("pass  collectives.nccl"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rank 1 on"), std::string::npos) << r.out;
  auto j = nlohmann::json::parse(gpucheck::read_file(out));
  EXPECT_EQ(j["details"]["world"], 2);
  auto bad = run_subprocess({std::string(GPUCHECK_SOURCE_DIR) + "/scripts/mpi/collectives.sh", "--frobnicate"}, so);
  EXPECT_EQ(bad.exit_code, 2);
}

TEST_F(MpiProbe, SlurmBatchScriptRunsTheProbeUnderSrun) {
  // No Slurm here: a stand-in srun on PATH drops srun's own options and starts 2 ranks with mpirun.
  std::string dir = ::testing::TempDir() + "/fake-slurm";
  gpucheck::make_dirs(dir);
  gpucheck::write_file_atomic(dir + "/srun",
                              "#!/bin/sh\nwhile [ \"${1#-}\" != \"$1\" ]; do shift; done\n"
                              "exec mpirun --oversubscribe -np 2 --mca btl self,vader \"$@\"\n");
  ASSERT_EQ(::chmod((dir + "/srun").c_str(), 0755), 0);
  auto so = mpi_env();
  so.set_env["PATH"] = dir + ":" + std::string(std::getenv("PATH"));
  so.set_env["GPUCHECK_PROBE_DIR"] = GPUCHECK_STAGE_PROBES;
  so.set_env["GPUCHECK_COLLECTIVES_OUT"] = dir + "/result.json";
  so.set_env["SLURM_JOB_ID"] = "42";
  auto r = run_subprocess({"bash", std::string(GPUCHECK_SOURCE_DIR) + "/scripts/slurm/collectives.sbatch", "--transport",
                           "mpi", "--level", "quick", "--max-bytes", "1K", "--no-layout", "--dtypes", "fp32",
                           "--corrupt-rank", "1"},
                          so);
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  auto j = nlohmann::json::parse(gpucheck::read_file(dir + "/result.json"));
  EXPECT_EQ(j["status"], "fail");
  EXPECT_GT(metric(j, "wrong_elements"), 0);
  EXPECT_EQ(j["devices"].size(), 2u);
}
