// Issue 35's screens and commands: the ETA from what each probe took here before, commands printed for the
// user runnable as gpucheck was started (PATH, uvx), use-cuda's ways to get a missing toolkit, list's columns.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli/progress.h"
#include "cli_support.h"
#include "commands/run_history.h"
#include "core/files.h"
#include "core/text.h"
#include "platform/environment.h"
#include "platform/invocation.h"

namespace gpucheck::test {
namespace {

namespace fs = std::filesystem;

TEST(EverydayScreens, EtaFollowsWhatEachProbeTookBefore) {
  // Timeouts 60, 300, 10 s; last time here the probes took 2, 7 and 2 s.
  cli::Progress recorded(false, false, true, false, {60, 300, 10}, {2, 7, 2});
  EXPECT_EQ(recorded.eta(0, 1.0), "ETA ~10s");  // 1 s left of the first, then 7 + 2
  EXPECT_EQ(recorded.eta(1, 3.0), "ETA ~6s");
  // The probe runs past what it took before (7 s): the rest after it, never "~0s" for the whole.
  EXPECT_EQ(recorded.eta(1, 9.0), "ETA ~2s after this probe");
  // No record and nothing finished: only the timeouts, said as a bound.
  cli::Progress fresh(false, false, true, false, {60, 300, 10});
  EXPECT_EQ(fresh.eta(0, 5.0), "at most 6m05s left");
  // Records for some: the others still bound it.
  cli::Progress some(false, false, true, false, {60, 300, 10}, {2, 0, 2});
  EXPECT_EQ(some.eta(0, 1.0), "at most 5m03s left");
}

TEST(EverydayScreens, RecordedDurationsAreThisHostsLastRunAtThatLevel) {
  auto dir = fresh_temp_dir("history");
  auto run = gpucheck({"run", "--only", "host.info", "--level", "quick", "--report-dir", dir.string()});
  ASSERT_NE(run.exit_code, 2) << run.err;
  const std::string host = platform::hostname();
  // Files that are no report of this host are passed over, never an error.
  write_file_atomic((dir / (host + "-20991231T000000Z.json")).string(), "not json");
  write_file_atomic((dir / ("x" + host + "-20991231T000000Z.json")).string(), "{}");
  auto took = commands::recorded_durations(dir.string(), host, "quick");
  ASSERT_EQ(took.size(), 1u);
  // The duration is the one in the report the run wrote.
  std::string written;
  for (auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string() != host + "-20991231T000000Z.json" && starts_with(e.path().filename().string(), host + "-"))
      written = e.path().string();
  auto doc = read_json_file(written);
  double in_report = 0;
  for (auto& s : doc["sections"])
    for (auto& f : s["findings"])
      if (f["id"] == "host.info") in_report = f["duration_s"].get<double>();
  EXPECT_GT(in_report, 0);
  EXPECT_DOUBLE_EQ(took.at("host.info"), in_report);
  EXPECT_TRUE(commands::recorded_durations(dir.string(), host, "standard").empty());  // another level
  EXPECT_TRUE(commands::recorded_durations((dir / "none").string(), host, "quick").empty());
  fs::remove_all(dir);
}

fs::path make_executable(const fs::path& p) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << "#!/bin/sh\n";
  fs::permissions(p, fs::perms::owner_all);
  return p;
}

TEST(EverydayScreens, CommandPrefixRunsThisGpucheckFromTheUsersShell) {
  auto dir = fresh_temp_dir("invocation");
  const fs::path self = make_executable(dir / "venv/bin/gpucheck");
  const fs::path other = make_executable(dir / "elsewhere/gpucheck");
  platform::Invocation in;
  in.self_exe = self.string();
  in.argv0 = "gpucheck";
  in.path = (dir / "venv/bin").string() + ":/usr/bin";
  EXPECT_EQ(platform::command_prefix(in), "gpucheck");  // PATH finds this one
  in.path = (dir / "elsewhere").string() + ":" + (dir / "venv/bin").string();
  EXPECT_EQ(platform::command_prefix(in), self.string());  // PATH finds another one first
  in.path = "/usr/bin";
  EXPECT_EQ(platform::command_prefix(in), self.string());  // not on PATH at all
  in.argv0 = "./venv/bin/gpucheck";
  EXPECT_EQ(platform::command_prefix(in), "./venv/bin/gpucheck");  // a path, as typed
  // Started by uv (uvx --from FILE gpucheck): the wheel its dist-info names, while it exists.
  in.argv0 = "gpucheck";
  in.path = (dir / "venv/bin").string();
  in.under_uv = true;
  EXPECT_EQ(platform::command_prefix(in), self.string());  // no dist-info: the executable itself
  const fs::path wheel = dir / "dist/gpucheck-0.9.0-py3-none-manylinux_2_28_x86_64.whl";
  fs::create_directories(wheel.parent_path());
  std::ofstream(wheel) << "PK";
  const fs::path info = dir / "venv/lib/python3.12/site-packages/gpucheck-0.9.0.dist-info";
  fs::create_directories(info);
  std::ofstream(info / "direct_url.json") << nlohmann::json{{"url", "file://" + wheel.string()}, {"archive_info", nlohmann::json::object()}}.dump();
  EXPECT_EQ(platform::command_prefix(in), "uvx --from " + wheel.string() + " gpucheck");
  fs::remove(wheel);
  EXPECT_EQ(platform::command_prefix(in), self.string());  // the wheel is gone: uvx --from it would fail
  (void)other;
  fs::remove_all(dir);
}

TEST(EverydayScreens, TheNextStepUsesThePrefixTheUserCanRun) {
  // The real binary, started by its bare name from a PATH that has it (as pipx's ~/.local/bin), then from a
  // PATH that has another gpucheck first: the next step names the one that ran.
  auto dir = fresh_temp_dir("next-step");
  fs::create_directories(dir / "bin");
  fs::create_symlink(gpucheck_binary(), dir / "bin/gpucheck");
  const fs::path other = make_executable(dir / "other/gpucheck");
  SubprocessOptions o;
  o.set_env = {{"PATH", (dir / "bin").string() + ":/usr/bin:/bin"}};
  auto on_path = run_subprocess({"/bin/sh", "-c", "exec gpucheck run --only host.info --no-report --color never"}, o);
  ASSERT_NE(on_path.exit_code, 2) << on_path.err;
  EXPECT_NE(on_path.out.find("$ gpucheck "), std::string::npos) << on_path.out;
  o.set_env = {{"PATH", (dir / "other").string() + ":" + (dir / "bin").string() + ":/usr/bin:/bin"}};
  auto shadowed = run_subprocess({"/bin/sh", "-c", "exec " + (dir / "bin/gpucheck").string() + " run --only host.info --no-report --color never"}, o);
  EXPECT_EQ(shadowed.out.find("$ gpucheck "), std::string::npos) << shadowed.out;
  EXPECT_EQ(on_path.out.find(other.string()), std::string::npos);
  // A fix that runs gpucheck again is shown with the same words; the JSON keeps the plain name.
  auto saved = gpucheck({"run", "--only", "host.info", "--no-report", "--json"});
  auto doc = nlohmann::json::parse(saved.out);
  doc["sections"][0]["findings"][0]["status"] = "error";
  doc["sections"][0]["findings"][0]["fixes"] = nlohmann::json::array(
      {{{"rank", 1}, {"summary", "rerun it alone"}, {"commands", {"gpucheck run --only host.info --timeout 20"}}}});
  write_file_atomic((dir / "report.json").string(), doc.dump());
  auto text = gpucheck({"report", (dir / "report.json").string(), "--color", "never"});
  EXPECT_NE(text.out.find("$ " + gpucheck_binary() + " run --only host.info --timeout 20"), std::string::npos) << text.out;
  auto json = gpucheck({"report", (dir / "report.json").string(), "--json"});
  EXPECT_NE(json.out.find("\"gpucheck run --only host.info --timeout 20\""), std::string::npos);
  fs::remove_all(dir);
}

TEST(EverydayScreens, UseCudaNamesTheWaysToGetAToolkitNotInstalled) {
  SubprocessOptions o;
  o.set_env = {{"PATH", "/usr/bin:/bin"}};
  o.unset_env = {"LMOD_CMD", "MODULESHOME", "CUDA_HOME", "CUDA_PATH"};
  auto r = gpucheck({"use-cuda", "11.8"}, o);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, "") << "eval \"$(gpucheck use-cuda 11.8)\" must run nothing";
  const std::string& e = r.err;
  EXPECT_NE(e.find("no CUDA 11.8 toolkit with nvcc here"), std::string::npos) << e;
  // The runfile: NVIDIA's file for 11.8.0, the toolkit alone, into a prefix of its own.
  EXPECT_NE(e.find("cuda_11.8.0_520.61.05_linux.run --silent --toolkit --toolkitpath=/opt/cuda-11.8"), std::string::npos) << e;
  if (access("/usr/bin/curl", X_OK) == 0)
    EXPECT_NE(e.find("$ curl -fLO https://developer.download.nvidia.com/compute/cuda/11.8.0/local_installers/"
                     "cuda_11.8.0_520.61.05_linux.run"), std::string::npos) << e;
  // conda's label of that release; a command only where conda is on PATH.
  EXPECT_NE(e.find("nvidia/label/cuda-11.8.0"), std::string::npos) << e;
  const bool conda = access("/usr/bin/conda", X_OK) == 0 || access("/bin/conda", X_OK) == 0;
  EXPECT_EQ(e.find("$ conda create") != std::string::npos, conda) << e;
  // Then its modulefile and the switch, with this gpucheck.
  EXPECT_NE(e.find(" modulefiles --dir ~/modulefiles"), std::string::npos) << e;
  EXPECT_NE(e.find(" use-cuda 11.8)\""), std::string::npos) << e;
  for (const auto& line : split(e, '\n'))  // a command to copy is never broken; everything else fits 80
    if (line.find("$ ") == std::string::npos) EXPECT_LE(line.size(), 80u) << line;
  // --json: the same ways as fixes of one finding.
  auto json = gpucheck({"use-cuda", "11.8", "--json"}, o);
  auto doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc["sections"][0]["findings"][0]["id"], "use_cuda.not_installed");
  EXPECT_EQ(doc["sections"][0]["findings"][0]["fixes"].size(), 3u);
  // A word that is no version is still a usage error, one line.
  auto bad = gpucheck({"use-cuda", "eleven"}, o);
  EXPECT_EQ(bad.exit_code, 2);
}

