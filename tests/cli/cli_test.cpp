// The real gpucheck binary, end to end: exit codes, reports, usage errors.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "core/files.h"
#include "core/text.h"

namespace gpucheck::test {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> reports_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".json") out.push_back(e.path());
  return out;
}

const nlohmann::json* find_result(const nlohmann::json& report, const std::string& id) {
  for (auto& r : report["sections"][0]["findings"])
    if (r["id"] == id) return &r;
  return nullptr;
}

TEST(Cli, RunOnThisMachineWritesAValidReport) {
  auto dir = fresh_temp_dir("run");
  auto r = gpucheck({"run", "--level", "quick", "--report-dir", dir.string(), "--color", "never"});
  auto files = reports_in(dir);
  ASSERT_EQ(files.size(), 1u) << r.out << r.err;
  EXPECT_EQ(schema_errors("report.schema.json", files[0].string()), "");
  auto report = read_json_file(files[0].string());
  const nlohmann::json* rt = find_result(report, "device.runtime");
  ASSERT_NE(rt, nullptr);
  if (!nvidia_driver_loaded()) {
    // No GPU here: the probe must say skip with the exact CUDA error, and the run is not a failure.
    EXPECT_EQ((*rt)["status"], "skip");
    EXPECT_NE((*rt)["summary"].get<std::string>().find("cudaErrorInsufficientDriver (35)"), std::string::npos)
        << (*rt)["summary"];
    EXPECT_EQ(report["summary"]["counts"]["error"], 0) << report["sections"][0]["findings"].dump(1);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("report: " + files[0].string()), std::string::npos);
  } else {
    EXPECT_NE((*rt)["status"], "skip");
  }
  EXPECT_EQ(report["summary"]["exit_code"], r.exit_code);
  // A probe's id and title are written only in its probe.json and compiled in from there: every result
  // carries exactly its staged manifest's.
  for (auto& f : report["sections"][0]["findings"]) {
    std::string id = f["id"];
    auto manifest = read_json_file(std::string(GPUCHECK_STAGE_DATA) + "/probes/" + id + ".json");
    EXPECT_EQ(f["id"], manifest["id"]);
    EXPECT_EQ(f["title"], manifest["title"]) << id;
  }
  fs::remove_all(dir);
}

