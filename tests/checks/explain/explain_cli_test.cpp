// `gpucheck explain` as a user runs it: files and stdin, human and --json output, exit codes 0/1/2, and
// fixes that use an inventory (--env).
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "core/subprocess.h"

using gpucheck::run_subprocess;
using gpucheck::SubprocessOptions;
using gpucheck::SubprocessResult;

namespace {

const std::string kBin = std::string(GPUCHECK_STAGE_BIN) + "/gpucheck";
const std::string kLogs = std::string(GPUCHECK_TEST_DATA) + "/logs";

SubprocessResult run_gpucheck(std::vector<std::string> args, std::optional<std::string> stdin_data = std::nullopt) {
  args.insert(args.begin(), kBin);
  SubprocessOptions o;
  o.stdin_data = std::move(stdin_data);
  o.unset_env = {"NO_COLOR"};
  o.set_env["COLUMNS"] = "160";  // whole lines to match here; tests/cli checks the wrapping at 80 and 60
  return run_subprocess(args, o);
}

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/gpucheck-explain-XXXXXX";
    path_ = mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string file(const std::string& name, const std::string& content) const {
    std::string p = path_ + "/" + name;
    gpucheck::write_file_atomic(p, content);
    return p;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// An inventory as `gpucheck env --json` writes it: CUDA 11.8 and 12.1 toolkits, torch 2.0.1+cu118.
nlohmann::json inventory_json(bool driver_present) {
  nlohmann::json py = {{"interpreter", "/opt/conda/envs/cpm/bin/python"}, {"version", "3.10.12"},
                       {"torch_installed", true}, {"torch_version", "2.0.1+cu118"}, {"torch_cuda", "11.8"}};
  nlohmann::json driver = driver_present
                              ? nlohmann::json{{"present", true}, {"version", "535.104.05"}, {"cuda_version", 12020}}
                              : nlohmann::json{{"present", false}, {"error", "libcuda.so.1: cannot open shared object file"}};
  return {{"schema_version", "1"},
          {"driver", driver},
          {"toolkits",
           {{{"root", "/usr/local/cuda-12.1"}, {"version", "12.1.105"}, {"nvcc", "/usr/local/cuda-12.1/bin/nvcc"}},
            {{"root", "/usr/local/cuda-11.8"}, {"version", "11.8.89"}, {"nvcc", "/usr/local/cuda-11.8/bin/nvcc"}}}},
          {"pythons", {py}}};
}

// The findings of the report's "causes" section (schema 2.0: one Finding per cause).
nlohmann::json causes_of(const nlohmann::json& report) {
  for (const auto& s : report.at("sections"))
    if (s.at("name") == "causes") return s.at("findings");
  ADD_FAILURE() << "no causes section in " << report.dump().substr(0, 500);
  return nlohmann::json::array();
}

}  // namespace

TEST(ExplainCli, SeedLogHumanOutputHasVerdictEvidenceAndFix) {
  auto r = run_gpucheck({"explain", kLogs + "/cpm-bee-57-seed.log", "--no-env", "--color", "never"});
  ASSERT_TRUE(r.started) << r.spawn_error;
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("[install.setup_imports_torch]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(root cause)"), std::string::npos);
  EXPECT_NE(r.out.find("[cuda.nvcc_torch_major_mismatch] nvcc is CUDA 12.1 but torch was built with CUDA 11.8"),
            std::string::npos);
  EXPECT_NE(r.out.find("    151 | The detected CUDA version (12.1) mismatches"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fix, best first:"), std::string::npos);
  EXPECT_NE(r.out.find("\nNext step: apply the fix of [install.setup_imports_torch] above, then retry what failed\n"),
            std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\x1b["), std::string::npos) << "--color never must not colour";
}

TEST(ExplainCli, JsonFromStdinMatchesTheDocumentedShape) {
  std::string log = gpucheck::read_file(kLogs + "/cpm-bee-57-seed.log");
  auto r = run_gpucheck({"explain", "-", "--no-env", "--json"}, log);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  auto causes = causes_of(j);
  ASSERT_EQ(causes.size(), 2u);
  for (const auto& c : causes) {
    for (const char* key : {"id", "evidence", "explanation", "fixes"}) EXPECT_TRUE(c.contains(key)) << key;
    for (const char* key : {"confidence", "root", "captures", "lines"}) EXPECT_TRUE(c["details"].contains(key)) << key;
  }
  EXPECT_EQ(causes[1]["details"]["captures"]["torch_cuda"], "11.8");
  EXPECT_EQ(causes[0]["details"]["lines"].back(), 28);
  EXPECT_EQ(j["details"]["input"]["name"], "-");
}

TEST(ExplainCli, UnknownLogExitsOneAndEmptyIsNotAnError) {
  TempDir t;
  auto r = run_gpucheck({"explain", t.file("ok.log", "all 12 tests passed\nbuild finished\n"), "--no-env", "--json"});
  EXPECT_EQ(r.exit_code, 1);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(causes_of(j)[0]["id"], "unknown");
  EXPECT_EQ(causes_of(j)[0]["status"], "fail") << "not identified";
  auto e = run_gpucheck({"explain", t.file("empty.log", ""), "--no-env"});
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_NE(e.out.find("empty"), std::string::npos) << e.out;
}

TEST(ExplainCli, UnknownShowsTheLastErrorLookingLines) {
  TempDir t;
  auto r = run_gpucheck({"explain", t.file("odd.log", "step 1\nERROR: the frobnicator jammed\nstep 2\n"), "--no-env"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("      2 | ERROR: the frobnicator jammed"), std::string::npos) << r.out;
}

TEST(ExplainCli, BadInputIsOneLineAndExitTwo) {
  TempDir t, typed;
  typed.file("bad.json", R"({"signatures": [{"id": 5}]})");  // a wrongly typed signature file
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"explain", t.path() + "/does-not-exist.log", "--no-env"},
           {"explain", t.path(), "--no-env"},
           {"explain", kLogs + "/cpm-bee-57-seed.log", "--env", t.file("bad.json", "{\"truncated\": ")},
           {"explain", kLogs + "/cpm-bee-57-seed.log", "--no-env", "--signatures", t.path()},
           {"explain", kLogs + "/cpm-bee-57-seed.log", "--no-env", "--signatures", typed.path()}}) {
    auto r = run_gpucheck(args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << ": " << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  // Issue 15 item 17: an unreadable file says why (it said only "cannot read /proc/self/mem").
  auto r = run_gpucheck({"explain", "/proc/self/mem", "--no-env"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "gpucheck: cannot read /proc/self/mem: Input/output error\n");
}

TEST(ExplainCli, FixUsesTheToolkitFoundInTheInventory) {
  TempDir t;
  auto env = t.file("env.json", inventory_json(true).dump());
  auto r = run_gpucheck({"explain", kLogs + "/bmtrain-100.log", "--env", env, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto fix = causes_of(nlohmann::json::parse(r.out))[0]["fixes"];
  ASSERT_FALSE(fix.empty());
  EXPECT_EQ(fix[0]["summary"], "toolkit 11.8 found at /usr/local/cuda-11.8: run the command below and retry the install");
  EXPECT_EQ(fix[0]["commands"], nlohmann::json::array({"eval \"$(gpucheck use-cuda 11.8)\""}));  // never inside the prose
}

TEST(ExplainCli, NoDriverInTheInventoryTurnsErrorThirtyFiveIntoNoDriver) {
  TempDir t;
  auto log = kLogs + "/local-no-driver-cudagetdevicecount.log";
  auto alone = run_gpucheck({"explain", log, "--no-env", "--json"});
  EXPECT_EQ(causes_of(nlohmann::json::parse(alone.out))[0]["id"], "driver.too_old_for_torch");
  auto with_env = run_gpucheck({"explain", log, "--env", t.file("env.json", inventory_json(false).dump()), "--json"});
  ASSERT_EQ(with_env.exit_code, 0) << with_env.err;
  auto j = nlohmann::json::parse(with_env.out);
  EXPECT_EQ(causes_of(j)[0]["id"], "driver.missing");
  EXPECT_EQ(causes_of(j)[0]["details"]["lines"][0], 1);
}

TEST(ExplainCli, NothingInTheLogIsExecuted) {
  TempDir t;
  std::string marker = t.path() + "/pwned";
  std::string log = "$(touch " + marker + ")\n`touch " + marker + "`\nERROR: No matching distribution found for $(touch " +
                    marker + ")\n";
  auto r = run_gpucheck({"explain", t.file("evil.log", log), "--no-env"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(marker));
  EXPECT_NE(r.out.find("$(touch"), std::string::npos) << "captured text is shown verbatim";
}

// The fixes target the environment the log ran in (issue 31): a venv the log prints whose bin/python exists
// here is judged as --python would be; one that is not here is named, with the Python the fixes assume.
TEST(ExplainCli, FixesTargetTheVenvNamedInTheLog) {
  TempDir t;
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(120);
  auto mk = run_subprocess({"python3", "-m", "venv", "--without-pip", t.path() + "/venv"}, o);
  if (!mk.ok()) GTEST_SKIP() << "python3 -m venv failed: " << mk.err;
  const std::string line = "/lib/python3.11/site-packages/torch/include/ATen/ATen.h:5:2: error: #error C++20 or "
                           "later compatible compiler is required to use ATen.\nninja: build stopped: subcommand failed.\n";
  auto here = run_gpucheck({"explain", t.file("here.log", t.path() + "/venv" + line), "--json"});
  ASSERT_EQ(here.exit_code, 0) << here.err;
  auto j = nlohmann::json::parse(here.out);
  auto causes = causes_of(j);
  ASSERT_FALSE(causes.empty());
  EXPECT_EQ(causes[0]["id"], "torch-headers-need-newer-cxx");
  ASSERT_FALSE(causes[0]["fixes"].empty());
  EXPECT_EQ(causes[0]["fixes"][0]["commands"][0], t.path() + "/venv/bin/python -m pip install 'torch<2.13'")
      << causes[0]["fixes"].dump(1);
  EXPECT_NE(here.out.find("the fixes target " + t.path() + "/venv/bin/python, the environment the log names"),
            std::string::npos) << here.out.substr(0, 3000);

  auto away = run_gpucheck({"explain", t.file("away.log", "/nonexistent/gpucheck/venv" + line), "--json"});
  ASSERT_EQ(away.exit_code, 0) << away.err;
  EXPECT_NE(away.out.find("the log names the environment /nonexistent/gpucheck/venv, which is not on this machine"),
            std::string::npos) << away.out.substr(0, 3000);
}