TEST(EverydayScreens, ListGivesTheTitleTheRoomOfTheLine) {
  SubprocessOptions o;
  o.set_env = {{"COLUMNS", "80"}};
  auto r = gpucheck({"list"}, o);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = split(r.out, '\n');
  ASSERT_GT(lines.size(), 10u);
  // The title had 22 columns (ID 24, LEVELS 22 wide); now the id's and the levels' own widths.
  const std::size_t title_column = lines[0].find("TITLE");
  EXPECT_LE(title_column, 48u) << lines[0];  // "kernels.cross_entropy", "standard,long", the timeout
  for (const auto& l : lines) EXPECT_LE(l.size(), 80u) << l;
  EXPECT_NE(r.out.find("host.info"), std::string::npos);
  EXPECT_NE(r.out.find(" all "), std::string::npos) << r.out;
}

}  // namespace
}  // namespace gpucheck::test

namespace gpucheck::test {
namespace {

TEST(EverydayScreens, BootstrapForTheWheelInstallsOnlyWhatTheWheelBuildNeeds) {
  const std::string bootstrap = std::string(GPUCHECK_SOURCE_DIR) + "/scripts/bootstrap";
  auto wheel = run_subprocess({bootstrap, "--wheel", "--list"});
  auto all = run_subprocess({bootstrap, "--list"});
  ASSERT_TRUE(wheel.ok() && all.ok()) << wheel.err << all.err;
  auto wheel_pkgs = split(trim(wheel.out), '\n');
  auto all_pkgs = split(trim(all.out), '\n');
  EXPECT_EQ(wheel_pkgs.size(), 12u) << wheel.out;  // the count the README gives
  for (const auto& p : wheel_pkgs) EXPECT_NE(std::find(all_pkgs.begin(), all_pkgs.end(), p), all_pkgs.end()) << p;
  for (const char* only_tests : {"munge", "slurmctld", "chromium", "prometheus", "debootstrap", "zsh", "fish",
                                 "libgtest-dev", "libtorch-dev", "libopenmpi-dev", "tmux", "clang"})
    EXPECT_EQ(std::find(wheel_pkgs.begin(), wheel_pkgs.end(), only_tests), wheel_pkgs.end()) << only_tests;
  // What the wheel's configure looks for is there: libelf, RE2, OpenSSL, CLI11, fmt, nlohmann-json.
  for (const char* needed : {"libelf-dev", "libre2-dev", "libssl-dev", "libcli11-dev", "libfmt-dev", "nlohmann-json3-dev"})
    EXPECT_NE(std::find(wheel_pkgs.begin(), wheel_pkgs.end(), needed), wheel_pkgs.end()) << needed;
  EXPECT_EQ(run_subprocess({bootstrap, "--whee1"}).exit_code, 2);
  const std::string readme = read_file(std::string(GPUCHECK_SOURCE_DIR) + "/README.md");
  EXPECT_NE(readme.find("`scripts/bootstrap --wheel` installs the 12 packages the wheel build needs"), std::string::npos);
}

}  // namespace
}  // namespace gpucheck::test

