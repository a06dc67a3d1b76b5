// Every registered subcommand speaks the one output contract: `--json` prints a report that validates
// against reports/schema/report.schema.json, and `--out FILE` writes that same document (or, without
// --json, the text) to FILE and nothing to stdout. The commands come from `gpucheck --help`, so a new
// subcommand without a row in the table below fails here.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "core/files.h"

namespace gpucheck::test {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string command;
  std::vector<std::string> args;  // after the command name: cheap inputs
};

// The subcommands `gpucheck --help` lists.
std::set<std::string> registered_commands() {
  auto help = gpucheck({"--help"});
  std::set<std::string> out;
  bool in_list = false;
  std::istringstream lines(help.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("Subcommands:", 0) == 0) {
      in_list = true;
      continue;
    }
    if (!in_list) continue;
    std::smatch m;
    if (!std::regex_match(line, m, std::regex(R"(  ([a-z][a-z0-9-]*)\s.*)"))) break;
    out.insert(m[1].str());
  }
  return out;
}

// What may differ between two runs of the same command: times, the command line, durations.
nlohmann::json stable(nlohmann::json doc) {
  for (const char* k : {"started_at", "finished_at", "command_line"}) doc.erase(k);
  if (doc["inventory"].is_object()) doc["inventory"].erase("collected_at");
  if (doc["details"].is_object()) doc["details"].erase("seconds");  // abi's own timing
  for (auto& s : doc["sections"])
    for (auto& f : s["findings"]) f.erase("duration_s");
  return doc;
}

class EveryCommand : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir = fresh_temp_dir("every");
    // A saved env report (doctor reads it), the toolkit here (use-cuda switches to it), a tiny log, a small .so.
    auto env = gpucheck({"env", "--no-python", "--json", "--out", (dir / "env.json").string()});
    ASSERT_EQ(env.exit_code, 0) << env.err;
    auto inv = read_json_file((dir / "env.json").string())["inventory"];
    for (const auto& t : inv["toolkits"])
      if (!t["nvcc"].get<std::string>().empty() && toolkit.empty()) toolkit = t["version"].get<std::string>();
    std::ofstream(dir / "tiny.log") << "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory\n";
    for (const char* so : {"/lib/x86_64-linux-gnu/libm.so.6", "/usr/lib/x86_64-linux-gnu/libm.so.6", "/lib64/libm.so.6",
                           "/usr/lib64/libm.so.6", "/lib/aarch64-linux-gnu/libm.so.6"})
      if (shared_object.empty() && fs::exists(so)) shared_object = so;
    // A run report for `fleet merge` and `report`.
    auto run = gpucheck({"run", "--only", "host.info", "--no-inventory", "--report-dir", (dir / "runs").string()});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    for (auto& e : fs::directory_iterator(dir / "runs")) run_report = e.path().string();
    // Two benchmark documents with the same gpucheck context for `compare`.
    nlohmann::json doc{{"context", {{"date", "2026-12-01T10:00:00+00:00"},
                                    {"gpucheck", {{"key", "nogpu-test-000000000000"}, {"cpu", "test"}}}}},
                       {"benchmarks", nlohmann::json::array()}};
    for (int i = 0; i < 9; ++i)
      doc["benchmarks"].push_back({{"name", "BM_A"}, {"run_type", "iteration"}, {"real_time", 10 + 0.01 * i}, {"time_unit", "ms"}});
    std::ofstream(dir / "bench-base.json") << doc.dump();
    std::ofstream(dir / "bench-new.json") << doc.dump();
  }
  static void TearDownTestSuite() { fs::remove_all(dir); }

  static std::vector<Case> cases() {
    const std::string scenarios = std::string(GPUCHECK_SOURCE_DIR) + "/tests/compat/scenarios/three_toolkits.json";
    // Without a toolkit here, use-cuda and modulefiles read the toolkits of a scenario document.
    std::vector<std::string> use_cuda = toolkit.empty() ? std::vector<std::string>{"12.4", "--from", scenarios}
                                                        : std::vector<std::string>{toolkit};
    std::vector<std::string> modulefiles = {"--dir", (dir / "modules").string()};
    if (toolkit.empty()) modulefiles.insert(modulefiles.end(), {"--from", scenarios});
    return {
        {"run", {"--only", "host.info", "--no-report", "--no-inventory"}},
        {"list", {}},
        {"env", {"--no-python"}},
        {"doctor", {"--from", (dir / "env.json").string()}},
        {"use-cuda", use_cuda},
        {"modulefiles", modulefiles},
        {"abi", {shared_object}},
        {"explain", {"--no-env", (dir / "tiny.log").string()}},
        {"version", {}},
        {"bench", {"--suite", "regression", "--filter", "BM_UTest/9", "--repetitions", "2", "--min-time", "0.01",
                   "--no-python", "--out", (dir / "bench-doc.json").string()}},
        {"compare", {(dir / "bench-base.json").string(), (dir / "bench-new.json").string()}},
        {"report", {run_report}},
        {"fleet", {"merge", (dir / "runs").string()}},
    };
  }

  static fs::path dir;
  static std::string toolkit;
  static std::string shared_object;
  static std::string run_report;
};
fs::path EveryCommand::dir;
std::string EveryCommand::toolkit;
std::string EveryCommand::shared_object;
std::string EveryCommand::run_report;

