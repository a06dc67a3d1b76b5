// The reproductions of the third adversarial pass (shared/research/reliability-3.md, issue 34), each run
// against the real binary: a hole found there is a test here, so it cannot come back.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "core/files.h"
#include "core/text.h"
#include "support/sanitizers.h"

namespace gpucheck::test {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::size_t lines_of(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

std::string joined(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) s += "'" + a + "' ";
  return s;
}

// A real run report of this machine (host.info only), to forge hostile variants of.
nlohmann::json real_report(const fs::path& dir) {
  auto r = gpucheck({"run", "--only", "host.info", "--no-inventory", "--report-dir", (dir / "real").string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (auto& e : fs::directory_iterator(dir / "real")) return nlohmann::json::parse(read_file(e.path().string()));
  ADD_FAILURE() << "no report written";
  return nlohmann::json::object();
}

void save(const fs::path& p, const nlohmann::json& j) { std::ofstream(p) << j.dump(2); }

// N1, N12: an empty or odd value where a path belongs is a one-line usage error (exit 2), never "the
// current directory", "/" or a live run. `modulefiles --dir ''` wrote /tcl/cuda/13.0 as root, exit 0.
TEST(Hardening, EmptyOrOddPathValuesAreOneLineUsageErrors) {
  const bool had_tcl = fs::exists("/tcl"), had_lua = fs::exists("/lua");
  for (std::vector<std::string> args : {std::vector<std::string>{"modulefiles", "--dir", ""},
                                        {"doctor", "--from", ""},
                                        {"doctor", "--from-text", ""},
                                        {"env", "--root", ""},
                                        {"env", "--python", ""},
                                        {"abi", "--cuobjdump", "/dev/zero", "/bin/true"},
                                        {"abi", "--cuobjdump", "/", "/bin/true"},
                                        {"abi", ""},
                                        {"explain", ""},
                                        {"explain", "--signatures", "", "-"},
                                        {"report", ""},
                                        {"diff", "", "x.json"},
                                        {"compare", "", "x.json"},
                                        {"compare", "--baseline-dir", "", "x.json"},
                                        {"fleet", "merge", ""},
                                        {"bench", "--dir", ""},
                                        {"bench", "--out", ""},
                                        {"run", "--report-dir", "", "--only", "host.info"},
                                        {"run", "--python", "", "--no-report", "--only", "host.info"},
                                        {"doctor", "--constraints-out", "", "--for", "torch"},
                                        {"version", "--out", ""},
                                        {"run", "--timeout", "1e-320", "--no-report", "--only", "host.info"},
                                        {"run", "--timeout", "1e-7", "--no-report", "--only", "host.info"}}) {
    auto r = gpucheck(args);
    EXPECT_EQ(r.exit_code, 2) << joined(args) << r.out << r.err;
    EXPECT_EQ(lines_of(r.err), 1u) << joined(args) << r.err;
    EXPECT_EQ(r.out.find("wrote"), std::string::npos) << joined(args) << r.out;
  }
  EXPECT_EQ(fs::exists("/tcl"), had_tcl);
  EXPECT_EQ(fs::exists("/lua"), had_lua);
}

// N2: as root, `--out /tmp/x` where another user planted a link to a root-owned file replaced that file,
// because gpucheck resolved the link itself and renamed over the target. Now such a link is refused; a
// link of the caller's own is written through (as `>` does) and kept.
TEST(Hardening, OutThroughALinkPlantedInASharedDirectoryIsRefused) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to own the victim and give the link to another user";
  auto dir = fresh_temp_dir("planted");
  fs::path sticky = dir / "sticky", victim = dir / "rootfile.conf", link = sticky / "report.json";
  fs::create_directories(sticky);
  ASSERT_EQ(chmod(sticky.c_str(), 01777), 0);
  std::ofstream(victim) << "ROOT SECRET CONFIG\n";
  fs::create_symlink(victim, link);
  ASSERT_EQ(lchown(link.c_str(), 65534, 65534), 0);  // nobody's link, as if nobody had planted it
  auto r = gpucheck({"--json", "--out", link.string(), "version"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(lines_of(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("not followed"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(victim.string()), "ROOT SECRET CONFIG\n");
  EXPECT_TRUE(fs::is_symlink(link));
  // root's own link in the same directory: followed as `>` follows it, the link kept.
  fs::path own = sticky / "own.json";
  fs::create_symlink(victim, own);
  r = gpucheck({"--json", "--out", own.string(), "version"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(own));
  EXPECT_NE(read_file(victim.string()).find("\"command\": \"version\""), std::string::npos);
  fs::remove_all(dir);
}

// N10: `explain FIFO` waited forever for a writer; a socket or device must not be opened either.
TEST(Hardening, ExplainOfAFifoSocketOrDeviceEndsAtOnceWithOneLine) {
  auto dir = fresh_temp_dir("explain-special");
  fs::path fifo = dir / "ff", sock = dir / "sock";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  int s = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(s, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock.c_str());
  ASSERT_EQ(bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  for (const std::string& input : {fifo.string(), sock.string(), std::string("/dev/zero"), std::string("/dev/null")}) {
    SubprocessOptions o;
    o.timeout = std::chrono::seconds(15);
    auto t0 = Clock::now();
    auto r = gpucheck({"explain", "--no-env", input}, o);
    EXPECT_FALSE(r.timed_out) << input;
    EXPECT_LT(seconds_since(t0), 10.0) << input;
    EXPECT_EQ(r.exit_code, 2) << input << r.out << r.err;
    EXPECT_EQ(lines_of(r.err), 1u) << input << r.err;
  }
  close(s);
  fs::remove_all(dir);
}

// N9: NCCL_* is recorded as a prefix, so names with PASSPHRASE, CERT, PRIVATE, LOGIN, SIG and a
// `Bearer <token>` value reached JSON reports; explain copied https://user:password@host from a log.
TEST(Hardening, SecretsByNameAndValueShapeNeverReachAReport) {
  SubprocessOptions o;
  const std::map<std::string, std::string> secrets = {
      {"NCCL_COLLNET_PASSPHRASE", "SEKRIT21"}, {"NCCL_CERT", "SEKRIT22"},   {"NCCL_PRIVATE", "SEKRIT23"},
      {"NCCL_LOGIN", "SEKRIT24"},              {"NCCL_SIG", "SEKRIT27"},    {"NCCL_BEARER", "Bearer SEKRIT28"},
      {"NCCL_PLUGIN_HEADER", "Authorization: Bearer SEKRIT29"},           {"NCCL_AUTH_COOKIE", "SEKRIT30"},
      {"NCCL_NET_URL", "https://user:SEKRIT31@host.example/x?token=SEKRIT32"}, {"NCCL_IB_CREDENTIAL", "SEKRIT33"},
      {"NCCL_SOCKET_IFNAME", "eth0"}};
  for (const auto& [k, v] : secrets) o.set_env[k] = v;
  auto dir = fresh_temp_dir("secrets");
  auto r = gpucheck({"--json", "version"}, o);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("SEKRIT"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("eth0"), std::string::npos) << "a harmless NCCL variable is still recorded";
  // explain: the evidence line keeps the error, not the credentials (text, JSON and HTML alike).
  std::ofstream(dir / "pip.log")
      << "Looking in indexes: https://user:SEKRIT42@pypi.internal.example/simple\n"
      << "ERROR: Could not find a version that satisfies the requirement torch==9.9 (from versions: none)\n"
      << "curl -H 'Authorization: Bearer SEKRIT43' https://files.example/w.whl?X-Amz-Signature=SEKRIT44&token=SEKRIT45\n"
      << "ERROR: No matching distribution found for torch==9.9\n";
  for (const std::string& format : {"text", "json", "html", "markdown"}) {
    auto e = gpucheck({"explain", "--no-env", "--format", format, "-v", (dir / "pip.log").string()});
    EXPECT_NE(e.exit_code, 2) << e.err;
    EXPECT_EQ(e.out.find("SEKRIT"), std::string::npos) << format << "\n" << e.out;
  }
  fs::remove_all(dir);
}

// Item 12: `report F` of a report whose inventory has a mistyped field exited 2 for text (which reads the
// inventory whole) and 0 for html, junit, prom and markdown. Now every format refuses it alike, naming the field.
TEST(Hardening, ReportOfAMistypedInventoryExitsAlikeInEveryFormat) {
  auto dir = fresh_temp_dir("mistyped-inventory");
  nlohmann::json rep = real_report(dir);
  rep["command"] = "env";
  rep["inventory"] = {{"schema_version", "2.0"}, {"gpus", nlohmann::json::array({{{"index", "zero"}}})}};
  save(dir / "bad.json", rep);
  rep["inventory"]["gpus"][0]["index"] = 0;
  save(dir / "good.json", rep);
  for (const std::string& format : {"text", "json", "markdown", "junit", "prom", "html"}) {
    auto bad = gpucheck({"report", (dir / "bad.json").string(), "--format", format});
    EXPECT_EQ(bad.exit_code, 2) << format << "\n" << bad.out << bad.err;
    EXPECT_EQ(lines_of(bad.err), 1u) << format << "\n" << bad.err;
    EXPECT_NE(bad.err.find("gpus[0].index"), std::string::npos) << format << "\n" << bad.err;
    EXPECT_TRUE(bad.out.empty()) << format << ": printed before refusing\n" << bad.out;
    auto good = gpucheck({"report", (dir / "good.json").string(), "--format", format});
    EXPECT_EQ(good.exit_code, 0) << format << "\n" << good.err;
  }
  fs::remove_all(dir);
}

// N9, every field: a credential in any string of a report read back (a probe's output, a log line in the
// evidence, a fix, a note, a device, the host name, the inventory) never reaches any format, nor `fleet
// merge`. One pass (model/scrub.h) at the boundary where a Report leaves gpucheck.
TEST(Hardening, SecretsInEveryFieldOfAReadBackReportNeverLeave) {
  auto dir = fresh_temp_dir("secrets-every-field");
  nlohmann::json rep = real_report(dir);
  auto& f = rep["sections"][0]["findings"][0];
  f["status"] = "fail";
  f["title"] = "failed with NCCL_COLLNET_PASSPHRASE=SEKRIT51";
  f["summary"] = "curl -H 'Authorization: Bearer SEKRIT52' https://u:SEKRIT53@files.example/w.whl";
  f["evidence"] = nlohmann::json::array(
      {nlohmann::json{{"what", "stderr_tail"}, {"value", "ok\nNCCL_IB_AUTH_TOKEN=SEKRIT54\nok"}},
       nlohmann::json{{"what", "url"}, {"value", "https://x.example/a?X-Amz-Signature=SEKRIT55&token=SEKRIT56"}}});
  f["fixes"] = nlohmann::json::array({nlohmann::json{
      {"rank", 1}, {"summary", "use the mirror"}, {"commands", {"pip install torch --index-url https://u:SEKRIT57@pypi.example/"}}}});
  f["details"] = {{"log", "NCCL_CERT=SEKRIT58"}};
  rep["notes"] = {"read https://u:SEKRIT59@host.example/x"};
  rep["host"] = "node7?token=SEKRIT60";
  rep["inventory"] = {{"schema_version", "2.0"}, {"notes", {"PIP_INDEX_URL=https://u:SEKRIT61@pypi.example"}}};
  save(dir / "r.json", rep);
  for (const std::string& format : {"text", "json", "markdown", "junit", "prom", "html"}) {
    auto r = gpucheck({"report", (dir / "r.json").string(), "--format", format, "-v"});
    EXPECT_EQ(r.exit_code, 1) << format << "\n" << r.err;
    EXPECT_EQ(r.out.find("SEKRIT"), std::string::npos) << format << "\n" << r.out;
    EXPECT_EQ(r.err.find("SEKRIT"), std::string::npos) << format << "\n" << r.err;
  }
  fs::create_directories(dir / "fleet");
  save(dir / "fleet" / "a.json", rep);
  for (const std::string& format : {"text", "json", "markdown"}) {
    auto m = gpucheck({"fleet", "merge", (dir / "fleet").string(), "--format", format});
    EXPECT_NE(m.exit_code, 2) << m.err;
    EXPECT_EQ(m.out.find("SEKRIT"), std::string::npos) << format << "\n" << m.out;
  }
  fs::remove_all(dir);
}

nlohmann::json benchmark_rows(const std::string& name, int repetitions, bool errored) {
  nlohmann::json rows = nlohmann::json::array();
  for (int i = 0; i < repetitions; ++i) {
    nlohmann::json row = {{"name", name},      {"run_name", name},        {"run_type", "iteration"},
                          {"repetitions", repetitions}, {"repetition_index", i}, {"iterations", 1000},
                          {"real_time", 100.0 + i},      {"cpu_time", 100.0 + i}, {"time_unit", "ns"}};
    if (errored) row["error_occurred"] = true, row["error_message"] = "no GPU";
    rows.push_back(row);
  }
  return rows;
}

// A context both documents share, so compare judges the benchmarks (an empty one is compare.context_unknown).
const nlohmann::json kContext = {{"date", "2026-12-01T10:00:00+00:00"},
                                 {"gpucheck", {{"key", "nogpu-test-000000000000"}, {"cpu", "test"}}}};

// N5: `compare BASE NEW` gave PASS, exit 0, when NEW measured nothing (no benchmark, or only errored ones):
// a regression gate that passes a bench run whose suites crashed.
TEST(Hardening, CompareOfARunThatMeasuredNothingHasNoVerdict) {
  auto dir = fresh_temp_dir("compare-nothing");
  save(dir / "ok.json", {{"context", kContext}, {"benchmarks", benchmark_rows("BM_X", 9, false)}});
  save(dir / "allerr.json", {{"context", kContext}, {"benchmarks", benchmark_rows("BM_X", 9, true)}});
  save(dir / "empty.json", {{"context", kContext}, {"benchmarks", nlohmann::json::array()}});
  for (const std::string& now : {"allerr.json", "empty.json"}) {
    auto r = gpucheck({"compare", (dir / "ok.json").string(), (dir / now).string()});
    EXPECT_EQ(r.exit_code, 3) << now << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("NO VERDICT"), std::string::npos) << r.out;
  }
  auto same = gpucheck({"compare", (dir / "ok.json").string(), (dir / "ok.json").string()});
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;  // measured: unchanged, a pass
  fs::remove_all(dir);
}

// The hostile strings of the pass: Markdown markup, a fence, an @-mention, XML noncharacters, a newline
// that forges a verdict line, ESC.
const std::string kMarkdown = "x\n# INJECTED HEADING\n| a | b |\n```\n[click](javascript:alert(1)) "
                              "![t](http://evil.example/t.png) <img src=http://evil.example/p.png> @everyone";
const std::string kNonchars = "GPU \xEF\xBF\xBE name \xEF\xBF\xBF ]]><injected attr=\"1\"/>";

nlohmann::json hostile_report(const fs::path& dir) {
  nlohmann::json rep = real_report(dir);
  auto& f = rep["sections"][0]["findings"][0];
  f["status"] = "fail";
  f["title"] = kMarkdown;
  f["summary"] = kMarkdown + kNonchars;
  f["evidence"] = nlohmann::json::array({nlohmann::json{{"what", "log"}, {"value", "line 1\n```\n# OUT OF THE FENCE\n"}},
                                         nlohmann::json{{"what", "gpu"}, {"value", kNonchars}}});
  return rep;
}

// N6: one U+FFFE in a probe's text or a GPU name made the whole JUnit file unreadable (not XML 1.0).
TEST(Hardening, JUnitWithNoncharactersIsWellFormedXml) {
  auto dir = fresh_temp_dir("junit-nonchar");
  save(dir / "r.json", hostile_report(dir));
  auto r = gpucheck({"report", (dir / "r.json").string(), "--format", "junit", "--out", (dir / "r.xml").string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto lint = run_subprocess({"xmllint", "--noout", "--nonet", (dir / "r.xml").string()});
  EXPECT_TRUE(lint.ok()) << lint.out << lint.err;
  EXPECT_NE(read_file((dir / "r.xml").string()).find("\xEF\xBF\xBD"), std::string::npos);  // shown as U+FFFD
  fs::remove_all(dir);
}

// N7: the format meant to be pasted into an issue passed headings, images, links, raw HTML, @-mentions
// and a fence breakout through from a report.
TEST(Hardening, MarkdownCarriesNoMarkupFromTheReport) {
  auto dir = fresh_temp_dir("md-inject");
  save(dir / "r.json", hostile_report(dir));
  auto r = gpucheck({"report", (dir / "r.json").string(), "--format", "markdown"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::string& md = r.out;
  EXPECT_EQ(md.find("\n# INJECTED"), std::string::npos) << md;
  EXPECT_EQ(md.find("<img"), std::string::npos) << md;
  EXPECT_EQ(md.find("[click]("), std::string::npos) << md;  // "\\[click\\](": text, not a link
  EXPECT_EQ(md.find("!["), std::string::npos) << md;
  EXPECT_EQ(md.find("@everyone"), std::string::npos) << md;  // a word joiner follows every '@'
  EXPECT_EQ(md.find("\n| a | b |"), std::string::npos) << md;
  // The evidence's own ``` stays inside a longer fence: "# OUT OF THE FENCE" is code, after a 4-tick fence.
  auto at = md.find("# OUT OF THE FENCE");
  ASSERT_NE(at, std::string::npos) << md;
  auto open = md.rfind("````", at);
  ASSERT_NE(open, std::string::npos) << md;
  EXPECT_EQ(md.find("````", open + 4) > at, true) << md;
  fs::remove_all(dir);
}

// N8: a newline in a node's host name forged a `PASS:` line under fleet merge's real verdict; ESC in a
// host name reached the terminal.
TEST(Hardening, ForgedLinesAndEscapesInHostNamesAreShownEscaped) {
  auto dir = fresh_temp_dir("forged");
  nlohmann::json rep = real_report(dir);
  rep["sections"][0]["findings"][0]["status"] = "fail";  // so no line of the real verdict starts with PASS:
  fs::create_directories(dir / "fleet");
  rep["host"] = "node7\nnode7                no GPU                 accept\n\nPASS: 1 nodes, 1 accepted, 0 rejected\n"
                "Next step: none\n\x1b[2J\x1b]0;PWNED\a";
  save(dir / "fleet" / "a.json", rep);
  for (const std::string& format : {"text", "markdown"}) {
    auto r = gpucheck({"fleet", "merge", (dir / "fleet").string(), "--format", format});
    EXPECT_NE(r.exit_code, 2) << r.err;
    for (const auto& line : split(r.out, '\n')) {
      EXPECT_NE(line.rfind("PASS:", 0), 0u) << format << ": forged line\n" << r.out;
      EXPECT_NE(line.rfind("Next step: none", 0), 0u) << format << ": forged line\n" << r.out;
    }
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << format;
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << format;
  }
  fs::remove_all(dir);
}

// N14, N15: two contradicting reports of one node were merged without a word (the newer won); an inventory
// of schema_version "999" was read without a note.
TEST(Hardening, SecondReportOfANodeAndAnUnknownSchemaVersionAreNamed) {
  auto dir = fresh_temp_dir("fleet-twice");
  nlohmann::json rep = real_report(dir);
  fs::create_directories(dir / "fleet");
  save(dir / "fleet" / "a.json", rep);
  rep["finished_at"] = "2030-01-01T00:00:00Z";
  save(dir / "fleet" / "b.json", rep);
  auto r = gpucheck({"fleet", "merge", (dir / "fleet").string()});
  EXPECT_NE(r.out.find("2 reports"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("b.json"), std::string::npos) << r.out;
  save(dir / "inv.json", {{"schema_version", "999"}, {"pythons", nlohmann::json::array()}});
  auto d = gpucheck({"doctor", "--from", (dir / "inv.json").string()});
  EXPECT_NE(d.exit_code, 2) << d.err;
  EXPECT_NE(d.out.find("schema_version '999'"), std::string::npos) << d.out;
  fs::remove_all(dir);
}

// N15: one toolkit with a bad version made `modulefiles` write nothing for the good ones. Now the good one is
// written, the bad one is a failed finding (exit 1), and nothing of the bad one reaches a file.
TEST(Hardening, OneBadToolkitCostsTheGoodOnesNoModulefile) {
  auto dir = fresh_temp_dir("modulefiles-partial");
  nlohmann::json good = {{"root", "/usr/local/cuda-13.0"}, {"version", "13.0.48"}, {"nvcc", "/usr/local/cuda-13.0/bin/nvcc"}};
  nlohmann::json bad = {{"root", "/opt/evil"}, {"version", "12.4.1} ; exec touch pwned ; {"}, {"nvcc", "/opt/evil/bin/nvcc"}};
  save(dir / "inv.json", {{"schema_version", "2"}, {"toolkits", nlohmann::json::array({good, bad})}});
  auto r = gpucheck({"modulefiles", "--from", (dir / "inv.json").string(), "--dir", (dir / "m").string()});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(fs::exists(dir / "m" / "tcl" / "cuda" / "13.0")) << r.out;
  EXPECT_TRUE(fs::exists(dir / "m" / "lua" / "cuda" / "13.0.lua")) << r.out;
  EXPECT_NE(r.out.find("not a version number"), std::string::npos) << r.out;
  std::size_t files = 0;
  for (auto& e : fs::recursive_directory_iterator(dir / "m")) {
    files += e.is_regular_file();
    if (e.is_regular_file()) {
      EXPECT_EQ(read_file(e.path().string()).find("pwned"), std::string::npos) << e.path();
    }
  }
  EXPECT_EQ(files, 2u);
  // Only bad toolkits: the refusal itself, one line, exit 2, as before.
  save(dir / "bad.json", {{"schema_version", "2"}, {"toolkits", nlohmann::json::array({bad})}});
  auto b = gpucheck({"modulefiles", "--from", (dir / "bad.json").string(), "--dir", (dir / "n").string()});
  EXPECT_EQ(b.exit_code, 2) << b.err;
  EXPECT_EQ(lines_of(b.err), 1u) << b.err;
  EXPECT_FALSE(fs::exists(dir / "n" / "tcl"));
  fs::remove_all(dir);
}

// A probe directory whose only probe is the misbehaving child in `mode`, and the environment selecting it.
SubprocessOptions one_probe(const fs::path& dir, const std::string& mode, double timeout_s) {
  fs::create_directories(dir / "probes");
  fs::create_directories(dir / "data" / "probes");
  fs::create_symlink(MISBEHAVING_PROBE, dir / "probes" / ("test." + mode));
  std::ofstream(dir / "data" / "probes" / ("test." + mode + ".json"))
      << R"({"id":"test.)" << mode << R"(","title":")" << mode << R"(","levels":["quick"],"timeout_s":)" << timeout_s << "}";
  SubprocessOptions o;
  o.set_env["GPUCHECK_PROBE_DIR"] = (dir / "probes").string();
  o.set_env["GPUCHECK_DATA_DIR"] = (dir / "data").string();
  o.set_env["STUBBORN_PIDS"] = (dir / "pids").string();
  return o;
}

std::vector<int> pids_in(const fs::path& file) {
  std::vector<int> out;
  std::ifstream in(file);
  for (int pid; in >> pid;) out.push_back(pid);
  return out;
}

// Alive and not a zombie (an orphan's zombie is init's to reap, and may be for a moment).
bool alive(int pid) {
  std::string stat = read_proc_text("/proc/" + std::to_string(pid) + "/stat");
  auto close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

bool all_gone(const std::vector<int>& pids) {
  for (int i = 0; i < 40; ++i) {
    bool any = false;
    for (int p : pids) any = any || alive(p);
    if (!any) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

// Runs `args` and signals gpucheck with `signals` (each `gap` apart) once `ready` holds.
SubprocessResult signalled(const std::vector<std::string>& args, const SubprocessOptions& o,
                           const std::function<bool()>& ready, std::vector<int> signals,
                           std::chrono::milliseconds gap, double* after_signal_s) {
  SubprocessResult r;
  std::thread t([&] { r = gpucheck(args, o); });
  for (int i = 0; i < 600 && !ready(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  int pid = -1;
  for (int i = 0; i < 100 && pid < 0; ++i) {  // our child named gpucheck
    for (auto& e : fs::directory_iterator("/proc")) {
      const std::string name = e.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      std::string stat = read_proc_text((e.path() / "stat").string());
      auto open = stat.find('('), close = stat.rfind(')');
      if (open == std::string::npos || close == std::string::npos || close + 4 >= stat.size()) continue;
      if (stat.substr(open + 1, close - open - 1) == "gpucheck" && std::atoi(stat.c_str() + close + 4) == getpid())
        pid = std::stoi(name);
    }
  }
  auto t0 = Clock::now();
  for (std::size_t i = 0; i < signals.size(); ++i) {
    if (i) std::this_thread::sleep_for(gap);
    if (pid > 0) kill(pid, signals[i]);
  }
  t.join();
  *after_signal_s = seconds_since(t0);
  return r;
}

// N3b: a second signal during `run` left a probe that ignores TERM, its child and a setsid grandchild
// alive, and lost the report (exit 143). Now: the second signal SIGKILLs the probe's group at once, the
// subreaper ends the setsid descendant, and the report of what finished is written.
TEST(Hardening, SecondSignalKillsTheProbeAtOnceAndTheReportIsStillWritten) {
  auto dir = fresh_temp_dir("second-signal");
  SubprocessOptions o = one_probe(dir, "stubborn", 120);
  o.timeout = std::chrono::seconds(60);
  double took = 0;
  auto r = signalled({"run", "--only", "test.stubborn", "--no-inventory", "--report-dir", (dir / "reports").string()}, o,
                     [&] { return pids_in(dir / "pids").size() >= 3; }, {SIGTERM, SIGTERM},
                     std::chrono::milliseconds(300), &took);
  auto pids = pids_in(dir / "pids");
  ASSERT_EQ(pids.size(), 3u) << r.err;
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 3) << r.err;  // no verdict, and not killed by the signal (143)
  EXPECT_LT(took, 5.0);
  EXPECT_TRUE(all_gone(pids)) << "the probe, its child or its setsid grandchild outlived gpucheck";
  ASSERT_TRUE(fs::is_directory(dir / "reports"));
  std::size_t reports = 0;
  for (auto& e : fs::directory_iterator(dir / "reports")) {
    reports += e.path().extension() == ".json";
    EXPECT_NE(read_file(e.path().string()).find("run.incomplete"), std::string::npos);
  }
  EXPECT_EQ(reports, 1u);
  fs::remove_all(dir);
}

// N3a: on SIGTERM, `bench` exited at once and left its suite, the suite's child and a setsid grandchild
// running, with no document. Now it stops the suite's group, ends the orphans and writes what finished.
TEST(Hardening, BenchStopsItsSuiteOnASignalAndWritesTheDocument) {
  auto dir = fresh_temp_dir("bench-signal");
  SubprocessOptions o = one_probe(dir, "stubborn", 120);
  // The installed data, with a suite list naming only the stubborn child.
  for (auto& e : fs::directory_iterator(GPUCHECK_STAGE_DATA))
    if (e.path().filename() != "bench" && e.path().filename() != "probes")
      fs::create_symlink(e.path(), dir / "data" / e.path().filename());
  fs::create_directories(dir / "data" / "bench");
  std::ofstream(dir / "data" / "bench" / "suites.json")
      << R"({"suites": [{"name": "stubborn", "executable": "test.stubborn", "subject": "a suite that ignores TERM"}]})";
  o.set_env["GPUCHECK_BENCH_DIR"] = (dir / "probes").string();
  o.timeout = std::chrono::seconds(120);
  double took = 0;
  auto r = signalled({"bench", "--no-python", "--repetitions", "1", "--out", (dir / "b.json").string()}, o,
                     [&] { return pids_in(dir / "pids").size() >= 3; }, {SIGTERM}, std::chrono::milliseconds(0), &took);
  auto pids = pids_in(dir / "pids");
  ASSERT_EQ(pids.size(), 3u) << r.err;
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_TRUE(all_gone(pids)) << "the suite, its child or its setsid grandchild outlived gpucheck";
  ASSERT_TRUE(fs::exists(dir / "b.json")) << r.err;
  auto doc = nlohmann::json::parse(read_file((dir / "b.json").string()));
  EXPECT_TRUE(doc["benchmarks"].is_array());
  fs::remove_all(dir);
}

// N11: `run --report-dir` on a directory that takes no file ran the whole suite, then lost the report.
TEST(Hardening, UnwritableReportDirStopsTheRunBeforeTheFirstProbe) {
  auto dir = fresh_temp_dir("ro-report-dir");
  SubprocessOptions o = one_probe(dir, "good", 30);
  // /proc/self exists, and nobody, root included, can create a file in it.
  auto r = gpucheck({"run", "--only", "test.good", "--no-inventory", "--report-dir", "/proc/self"}, o);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(lines_of(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("/proc/self"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("test.good"), std::string::npos) << "the probe ran: " << r.out;
  EXPECT_EQ(r.err.find("test.good"), std::string::npos) << "the probe ran: " << r.err;
  auto b = gpucheck({"bench", "--no-python", "--dir", "/proc/self"});
  EXPECT_EQ(b.exit_code, 2) << b.err;
  EXPECT_EQ(lines_of(b.err), 1u) << b.err;
  fs::remove_all(dir);
}

// Seconds `gpucheck args` takes.
double cpu_seconds(const struct rusage& ru) {
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

// The CPU seconds (user + system) one gpucheck command took: a ratio of CPU times holds on a machine whose
// other jobs stretch wall time (the sanitizer lane beside two builds took a linear compare past 6x in wall).
double timed(const std::vector<std::string>& args, int expect_exit) {
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(200);
  struct rusage before {}, after {};
  getrusage(RUSAGE_CHILDREN, &before);
  auto r = gpucheck(args, o);
  getrusage(RUSAGE_CHILDREN, &after);
  EXPECT_EQ(r.exit_code, expect_exit) << r.err;
  return cpu_seconds(after) - cpu_seconds(before);
}

// An inventory whose Python has n distributions, each requiring 5 of the others (all installed).
void write_inventory(const fs::path& p, int n) {
  nlohmann::json dists = nlohmann::json::array();
  for (int i = 0; i < n; ++i) {
    nlohmann::json requires = nlohmann::json::array();
    for (int k = 1; k <= 5; ++k) requires.push_back("pkg" + std::to_string((i + k * 7) % n) + ">=0.1");
    dists.push_back({{"name", "pkg" + std::to_string(i)}, {"version", "1.0"}, {"requires_dist", requires},
                     {"location", "/venv/lib/python3.11/site-packages"}});
  }
  save(p, {{"schema_version", "2"},
           {"pythons", nlohmann::json::array({nlohmann::json{{"interpreter", "/venv/bin/python"}, {"version", "3.11.2"},
                                                             {"prefix", "/venv"}, {"distributions", dists}}})}});
}

// N4: `doctor --from` scanned every distribution for each Requires-Dist line: 8,000 took 1.2 s and 32,000
// 29 s (25x for 4x the input). Indexed by name, 4x the input takes about 4x the time; a bound of 10x holds
// on a loaded machine and fails a quadratic lookup. Ratios, not absolute times: CI machines are shared.
TEST(Hardening, DoctorFromAnInventoryOf32000DistributionsIsLinear) {
  auto dir = fresh_temp_dir("doctor-many");
  write_inventory(dir / "small.json", 8000);
  write_inventory(dir / "large.json", 32000);
  const double small = timed({"doctor", "--json", "--from", (dir / "small.json").string()}, 0);
  const double large = timed({"doctor", "--json", "--from", (dir / "large.json").string()}, 0);
  std::printf("doctor --from, 5 Requires-Dist each: 8,000 distributions %.2f s, 32,000 %.2f s\n", small, large);
  EXPECT_LT(large, 10 * small + 1.0) << "quadratic: " << small << " s, then " << large << " s";
  fs::remove_all(dir);
}

// N4: `compare` looked each benchmark up by scanning the other document: 10,000 took 3.0 s, 30,000 22 s and
// 100,000 211 s (fitted: 0.96 s for 5,000 and 10.3 s for 20,000). Now 4x the benchmarks take about 4x the
// time; the bound, 6x, fails that quadratic fit.
TEST(Hardening, CompareOfManyBenchmarksIsLinear) {
  auto dir = fresh_temp_dir("compare-many");
  for (int n : {5000, 20000}) {
    nlohmann::json rows = nlohmann::json::array();
    for (int i = 0; i < n; ++i)
      for (auto& row : benchmark_rows("BM_" + std::to_string(i), 5, false)) rows.push_back(std::move(row));
    save(dir / (std::to_string(n) + ".json"), {{"context", kContext}, {"benchmarks", rows}});
  }
  auto doc = [&](int n) { return (dir / (std::to_string(n) + ".json")).string(); };
  const double small = timed({"compare", "--json", doc(5000), doc(5000)}, 0);
  const double large = timed({"compare", "--json", doc(20000), doc(20000)}, 0);
  std::printf("compare against itself, 5 repetitions each: 5,000 benchmarks %.2f s, 20,000 %.2f s\n", small, large);
  EXPECT_LT(large, 6 * small + 0.5) << "quadratic: " << small << " s, then " << large << " s";
  fs::remove_all(dir);
}

// What one gpucheck command cost: wall time and the peak resident memory of that process alone (wait4). A
// forked child starts with this process's resident pages counted, and exec keeps that high-water mark in
// ru_maxrss: so the memory this test process no longer uses is given back first (malloc_trim), and what it
// still holds is reported beside the figures.
struct Measured {
  double seconds = 0;  // CPU (user + system)
  double peak_mib = 0;
  int exit_code = -1;
};

double own_rss_mib() {
  std::ifstream statm("/proc/self/statm");
  double pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1 << 20);
}

Measured measured(const std::vector<std::string>& args) {
  const std::string bin = gpucheck_binary();
  std::vector<std::string> words = {bin};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  malloc_trim(0);
  pid_t pid = fork();
  if (pid == 0) {
    int null = ::open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  Measured m;
  int status = 0;
  struct rusage ru {};
  if (pid > 0 && wait4(pid, &status, 0, &ru) == pid) {
    m.seconds = cpu_seconds(ru);  // CPU, not wall: see timed()
    m.peak_mib = static_cast<double>(ru.ru_maxrss) / 1024.0;
    m.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  return m;
}

// A run report of `n` findings of the size real probes write (evidence, a fix, a metric): a third each pass,
// warn and skip, every skip with its own reason.
std::uintmax_t write_large_report(const fs::path& p, const nlohmann::json& real, int n) {
  nlohmann::json rep = real;
  nlohmann::json findings = nlohmann::json::array();
  for (int i = 0; i < n; ++i) {
    const std::string k = std::to_string(i);
    findings.push_back({{"id", "probe.synthetic_" + k},
                        {"status", i % 3 == 0 ? "warn" : i % 3 == 1 ? "pass" : "skip"},
                        {"title", "synthetic check " + k + " <b>&amp;</b>"},
                        // Skips of distinct reasons: each joined a row by scanning all rows before (quadratic).
                        {"summary", "12.5 GB/s against 25.0 GB/s expected on device " + std::to_string(i % 8) +
                                        ", check " + k},
                        {"evidence", {{{"what", "device"}, {"value", "GPU-" + k + "-1111-2222-3333"}, {"source", "nvml"}},
                                      {{"what", "stderr_tail"}, {"value", "line one\nline two"}, {"source", ""}}}},
                        {"fixes", {{{"rank", 1}, {"summary", "reinstall"}, {"commands", {"pip install 'pkg" + k + "==1.0'"}}}}},
                        {"metrics", {{{"name", "bandwidth"}, {"value", 12.5}, {"unit", "GB/s"}, {"better", "higher"}}}}});
  }
  rep["sections"] = nlohmann::json::array({{{"name", "probes"}, {"findings", std::move(findings)}}});
  save(p, rep);
  return fs::file_size(p);
}

// N4: `report --html` of 20,000 findings took 41 s and 180,000 did not end in 300 s. Now every format is linear
// in time and memory (4x the findings: under 6x the time, under 5x the peak RSS) and the peak stays under 16
// times the document plus the process's own 64 MiB: findings are read as parsed (no whole JSON tree) and
// the output goes straight into the file (no string of it). Figures: docs/reliability.md, "Largest documents".
TEST(Hardening, ReportOfManyFindingsIsLinearInTimeAndBoundedInMemory) {
  auto dir = fresh_temp_dir("report-many");
  const nlohmann::json real = real_report(dir);
  const auto small_bytes = write_large_report(dir / "small.json", real, 5000);
  const auto large_bytes = write_large_report(dir / "large.json", real, 20000);
  for (const std::string& format : {"html", "text", "markdown", "junit", "prom", "json"}) {
    auto run = [&](const char* name) {
      return measured({"report", (dir / name).string(), "--format", format, "--out", (dir / ("out." + format)).string()});
    };
    const Measured small = run("small.json"), large = run("large.json");
    EXPECT_EQ(small.exit_code, 0) << format;  // warnings and skips: exit 0
    EXPECT_EQ(large.exit_code, 0) << format;
    std::printf("report --format %-8s 5,000 findings (%.1f MB) %.2f s %.0f MiB; 20,000 (%.1f MB) %.2f s %.0f MiB"
                " (this test process: %.0f MiB)\n",
                format.c_str(), small_bytes / 1e6, small.seconds, small.peak_mib, large_bytes / 1e6, large.seconds,
                large.peak_mib, own_rss_mib());
    EXPECT_LT(large.seconds, 6 * small.seconds + 0.5) << format << ": quadratic";
    EXPECT_LT(large.peak_mib, 5 * small.peak_mib) << format << ": memory grows faster than the document";
    if (!kUnderAsan) {  // ASan's shadow and redzones (support/sanitizers.h): only the growth above holds there
      EXPECT_LT(large.peak_mib, 16.0 * static_cast<double>(large_bytes) / (1 << 20) + 64) << format << ": memory";
    }
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gpucheck::test