namespace gpucheck::test {
namespace {

// The fenced block of a Markdown paste: the lines between "```text" and the fence that closes it.
std::vector<std::string> fenced_text(const std::string& md) {
  std::vector<std::string> out;
  bool in = false;
  for (const auto& line : split(md, '\n')) {
    if (!in && line == "```text") in = true;
    else if (in && line == "```") break;
    else if (in) out.push_back(line);
  }
  return out;
}

TEST(EverydayScreens, EnvPasteHasEveryFactCollectEnvPrintsAndMore) {
  if (access("/usr/bin/python3", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/python3";
  // Debian's python3-torch (scripts/packages.txt) and its numpy: a torch to describe.
  auto r = gpucheck({"env", "--paste", "--python", "/usr/bin/python3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto block = fenced_text(r.out);
  ASSERT_GT(block.size(), 15u) << r.out;
  auto has = [&](const std::string& label) {
    return std::any_of(block.begin(), block.end(), [&](const std::string& l) { return starts_with(l, label + ":"); });
  };
  // collect_env's facts...
  for (const char* label : {"OS", "Kernel", "GLIBC version", "GCC version", "Clang version", "CMake version",
                            "Python version", "PyTorch version", "CUDA used to build PyTorch", "cuDNN version (torch)",
                            "NCCL version (torch)", "Is CUDA available", "Nvidia driver version",
                            "GPU models and configuration", "Versions of relevant libs",
                            // ...and what it cannot say.
                            "libstdc++ (GLIBCXX)", "nvcc host compiler", "CUDA toolkits", "Toolkit each build picks",
                            "CUDA libraries (* loader)", "Loaded by import torch"})
    EXPECT_TRUE(has(label)) << label << " in:\n" << r.out;
  EXPECT_NE(r.out.find("numpy==1."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("torch==1."), std::string::npos) << r.out;
  // Every consumer's pick is named (PATH, CMake, torch's cpp_extension).
  for (const char* consumer : {"nvcc on PATH -> ", "CMake FindCUDAToolkit -> ", "torch cpp_extension -> "})
    EXPECT_NE(r.out.find(consumer), std::string::npos) << consumer;
  // env describes: no PASS anywhere, no table of checks; one fence, opened and closed.
  EXPECT_EQ(r.out.find("PASS"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("| status | check |"), std::string::npos);
  EXPECT_EQ(std::count(block.begin(), block.end(), std::string("```")), 0);
  // doctor carries the same block, folded under its verdict.
  auto doctor = gpucheck({"doctor", "--format", "markdown", "--python", "/usr/bin/python3"});
  EXPECT_EQ(doctor.out.rfind("### gpucheck doctor on ", 0), 0u) << doctor.out;
  const auto details = doctor.out.find("<details><summary>Environment");
  ASSERT_NE(details, std::string::npos) << doctor.out;
  EXPECT_NE(doctor.out.find("</details>", details), std::string::npos);
  EXPECT_EQ(fenced_text(doctor.out.substr(details)).size(), block.size());
}

}  // namespace
}  // namespace gpucheck::test