TEST(Cli, StrictTurnsSkipIntoFailure) {
  if (nvidia_driver_loaded()) GTEST_SKIP() << "a driver is loaded: device.runtime will not skip";
  auto r = gpucheck({"run", "--only", "device.runtime", "--strict", "--no-report"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("FAIL"), std::string::npos);
}

TEST(Cli, JsonGoesToStdoutAndOutIsWritten) {
  auto dir = fresh_temp_dir("json");
  auto r = gpucheck({"run", "--only", "host.info", "--json", "--no-report"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["kind"], "gpucheck.report");
  EXPECT_EQ(doc["sections"][0]["findings"].size(), 1u);
  std::string out = (dir / "r.json").string();
  auto r2 = gpucheck({"run", "--only", "host.info", "--no-report", "--format", "json", "--out", out, "-q"});
  EXPECT_EQ(r2.exit_code, 0);
  EXPECT_EQ(schema_errors("report.schema.json", out), "");
  fs::remove_all(dir);
}

TEST(Cli, ReportsAreNeverOverwritten) {
  auto dir = fresh_temp_dir("twice");
  gpucheck({"run", "--only", "host.info", "--report-dir", dir.string(), "-q", "--no-inventory"});
  gpucheck({"run", "--only", "host.info", "--report-dir", dir.string(), "-q", "--no-inventory"});
  EXPECT_EQ(reports_in(dir).size(), 2u);
  fs::remove_all(dir);
}

TEST(Cli, ConcurrentRunsIntoOneDirectoryKeepEveryReport) {
  auto dir = fresh_temp_dir("concurrent");
  std::vector<std::thread> runs;
  std::vector<int> codes(6, -1);
  std::vector<std::string> errs(codes.size());
  for (std::size_t i = 0; i < codes.size(); ++i)
    runs.emplace_back([&, i] {
      auto r = gpucheck({"run", "--only", "host.info", "--report-dir", dir.string(), "-q", "--no-inventory"});
      codes[i] = r.exit_code;
      errs[i] = r.describe() + ": " + r.out + r.err;
    });
  for (auto& t : runs) t.join();
  for (std::size_t i = 0; i < codes.size(); ++i) EXPECT_EQ(codes[i], 0) << errs[i];
  EXPECT_EQ(reports_in(dir).size(), codes.size());
  fs::remove_all(dir);
}

TEST(Cli, OnlyRunsEachProbeOnceAndOutNeverReplacesADevice) {
  auto r = gpucheck({"run", "--only", "host.info,host.info", "--only", "host.info", "--no-report", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["sections"][0]["findings"].size(), 1u);
  auto quiet = gpucheck({"run", "--only", "host.info", "--no-report", "--json", "--out", "/dev/null"});
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.out, "");
  struct stat st {};
  ASSERT_EQ(stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  // --out /dev/stdout means stdout, as in a shell.
  auto through = gpucheck({"run", "--only", "host.info", "--no-report", "--json", "--out", "/dev/stdout"});
  EXPECT_EQ(through.exit_code, 0) << through.err;
  EXPECT_EQ(nlohmann::json::parse(through.out)["kind"], "gpucheck.report");
}

TEST(Cli, BytesFromOutsideNeitherCrashNorReachTheTerminalRaw) {
  // An allow-listed variable with a byte that is not UTF-8 and a terminal escape: recorded, not fatal.
  SubprocessOptions o;
  o.set_env["CUDA_HOME"] = "/opt/\xff\x1b[2J";
  auto j = gpucheck({"run", "--only", "host.info", "--no-report", "--json"}, o);
  ASSERT_EQ(j.exit_code, 0) << j.err;
  EXPECT_EQ(nlohmann::json::parse(j.out)["environment"]["CUDA_HOME"], "/opt/\xef\xbf\xbd\x1b[2J");
  auto t = gpucheck({"env", "--no-python", "--verbose"}, o);
  EXPECT_EQ(t.exit_code, 0) << t.err;
  EXPECT_EQ(t.out.find('\x1b'), std::string::npos);
}

TEST(Cli, SpecialFilesAsInputEndAtOnceWithOneLine) {
  auto dir = fresh_temp_dir("special");
  std::string fifo = (dir / "pipe").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(60);
  for (std::vector<std::string> args : {std::vector<std::string>{"doctor", "--from", "/dev/zero"},
                                        {"explain", "/dev/zero", "--no-env"},
                                        {"doctor", "--from", fifo},
                                        {"use-cuda", "12", "--from", "/dev/zero"}}) {
    auto r = gpucheck(args, o);
    EXPECT_FALSE(r.timed_out) << join(args, " ");
    EXPECT_EQ(r.exit_code, 2) << join(args, " ") << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << join(args, " ") << "\n" << r.err;
  }
  // A FIFO where the library-version cache lives must not hang `env`: it is not used as a cache.
  fs::create_directories(dir / "cache" / "gpucheck");
  ASSERT_EQ(mkfifo((dir / "cache" / "gpucheck" / "library-versions.json").c_str(), 0600), 0);
  o.set_env["XDG_CACHE_HOME"] = (dir / "cache").string();
  auto env = gpucheck({"env", "--no-python"}, o);
  EXPECT_FALSE(env.timed_out);
  EXPECT_EQ(env.exit_code, 0) << env.err;
  fs::remove_all(dir);
}

TEST(Cli, DeeplyNestedDocumentsAreOneLineErrorsNotACrash) {
  // 100,000 nested arrays in a 200 KB file: nlohmann parses them, but copying, comparing or printing the
  // value recursed once per level and overflowed the stack (SIGSEGV) for every command reading a document.
  auto dir = fresh_temp_dir("deep");
  const std::string nest = std::string(100000, '[') + std::string(100000, ']');
  std::ofstream(dir / "report.json") << (R"({"kind":"gpucheck.report","schema":1,"sections":)" + nest + "}");
  std::ofstream(dir / "inventory.json") << (R"({"kind":"gpucheck.inventory","gpus":)" + nest + "}");
  std::ofstream(dir / "thresholds.json") << (R"({"probes":)" + nest + "}");
  for (std::vector<std::string> args : {std::vector<std::string>{"report", (dir / "report.json").string()},
                                        {"doctor", "--from", (dir / "inventory.json").string()},
                                        {"diff", (dir / "inventory.json").string(), (dir / "inventory.json").string()},
                                        {"run", "--only", "host.info", "--no-report", "--thresholds",
                                         (dir / "thresholds.json").string()}}) {
    auto r = gpucheck(args);
    EXPECT_EQ(r.exit_code, 2) << join(args, " ") << "\n" << r.err;
    EXPECT_NE(r.err.find("nested"), std::string::npos) << join(args, " ") << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << join(args, " ") << "\n" << r.err;
  }
  fs::remove_all(dir);
}

TEST(Cli, EveryProbeIdTheKnowledgeBaseNamesExists) {
  // Fix lines in data/ say "gpucheck run --only ID[,ID]": each ID must be a probe this build has.
  auto l = gpucheck({"list", "--json"});
  ASSERT_EQ(l.exit_code, 0) << l.err;
  std::set<std::string> ids;
  const nlohmann::json listed = nlohmann::json::parse(l.out);  // kept alive: iterating a temporary's member dangles
  for (const auto& s : listed["sections"])
    for (const auto& f : s["findings"]) ids.insert(f["id"].get<std::string>());
  ASSERT_FALSE(ids.empty());
  const std::regex only(R"(gpucheck run --only ([a-z0-9_.,]+))");
  int named = 0;
  for (const auto& e : fs::recursive_directory_iterator(std::string(GPUCHECK_SOURCE_DIR) + "/data")) {
    if (!e.is_regular_file()) continue;
    const std::string text = read_file(e.path().string());
    for (auto m = std::sregex_iterator(text.begin(), text.end(), only); m != std::sregex_iterator(); ++m)
      for (const auto& id : split((*m)[1].str(), ',')) {
        ++named;
        EXPECT_TRUE(ids.count(id)) << e.path() << " names probe '" << id << "', which does not exist";
      }
  }
  EXPECT_GT(named, 0);  // the scan found the knowledge base's probe references
}

TEST(Cli, UsageErrorsExitTwoWithOneLine) {
  for (std::vector<std::string> args : {std::vector<std::string>{"run", "--level", "medium"},
                                        {"bogus-command"},
                                        {},
                                        {"run", "--timeout", "-3"},
                                        {"run", "--no-such-flag"},
                                        {"run", "--color", "purple"},
                                        {"run", "--quiet", "--verbose"},
                                        {"run", "--only", "device.runtim", "--no-report"},
                                        // hardening: values that used to be accepted or misread
                                        {"run", "--timeout", "1e10", "--no-report"},
                                        {"run", "--timeout", "nan", "--no-report"},
                                        {"run", "--timeout", "inf", "--no-report"},
                                        {"run", "--only", ",", "--no-report"},
                                        {"run", "--only", "host.info", "--report-dir", ""},
                                        {"run", "--only", "host.info", "--no-report", "--out", ""}}) {
    auto r = gpucheck(args);
    std::string joined;
    for (auto& a : args) joined += a + " ";
    EXPECT_EQ(r.exit_code, 2) << joined << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << joined << "\n" << r.err;
  }
  auto r = gpucheck({"run", "--only", "device.runtim"});
  EXPECT_NE(r.err.find("did you mean 'device.runtime'"), std::string::npos) << r.err;
  r = gpucheck({"--json", "doctr"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpucheck: unknown command 'doctr', did you mean 'doctor'? (see gpucheck --help)\n");
  r = gpucheck({"bogus-command"});
  EXPECT_EQ(r.err, "gpucheck: unknown command 'bogus-command' (see gpucheck --help)\n");
}

// A real run's report, rendered again by `gpucheck report` in every format, each through its validator.
TEST(Cli, SavedReportRendersInEveryFormat) {
  auto dir = fresh_temp_dir("report-formats");
  auto run = gpucheck({"run", "--only", "host.info,kernels.inf_nan", "--no-inventory", "--report-dir", dir.string()});
  ASSERT_EQ(reports_in(dir).size(), 1u) << run.err;
  std::string saved = reports_in(dir)[0].string();
  auto text = gpucheck({"report", saved});
  EXPECT_EQ(text.exit_code, run.exit_code);
  EXPECT_NE(text.out.find("NO GPU TESTED"), std::string::npos) << text.out;  // no GPU here: never PASS
  auto junit = gpucheck({"report", saved, "--format", "junit", "--out", (dir / "r.xml").string()});
  EXPECT_EQ(junit.exit_code, run.exit_code) << junit.err;
  auto lint = run_subprocess({"xmllint", "--noout", "--schema", std::string(GPUCHECK_TEST_DATA) + "/schemas/junit-ant.xsd",
                              (dir / "r.xml").string()});
  EXPECT_TRUE(lint.ok()) << lint.err;
  auto prom = gpucheck({"report", saved, "--format", "prom"});
  SubprocessOptions o;
  o.stdin_data = prom.out;
  auto check = run_subprocess({"promtool", "check", "metrics"}, o);
  EXPECT_TRUE(check.ok()) << check.out << check.err << prom.out;
  auto md = gpucheck({"report", saved, "--format", "markdown"});
  EXPECT_NE(md.out.find("`host.info`"), std::string::npos) << md.out;
  // HTML: --html and --format html alike, well-formed (XHTML), the verdict in its banner.
  auto html = gpucheck({"report", saved, "--html", "--out", (dir / "r.html").string()});
  EXPECT_EQ(html.exit_code, run.exit_code) << html.err;
  auto well_formed = run_subprocess({"xmllint", "--noout", "--nonet", (dir / "r.html").string()});
  EXPECT_TRUE(well_formed.ok()) << well_formed.err;
  auto same = gpucheck({"report", saved, "--format", "html"});
  EXPECT_NE(same.out.find("<div class=\"verdict\">NO GPU TESTED</div>"), std::string::npos) << same.out;
  EXPECT_EQ(same.out, read_file((dir / "r.html").string()));
  auto both = gpucheck({"report", saved, "--html", "--json"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_EQ(both.err, "gpucheck: --json and --html exclude each other (one document per --out)\n");
  for (const std::string& bad : std::vector<std::string>{"/etc/passwd", "/nonexistent/report.json", dir.string()}) {
    auto r = gpucheck({"report", bad});
    EXPECT_EQ(r.exit_code, 2) << bad << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  // A compare report from elsewhere whose benchmark details have other types than gpucheck writes: never
  // "internal error", exit 3 (as before for text, markdown, html), and the same exit code in every format.
  nlohmann::json bench{{"context", {{"date", "2026-12-01T10:00:00+00:00"},
                                     {"gpucheck", {{"key", "nogpu-test-000000000000"}, {"cpu", "test"}}}}},
                        {"benchmarks", nlohmann::json::array()}};
  for (int i = 0; i < 9; ++i)
    bench["benchmarks"].push_back({{"name", "BM_A"}, {"run_type", "iteration"}, {"real_time", 10 + 0.01 * i}, {"time_unit", "ms"}});
  std::ofstream(dir / "bench.json") << bench.dump();
  auto cmp = gpucheck({"compare", "--json", (dir / "bench.json").string(), (dir / "bench.json").string()});
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  auto doc = nlohmann::json::parse(cmp.out);
  int planted = 0;
  for (auto& sec : doc["sections"])
    for (auto& f : sec["findings"])
      if (f["id"].get<std::string>().rfind("bench.", 0) == 0 && f["details"].is_object()) {
        f["details"]["name"] = 7;
        f["details"]["new"] = "fast";
        ++planted;
      }
  ASSERT_GT(planted, 0) << cmp.out;
  std::ofstream(dir / "hostile-compare.json") << doc.dump();
  // The details are read as typed structs (model/compare_details.h, issue 30): a field of another type keeps
  // its default, so every format shows the report alike, with the same exit code, and none crashes.
  const int text_exit = gpucheck({"report", (dir / "hostile-compare.json").string()}).exit_code;
  EXPECT_NE(text_exit, 3);
  for (const char* format : {"text", "markdown", "html", "junit", "prom", "json"}) {
    auto r = gpucheck({"report", (dir / "hostile-compare.json").string(), "--format", format});
    EXPECT_EQ(r.exit_code, text_exit) << format << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << format << r.err;
  }
  std::ofstream(dir / "wrong.json") << R"({"schema_version": "2.0", "kind": "gpucheck.report", "meta": 5})";
  auto wrong = gpucheck({"report", (dir / "wrong.json").string()});
  EXPECT_EQ(wrong.exit_code, 2) << wrong.err;
  fs::remove_all(dir);
}

// `run --html` on stdout: the page and nothing after it (the "report: FILE" line is for text only).
TEST(Cli, RunHtmlOnStdoutIsOnlyThePage) {
  auto dir = fresh_temp_dir("run-html");
  auto r = gpucheck({"run", "--only", "host.info", "--html", "--report-dir", dir.string()});
  EXPECT_EQ(reports_in(dir).size(), 1u) << r.err;
  EXPECT_TRUE(ends_with(r.out, "</html>\n")) << r.out.substr(r.out.size() > 300 ? r.out.size() - 300 : 0);
  SubprocessOptions o;
  o.stdin_data = r.out;
  auto lint = run_subprocess({"xmllint", "--noout", "--nonet", "-"}, o);
  EXPECT_TRUE(lint.ok()) << lint.err;
  fs::remove_all(dir);
}

TEST(Cli, HelpTeachesExitCodesAndExamples) {
  auto r = gpucheck({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Exit codes"), std::string::npos);
  auto run_help = gpucheck({"run", "--help"});
  EXPECT_EQ(run_help.exit_code, 0);
  EXPECT_NE(run_help.out.find("--strict"), std::string::npos);
  EXPECT_NE(run_help.out.find("Examples"), std::string::npos);
}

TEST(Cli, ListAndVersion) {
  auto l = gpucheck({"list", "--json"});
  ASSERT_EQ(l.exit_code, 0);
  auto probes = nlohmann::json::parse(l.out)["sections"][0]["findings"];
  bool has_runtime = false, has_host = false;
  for (auto& p : probes) {
    has_runtime = has_runtime || p["id"] == "device.runtime";
    has_host = has_host || p["id"] == "host.info";
    EXPECT_EQ(access(p["details"]["executable"].get<std::string>().c_str(), X_OK), 0) << p["details"]["executable"];
  }
  EXPECT_TRUE(has_runtime && has_host);
  auto v = gpucheck({"version", "--json"});
  EXPECT_EQ(nlohmann::json::parse(v.out)["details"]["version"].get<std::string>().empty(), false);
}

// A probe directory of symlinks to the misbehaving child (each name choosing its failure mode) with their
// manifests, and the environment that makes gpucheck use it.
SubprocessOptions misbehaving_probes(const fs::path& dir, const std::vector<std::string>& modes, double timeout_s) {
  fs::create_directories(dir / "probes");
  fs::create_directories(dir / "data" / "probes");
  for (const auto& m : modes) {
    fs::create_symlink(MISBEHAVING_PROBE, dir / "probes" / ("test." + m));
    std::ofstream(dir / "data" / "probes" / ("test." + m + ".json"))
        << R"({"id":"test.)" << m << R"(","title":")" << m << R"(","levels":["quick"],"timeout_s":)" << timeout_s << "}";
  }
  SubprocessOptions o;
  o.set_env["GPUCHECK_PROBE_DIR"] = (dir / "probes").string();
  o.set_env["GPUCHECK_DATA_DIR"] = (dir / "data").string();
  return o;
}

// The pid of a child of `parent` named `comm` (as /proc/PID/stat shows it); -1 when none. Processes end while
// /proc is listed (other tests run in parallel), so an entry that vanished is skipped, never an exception.
int child_named(const std::string& comm, int parent) {
  std::error_code ec;
  for (fs::directory_iterator it("/proc", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string stat = read_proc_text((it->path() / "stat").string());
    auto open = stat.find('('), close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close + 4 >= stat.size()) continue;
    if (stat.substr(open + 1, close - open - 1) == comm && std::atoi(stat.c_str() + close + 4) == parent)
      return std::stoi(name);
  }
  return -1;
}

TEST(Cli, InterruptedRunStopsItsProbeAndStillWritesTheReport) {
  auto dir = fresh_temp_dir("interrupt");
  SubprocessOptions o = misbehaving_probes(dir, {"good", "hang", "args"}, 60);
  o.timeout = std::chrono::seconds(50);
  SubprocessResult r;
  std::thread run([&] {
    r = gpucheck({"run", "--only", "test.good,test.hang,test.args", "--report-dir", (dir / "reports").string(),
                  "--no-inventory", "-q"}, o);
  });
  int gpucheck_pid = -1, pid = -1;
  for (int i = 0; i < 400 && pid < 0; ++i) {  // wait until the hanging probe runs
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (gpucheck_pid < 0) gpucheck_pid = child_named("gpucheck", getpid());
    if (gpucheck_pid > 0) pid = child_named("test.hang", gpucheck_pid);
  }
  if (pid > 0) std::this_thread::sleep_for(std::chrono::milliseconds(300));
  if (gpucheck_pid > 0) kill(gpucheck_pid, SIGINT);  // interrupt it either way, so the thread always ends
  run.join();
  ASSERT_GT(pid, 0) << "the hanging probe never started: " << r.err;
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 3) << r.err;  // no verdict: the run did not finish
  auto reports = reports_in(dir / "reports");
  ASSERT_EQ(reports.size(), 1u);
  auto doc = nlohmann::json::parse(read_file(reports[0].string()));
  std::map<std::string, std::string> status;
  for (const auto& s : doc["sections"])
    for (const auto& f : s["findings"]) status[f["id"]] = f["status"];
  EXPECT_EQ(status["test.good"], "pass");
  EXPECT_EQ(status["test.hang"], "error");
  EXPECT_EQ(status.count("test.args"), 0u);  // never started
  EXPECT_EQ(status["run.incomplete"], "error");
  EXPECT_EQ(schema_errors("report.schema.json", reports[0].string()), "");
  EXPECT_NE(kill(pid, 0), 0) << "the hanging probe outlived gpucheck";
  fs::remove_all(dir);
}

TEST(Cli, SuiteOfMisbehavingProbesFinishesAndReportsEveryOne) {
  auto dir = fresh_temp_dir("suite");
  std::vector<std::string> modes = {"segfault", "hang", "garbage", "exit7", "stderr_flood", "good"};
  SubprocessOptions o = misbehaving_probes(dir, modes, 1);
  auto start = std::chrono::steady_clock::now();
  auto r = gpucheck({"run", "--level", "quick", "--json", "--no-report", "--no-inventory"}, o);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 3) << r.err;
  auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["sections"][0]["findings"].size(), modes.size());
  std::map<std::string, std::string> status;
  for (auto& res : doc["sections"][0]["findings"]) status[res["id"]] = res["status"];
  EXPECT_EQ(status["test.segfault"], "error");
  EXPECT_EQ(status["test.hang"], "error");
  EXPECT_EQ(status["test.garbage"], "error");
  EXPECT_EQ(status["test.exit7"], "error");
  EXPECT_EQ(status["test.stderr_flood"], "pass");
  EXPECT_EQ(status["test.good"], "pass");
  EXPECT_LT(took, 1.0 + 2.0 + 10.0);  // one timeout + grace, plus slack for five quick children
  fs::remove_all(dir);
}

// On a terminal, `run` shows a live "[i/N] probe  elapsed  ETA" line on stderr; with -q, or when stderr is
// not a terminal, it shows none. The terminal is a real pseudo-terminal (tests/cli/pty_run.py).
TEST(Cli, RunShowsProgressWithCountAndEtaOnlyOnATerminal) {
  auto dir = fresh_temp_dir("progress");
  SubprocessOptions o = misbehaving_probes(dir, {"good", "hang"}, 1);
  o.unset_env = {"NO_COLOR"};
  const std::string pty_run = std::string(GPUCHECK_SOURCE_DIR) + "/tests/cli/pty_run.py";
  const std::vector<std::string> run = {gpucheck_binary(), "run", "--only", "test.good,test.hang", "--no-report",
                                        "--no-inventory"};
  auto on_terminal = [&](std::vector<std::string> extra) {
    std::vector<std::string> argv = {pty_run, (dir / "tty.txt").string()};
    argv.insert(argv.end(), run.begin(), run.end());
    argv.insert(argv.end(), extra.begin(), extra.end());
    auto r = run_subprocess(argv, o);
    EXPECT_EQ(r.exit_code, 3) << r.describe() << r.err;  // the hanging probe times out: no verdict
    return read_file((dir / "tty.txt").string());
  };
  const std::string shown = on_terminal({});
  EXPECT_NE(shown.find("[2/2] test.hang"), std::string::npos) << shown;
  EXPECT_NE(shown.find("ETA ~"), std::string::npos) << shown;
  EXPECT_NE(shown.find("\r\033[K"), std::string::npos) << "the live line is redrawn in place";
  const std::string quiet = on_terminal({"-q"});
  EXPECT_EQ(quiet.find("[1/2]"), std::string::npos) << quiet;
  EXPECT_NE(quiet.find("test.hang"), std::string::npos) << "-q still names the probe that gave no verdict";
  EXPECT_NE(shown.find("\033[35;1m"), std::string::npos) << "a terminal gets colour (ERROR in magenta)";
  o.unset_env.clear();
  o.set_env["NO_COLOR"] = "1";
  const std::string plain = on_terminal({});
  EXPECT_NE(plain.find("[2/2] test.hang"), std::string::npos);
  EXPECT_EQ(plain.find("\033[35"), std::string::npos) << "NO_COLOR: no colour on a terminal either";
  o.set_env.erase("NO_COLOR");
  auto piped = gpucheck(std::vector<std::string>(run.begin() + 1, run.end()), o);
  EXPECT_EQ(piped.err.find("[1/2]"), std::string::npos) << piped.err;
  EXPECT_EQ(piped.err.find('\r'), std::string::npos) << piped.err;
  fs::remove_all(dir);
}

TEST(Cli, ProbeBytesNeitherEndTheRunNorReachTheTerminalRaw) {
  // Issue 15 items 7 and 9: a probe whose result and stderr hold terminal escapes and bytes that are not
  // UTF-8. The run finishes with a report (the invalid result is that probe's error, not "internal
  // error"), and nothing of it reaches the terminal raw, verbose text included.
  auto dir = fresh_temp_dir("hostile");
  SubprocessOptions o = misbehaving_probes(dir, {"hostile_text", "invalid_utf8", "good"}, 30);
  auto j = gpucheck({"run", "--level", "quick", "--json", "--no-report", "--no-inventory"}, o);
  ASSERT_TRUE(j.exit_code == 1 || j.exit_code == 3) << j.exit_code << "\n" << j.err;
  const nlohmann::json doc = nlohmann::json::parse(j.out);  // valid JSON: bytes that are not UTF-8 were replaced
  std::map<std::string, std::string> status;
  for (const auto& f : doc["sections"][0]["findings"]) status[f["id"]] = f["status"];
  EXPECT_EQ(status["test.hostile_text"], "fail");
  EXPECT_EQ(status["test.invalid_utf8"], "error");
  EXPECT_EQ(status["test.good"], "pass");
  for (const auto& args : {std::vector<std::string>{"run", "--level", "quick", "--no-report", "--no-inventory", "--verbose"},
                           std::vector<std::string>{"run", "--level", "quick", "--no-report", "--no-inventory"}}) {
    auto t = gpucheck(args, o);
    EXPECT_TRUE(t.exit_code == 1 || t.exit_code == 3) << t.exit_code << "\n" << t.err;
    EXPECT_EQ(t.out.find('\x1b'), std::string::npos) << t.out;
    EXPECT_EQ(t.err.find('\x1b'), std::string::npos) << t.err;
    EXPECT_NE((t.out + t.err).find("hostile_text"), std::string::npos) << t.out << t.err;  // the probe is listed
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gpucheck::test