std::vector<std::string> argv_of(const Case& c, std::vector<std::string> global) {
  global.push_back(c.command);
  global.insert(global.end(), c.args.begin(), c.args.end());
  return global;
}

TEST_F(EveryCommand, EveryRegisteredCommandHasACase) {
  std::set<std::string> covered;
  for (const auto& c : cases()) covered.insert(c.command);
  auto registered = registered_commands();
  EXPECT_GE(registered.size(), 9u);
  for (const auto& name : registered) EXPECT_TRUE(covered.count(name)) << "no case for `gpucheck " << name << "`";
}

TEST_F(EveryCommand, JsonIsAValidReportAndOutWritesTheSameDocumentAndNothingElse) {
  ASSERT_FALSE(shared_object.empty()) << "no libm.so.6 found for the abi case";
  for (const auto& c : cases()) {
    SCOPED_TRACE("gpucheck " + c.command);
    auto shown = gpucheck(argv_of(c, {"--json"}));
    ASSERT_TRUE(shown.exited && (shown.exit_code == 0 || shown.exit_code == 1)) << shown.describe() << shown.err;
    const fs::path printed = dir / (c.command + "-stdout.json");
    std::ofstream(printed) << shown.out;
    EXPECT_EQ(schema_errors("report.schema.json", printed.string()), "");
    nlohmann::json doc = nlohmann::json::parse(shown.out);
    // `report` renders a saved report again: the document is that report, command and all.
    EXPECT_EQ(doc["command"], c.command == "report" ? "run" : c.command);
    EXPECT_EQ(doc["summary"]["exit_code"], shown.exit_code);  // the report says what the process returns
    if (c.command == "env")
      EXPECT_EQ(shown.exit_code, 0) << "env describes the machine: it exits 0 whatever its findings";

    const fs::path file = dir / (c.command + "-out.json");
    auto written = gpucheck(argv_of(c, {"--json", "--out", file.string()}));
    EXPECT_EQ(written.exit_code, shown.exit_code) << written.err;
    EXPECT_EQ(written.out, "") << "--out FILE prints nothing";
    ASSERT_TRUE(fs::exists(file));
    EXPECT_EQ(schema_errors("report.schema.json", file.string()), "");
    const nlohmann::json again = stable(read_json_file(file.string()));
    EXPECT_EQ(again, stable(doc)) << "what differs between the two runs: " << nlohmann::json::diff(stable(doc), again).dump();

    // Without --json the text goes to the file, and stdout stays empty as well.
    const fs::path text = dir / (c.command + "-out.txt");
    auto as_text = gpucheck(argv_of(c, {"--out", text.string()}));
    EXPECT_EQ(as_text.exit_code, shown.exit_code) << as_text.err;
    EXPECT_EQ(as_text.out, "");
    ASSERT_TRUE(fs::exists(text));
    EXPECT_FALSE(read_file(text.string()).empty());
    EXPECT_NE(read_file(text.string()).front(), '{') << "the text format, not JSON";
  }
}

TEST_F(EveryCommand, UseCudaTextIsExactlyTheShellLines) {
  auto c = cases()[4];
  ASSERT_EQ(c.command, "use-cuda");
  auto text = gpucheck(argv_of(c, {}));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  auto doc = nlohmann::json::parse(gpucheck(argv_of(c, {"--json"})).out);
  EXPECT_EQ(text.out, doc["details"]["shell"].get<std::string>());
  EXPECT_EQ(text.out.rfind("export CUDA_HOME=", 0), 0u) << text.out;
  EXPECT_EQ(doc["details"]["exports"][0]["name"], "CUDA_HOME");
}

}  // namespace
}  // namespace gpucheck::test
