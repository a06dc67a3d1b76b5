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
#include "model/verdict.h"
#include "render/markdown_escape.h"
#include "render/html_escape.h"
#include "render/render.h"

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
    if (line.rfind("   ", 0) == 0) continue;  // a description wrapped at the terminal width continues here
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
    const std::string scenarios = std::string(GPUCHECK_SOURCE_DIR) + "/tests/checks/doctor/scenarios/three_toolkits.json";
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
        {"diff", {(dir / "env.json").string(), (dir / "env.json").string()}},
        {"completion", {"bash"}},
        {"man", {}},
        {"selftest", {}},
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

// Commands whose text is data, not a verdict: no "Next step" line, and -q leaves them as they are.
bool reports_data(const std::string& command) {
  return command == "list" || command == "version" || command == "use-cuda" || command == "modulefiles" ||
         command == "completion" || command == "man";
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::size_t columns(const std::string& line) {
  std::size_t n = 0;
  for (unsigned char c : line) n += (c & 0xC0) != 0x80;  // UTF-8 characters (no colour: not a terminal)
  return n;
}

// A line may pass the edge only when nothing could break it: a command to copy ("$ ..."), a shell line of
// use-cuda, or one token (a path, a URL) after its indent and at most a short marker ("-", "1.", "|").
bool unbreakable(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  if (words.empty()) return false;
  if (words[0] == "$" || words[0] == "export") return true;
  if (words.size() == 2 && words[0].size() <= 3 && words[0].find_first_of("abcdefghijklmnopqrstuvwxyz") == std::string::npos)
    return true;
  return words.size() == 1;
}

// Every line of `text` fits `width` columns unless unbreakable; returns the offending lines.
std::string too_wide(const std::string& text, std::size_t width) {
  std::string bad;
  for (const auto& line : lines_of(text))
    if (columns(line) > width && !unbreakable(line)) bad += "  |" + line + "|\n";
  return bad;
}

TEST_F(EveryCommand, TextAndHelpFitTheTerminalWidthAndVerdictsEndWithOneNextStep) {
  ASSERT_FALSE(shared_object.empty());
  for (int width : {80, 60, 0}) {
    SubprocessOptions o;
    o.unset_env = {"NO_COLOR"};
    // Not a terminal: $COLUMNS is the width; without it (0 here), 80 (README "Output").
    if (width) o.set_env["COLUMNS"] = std::to_string(width);
    else o.unset_env.push_back("COLUMNS");
    const std::size_t w = width ? static_cast<std::size_t>(width) : 80u;
    auto top = gpucheck({"--help"}, o);
    EXPECT_EQ(top.exit_code, 0);
    EXPECT_EQ(too_wide(top.out, w), "") << "gpucheck --help at " << width << " columns";
    for (const auto& c : cases()) {
      SCOPED_TRACE("gpucheck " + c.command + " at " + std::to_string(width) + " columns");
      auto help = gpucheck({c.command, "--help"}, o);
      EXPECT_EQ(help.exit_code, 0) << help.err;
      EXPECT_EQ(too_wide(help.out, w), "") << help.out;
      auto text = gpucheck(argv_of(c, {}), o);
      ASSERT_TRUE(text.exited && text.exit_code <= 1) << text.describe() << text.err;
      // A completion script and a man page are files for a program, not a screen (`man` wraps the page).
      if (c.command != "completion" && c.command != "man") {
        EXPECT_EQ(too_wide(text.out, w), "") << text.out;
      }
      EXPECT_EQ(too_wide(text.err, w), "") << "stderr:\n" << text.err;
      auto lines = lines_of(text.out);
      std::size_t steps = 0;
      for (const auto& l : lines) steps += l.rfind("Next step: ", 0) == 0;
      if (reports_data(c.command)) {
        EXPECT_EQ(steps, 0u) << text.out;
        continue;
      }
      ASSERT_FALSE(lines.empty());
      EXPECT_EQ(steps, 1u) << text.out;
      // The verdict closes the text: "Next step: ..." is its last line (wrapped lines continue it).
      std::size_t at = lines.size();
      for (std::size_t i = 0; i < lines.size(); ++i)
        if (lines[i].rfind("Next step: ", 0) == 0) at = i;
      for (std::size_t i = at + 1; i < lines.size(); ++i) EXPECT_EQ(lines[i].rfind("  ", 0), 0u) << lines[i];
    }
  }
}

TEST_F(EveryCommand, QuietPrintsNothingOnSuccessElseTheVerdictAndTheNextStep) {
  for (const auto& c : cases()) {
    SCOPED_TRACE("gpucheck -q " + c.command);
    auto full = gpucheck(argv_of(c, {}));
    auto quiet = gpucheck(argv_of(c, {"-q"}));
    ASSERT_TRUE(quiet.exited) << quiet.describe();
    EXPECT_EQ(quiet.exit_code, full.exit_code) << quiet.err;
    if (c.command == "use-cuda" || c.command == "list" || c.command == "version" || c.command == "completion" ||
        c.command == "man") {
      EXPECT_EQ(quiet.out, full.out) << "the data asked for is the output";
      continue;
    }
    // Exit 0 prints nothing, except a run whose GPU probes all skipped: NO GPU TESTED is no pass (issue 31).
    const bool no_gpu_tested = full.out.find("\nNO GPU TESTED: ") != std::string::npos;
    if ((quiet.exit_code == 0 && !no_gpu_tested) || reports_data(c.command)) {
      EXPECT_EQ(quiet.out, "") << quiet.out;
      continue;
    }
    auto lines = lines_of(quiet.out);
    ASSERT_GE(lines.size(), 2u) << quiet.out;
    EXPECT_EQ(lines[1].rfind("Next step: ", 0), 0u) << quiet.out;
    EXPECT_NE(full.out.find(lines[0]), std::string::npos) << "the verdict line is the full text's";
  }
  // On a run, -q also silences the per-probe lines on stderr when all pass.
  auto run = gpucheck({"-q", "run", "--only", "host.info", "--no-report", "--no-inventory"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out + run.err, "");
}

TEST_F(EveryCommand, ColorAlwaysColoursAPipeNeverAndNoColorDoNot) {
  SubprocessOptions no_color;
  no_color.set_env["NO_COLOR"] = "1";
  for (const auto& c : cases()) {
    if (reports_data(c.command)) continue;
    SCOPED_TRACE("gpucheck " + c.command);
    auto always = gpucheck(argv_of(c, {"--color", "always"}));
    EXPECT_NE(always.out.find("\033["), std::string::npos) << "--color always colours into a pipe:\n" << always.out;
    EXPECT_EQ(gpucheck(argv_of(c, {"--color", "never"})).out.find('\033'), std::string::npos);
    EXPECT_EQ(gpucheck(argv_of(c, {}), no_color).out.find('\033'), std::string::npos);
  }
}

// How each format writes a string it shows (render/junit.cpp, render/prometheus.cpp, render/html_escape.h).
std::string xml_text(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\n': out += "&#10;"; break;
      case '\t': out += "&#9;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string prom_label(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

// How a string of the report appears in format `f`. Markdown escapes prose (markdown_escape.h) and shows a
// command (`command`) verbatim inside a fence.
std::string shown_as(render::Format f, const std::string& s, bool command = false) {
  if (f == render::Format::kMarkdown) return command ? s : render::markdown::text(s);
  if (f == render::Format::kHtml) return render::html::escape(s);
  if (f == render::Format::kJunit) return xml_text(s);
  if (f == render::Format::kPrometheus) return prom_label(s);
  return s;
}

const char* name_of(render::Format f) {
  switch (f) {
    case render::Format::kText: return "text";
    case render::Format::kJson: return "json";
    case render::Format::kMarkdown: return "markdown";
    case render::Format::kJunit: return "junit";
    case render::Format::kPrometheus: return "prometheus";
    case render::Format::kHtml: return "html";
  }
  return "?";
}

// The report of a real run here, as `--json` printed it.
model::Report report_of(const Case& c, nlohmann::json* doc = nullptr) {
  auto shown = gpucheck(argv_of(c, {"--json"}));
  EXPECT_TRUE(shown.exited && shown.exit_code <= 1) << shown.describe() << shown.err;
  nlohmann::json j = nlohmann::json::parse(shown.out);
  if (doc) *doc = j;
  return model::report_from_json(j);
}

const std::vector<render::Format> kFormats = {render::Format::kText,  render::Format::kJson,
                                              render::Format::kMarkdown, render::Format::kJunit,
                                              render::Format::kPrometheus, render::Format::kHtml};

std::string rendered(const model::Report& r, render::Format f) {
  std::ostringstream out;
  render::RenderOptions o;
  o.width = 1000;  // the lines compared whole
  render::render(r, f, out, o);
  return out.str();
}

// Every format of `r` shows the model's one verdict (its word and its line with the counts), the next step
// and every fix command of what needs attention; JSON and Prometheus carry the counts as numbers too.
void expect_one_verdict_everywhere(const model::Report& r) {
  const model::Verdict v = model::verdict(r);
  std::vector<std::string> commands;
  for (const auto* f : model::attention(r))
    for (const auto& fix : f->fixes) commands.insert(commands.end(), fix.commands.begin(), fix.commands.end());
  for (auto format : kFormats) {
    SCOPED_TRACE(name_of(format));
    const std::string out = rendered(r, format);
    if (format == render::Format::kJson) {
      auto j = nlohmann::json::parse(out);
      EXPECT_EQ(j["summary"]["verdict"], v.word);
      EXPECT_EQ(j["summary"]["verdict_line"], v.line);
      EXPECT_EQ(j["summary"]["counts"], nlohmann::json(v.counts));
      EXPECT_EQ(j["summary"]["exit_code"], v.exit_code);
      EXPECT_EQ(j["summary"]["next_step"]["advice"], v.next.advice);
      EXPECT_EQ(j["summary"]["next_step"]["command"], v.next.command);
      for (const auto& c : commands) EXPECT_NE(j["sections"].dump().find(nlohmann::json(c).dump()), std::string::npos) << c;
      continue;
    }
    // The listings' text is the data asked for (a script, shell lines, a table): no verdict line.
    const bool text_without_verdict = format == render::Format::kText && !model::judges(r);
    if (!text_without_verdict) EXPECT_NE(out.find(shown_as(format, v.line)), std::string::npos) << v.line << "\n" << out;
    if (format != render::Format::kText) EXPECT_NE(out.find(shown_as(format, v.word)), std::string::npos) << v.word;
    if (!v.next.advice.empty()) EXPECT_NE(out.find(shown_as(format, v.next.advice)), std::string::npos) << v.next.advice << "\n" << out;
    if (!v.next.command.empty()) EXPECT_NE(out.find(shown_as(format, v.next.command, true)), std::string::npos) << v.next.command;
    for (const auto& c : commands) EXPECT_NE(out.find(shown_as(format, c, true)), std::string::npos) << c << "\n" << out;
    if (format == render::Format::kPrometheus)
      for (const auto& [status, n] : v.counts)
        EXPECT_NE(out.find("gpucheck_findings{command=\"" + r.meta.command + "\",status=\"" + status + "\"} " + std::to_string(n)),
                  std::string::npos) << status;
    if (format == render::Format::kJunit) {
      EXPECT_EQ(out.find("<failure message=\"\""), std::string::npos) << "a failure without a message:\n" << out;
      EXPECT_EQ(out.find("<error message=\"\""), std::string::npos) << "an error without a message:\n" << out;
    }
    // A verdict other than the report's never appears as one (env's markdown said PASS).
    if (v.kind != model::VerdictKind::kPass && format != render::Format::kText) {
      EXPECT_EQ(out.find(": PASS"), std::string::npos) << out;
    }
  }
}

TEST_F(EveryCommand, EveryFormatShowsTheOneVerdictCountsNextStepAndFixCommands) {
  ASSERT_FALSE(shared_object.empty());
  for (const auto& c : cases()) {
    SCOPED_TRACE("gpucheck " + c.command);
    expect_one_verdict_everywhere(report_of(c));
  }
}

// The failed `pip install bmtrain==0.2.2` of the seed report (tests/data/logs, a real pip log): explain says
// EXPLAINED with its root cause and the fix's commands in every format, not PASS and prose.
TEST_F(EveryCommand, ExplainOfTheFailedBmtrainInstallIsExplainedInEveryFormat) {
  const Case c{"explain", {"--no-env", std::string(GPUCHECK_TEST_DATA) + "/logs/bmtrain-0.2.2-no-torch.log"}};
  nlohmann::json doc;
  const model::Report r = report_of(c, &doc);
  const model::Verdict v = model::verdict(r);
  EXPECT_EQ(v.word, "EXPLAINED");
  const Finding* root = model::root_cause(r);
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->id, "install.setup_imports_torch");  // doctor's id for the same cause (core/verdict.h)
  ASSERT_FALSE(root->fixes.empty());
  ASSERT_FALSE(root->fixes.front().commands.empty()) << "the fix's commands are its `commands`, not in its prose";
  for (const auto& fix : root->fixes)
    for (const auto& cmd : fix.commands) EXPECT_EQ(fix.summary.find(cmd), std::string::npos) << fix.summary;
  EXPECT_FALSE(doc["sections"][0]["findings"][0]["fixes"][0]["commands"].empty()) << doc.dump(1);
  expect_one_verdict_everywhere(r);
  for (auto format : {render::Format::kMarkdown, render::Format::kJunit, render::Format::kPrometheus, render::Format::kHtml}) {
    SCOPED_TRACE(name_of(format));
    const std::string out = rendered(r, format);
    EXPECT_NE(out.find(root->id), std::string::npos) << "the root cause";
    EXPECT_EQ(out.find("PASS"), std::string::npos) << out;
    for (const auto& cmd : root->fixes.front().commands) EXPECT_NE(out.find(shown_as(format, cmd, true)), std::string::npos) << cmd;
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
