// The HTML report in a real headless Chromium (Debian's `chromium`, scripts/packages.txt): pages rendered
// from reports of real commands run here (run --level quick, doctor, compare of two real bench documents,
// fleet merge, a run carrying a real collectives measurement over Open MPI, and a run with hostile text
// planted in a finding) must render (DOM dumped, screenshot decoded and not blank, the verdict banner's
// colour across the top at 1280 and at 400 px), log no console message and request nothing from the
// network (Chromium's own net log, DNS mapped to nowhere). Three control pages prove each check can fail:
// a script error, an image from the network, a blank page.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "cli/cli_support.h"
#include "core/files.h"
#include "png_image.h"

namespace gpucheck::test {
namespace {

namespace fs = std::filesystem;

const Rgb kBackground{0xf6, 0xf6, 0xf4};
const Rgb kPassBanner{0x1b, 0x7f, 0x3b}, kFailBanner{0xb3, 0x26, 0x1e}, kWarnBanner{0xa1, 0x5c, 0x00};

struct Rendered {
  std::string dom;
  std::vector<std::string> console;  // Chromium's "CONSOLE" log lines
  std::vector<std::string> urls;     // network URLs the page asked for (Chromium's own services left out)
  Image shot;
  std::string problem;               // why chromium gave no result
};

// Hosts Chromium itself calls (component updater, time, account and dictionary checks), whatever the page.
bool chromium_own_host(const std::string& host) {
  for (const char* own : {"google.com", "googleapis.com", "gvt1.com", "gstatic.com", "~notfound"})
    if (host == own || (host.size() > std::strlen(own) && host.compare(host.size() - std::strlen(own), std::string::npos, own) == 0 &&
                        host[host.size() - std::strlen(own) - 1] == '.'))
      return true;
  return false;
}

class Browser : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { dir = fresh_temp_dir("html-browser"); }
  static void TearDownTestSuite() {
    std::printf("chromium: %d launches, %.1f s in all\n", launches, seconds);
    fs::remove_all(dir);
  }

  static Rendered render(const fs::path& page, int width) {
    static int n = 0;
    const std::string tag = std::to_string(++n);
    const fs::path shot = dir / ("shot-" + tag + ".png"), netlog = dir / ("net-" + tag + ".json");
    SubprocessOptions o;
    o.timeout = std::chrono::seconds(180);
    o.stderr_limit = 4u << 20;
    auto t0 = std::chrono::steady_clock::now();
    auto r = run_subprocess({find_in_path("chromium"), "--headless", "--no-sandbox", "--disable-gpu",
                             "--user-data-dir=" + (dir / ("profile-" + tag)).string(),
                             "--host-resolver-rules=MAP * ~NOTFOUND", "--no-first-run",
                             "--disable-background-networking", "--disable-component-update", "--disable-sync",
                             "--disable-extensions", "--enable-logging=stderr", "--v=0",
                             "--log-net-log=" + netlog.string(), "--window-size=" + std::to_string(width) + ",2000",
                             "--screenshot=" + shot.string(), "--dump-dom", "file://" + page.string()},
                            o);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ++launches;
    Rendered out;
    if (!r.ok() || !fs::exists(shot)) {
      out.problem = r.describe() + "\n" + r.err.substr(r.err.size() > 3000 ? r.err.size() - 3000 : 0);
      return out;
    }
    out.dom = r.out;
    for (std::size_t start = 0, nl; (nl = r.err.find('\n', start)) != std::string::npos; start = nl + 1) {
      std::string line = r.err.substr(start, nl - start);
      if (line.find(":CONSOLE") != std::string::npos) out.console.push_back(line);
    }
    std::string net = read_file(netlog.string(), 512u << 20);
    static const std::regex url("\"url\":\"((https?|wss?|ftp)://([^/:\"]+)[^\"]*)\"");
    std::set<std::string> seen;
    for (auto it = std::sregex_iterator(net.begin(), net.end(), url); it != std::sregex_iterator(); ++it)
      if (!chromium_own_host((*it)[3]) && seen.insert((*it)[1]).second) out.urls.push_back((*it)[1]);
    out.shot = read_png(shot.string());
    return out;
  }

  // Every check of one page at one width; `banner` is the verdict's colour, expected across the top.
  static void expect_renders(const fs::path& page, int width, Rgb banner, const std::string& verdict, int charts) {
    SCOPED_TRACE(page.filename().string() + " at " + std::to_string(width) + " px");
    Rendered r = render(page, width);
    ASSERT_TRUE(r.problem.empty()) << r.problem;
    EXPECT_TRUE(r.console.empty()) << r.console.front();
    EXPECT_TRUE(r.urls.empty()) << r.urls.front();
    EXPECT_EQ(r.shot.width, width);
    EXPECT_EQ(r.shot.height, 2000);
    // Rendered, not blank: a good share of the screen is not the page background.
    EXPECT_GT(1 - share_of_colour(r.shot, kBackground, 0, r.shot.height, 2), 0.2);
    // The verdict first: the banner's colour fills the top rows (at 400 px as at 1280 px).
    EXPECT_GT(share_of_colour(r.shot, banner, 0, 12, 2), 0.95);
    EXPECT_GT(share_of_colour(r.shot, banner, 0, 120, 2), 0.5);
    EXPECT_NE(r.dom.find("<div class=\"verdict\">" + verdict + "</div>"), std::string::npos) << r.dom.substr(0, 3000);
    int svgs = 0;
    for (auto at = r.dom.find("<svg"); at != std::string::npos; at = r.dom.find("<svg", at + 1)) ++svgs;
    EXPECT_EQ(svgs, charts);
    EXPECT_EQ(r.dom.find("<script"), std::string::npos);
  }

  static fs::path html_of(const fs::path& report) {
    fs::path page = report;
    page.replace_extension(".html");
    auto r = gpucheck({"report", report.string(), "--html", "--out", page.string()});
    EXPECT_NE(r.exit_code, 2) << r.err;
    EXPECT_TRUE(fs::exists(page)) << r.describe() << r.err;
    return page;
  }

  static fs::path dir;
  static int launches;
  static double seconds;
};
fs::path Browser::dir;
int Browser::launches = 0;
double Browser::seconds = 0;

nlohmann::json load(const fs::path& p) { return nlohmann::json::parse(read_file(p.string())); }
void save(const fs::path& p, const nlohmann::json& j) { write_file_atomic(p.string(), j.dump(2)); }

nlohmann::json* probe_in(nlohmann::json& report, const std::string& id) {
  for (auto& s : report["sections"])
    for (auto& f : s["findings"])
      if (f["id"] == id) return &f;
  return nullptr;
}

// `gpucheck run --level quick` here (no GPU: every GPU probe skips): NO GPU TESTED, in the warning colour.
fs::path quick_run(const fs::path& dir) {
  static fs::path path;
  if (!path.empty()) return path;
  path = dir / "run.json";
  auto r = gpucheck({"run", "--level", "quick", "--no-report", "--json", "--out", path.string()});
  EXPECT_TRUE(fs::exists(path)) << r.describe() << r.err;
  return path;
}

TEST_F(Browser, QuickRunPageRendersAt1280And400) {
  const fs::path run = quick_run(dir);
  const std::string verdict = load(run)["summary"]["verdict"];
  const Rgb banner = verdict == "PASS" ? kPassBanner : verdict == "FAIL" ? kFailBanner : kWarnBanner;
  const fs::path page = html_of(run);
  expect_renders(page, 1280, banner, verdict, 0);
  expect_renders(page, 400, banner, verdict, 0);
}

TEST_F(Browser, RunWithARealCollectivesMeasurementDrawsBusbw) {
  // The collectives probe for real on host memory over Open MPI (2 ranks), its result in a run report.
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(300);
  auto coll = run_subprocess({find_in_path("mpirun"), "--allow-run-as-root", "--oversubscribe", "-np", "2",
                              std::string(GPUCHECK_STAGE_PROBES) + "/collectives.nccl", "--transport", "mpi",
                              "--level", "quick", "--max-bytes", "1M", "--json"},
                             o);
  ASSERT_TRUE(coll.ok()) << coll.describe() << coll.err;
  nlohmann::json finding = nlohmann::json::parse(coll.out);
  ASSERT_GT(finding["details"]["rows"].size(), 10u);
  nlohmann::json rep = load(quick_run(dir));
  nlohmann::json* slot = probe_in(rep, "collectives.nccl");
  ASSERT_NE(slot, nullptr);
  *slot = finding;
  // Over MPI it ran on host memory: it is no GPU probe in this report, so the page must still say that
  // no GPU was tested (the GPU probes of this machine skip).
  auto& gpu = rep["details"]["gpu_probes"];
  gpu.erase(std::remove(gpu.begin(), gpu.end(), nlohmann::json("collectives.nccl")), gpu.end());
  save(dir / "run-mpi.json", rep);
  std::set<std::string> collectives;  // one chart per collective: "all_gather", "all_reduce.sum", ...
  for (auto& p : finding["details"]["plateau"]) {
    std::string sweep = p["sweep"];
    collectives.insert(sweep.substr(0, sweep.rfind('.')));
  }
  ASSERT_GE(collectives.size(), 4u);
  const fs::path page = html_of(dir / "run-mpi.json");
  const std::string verdict = finding["status"] == "pass" ? "NO GPU TESTED" : "FAIL";
  expect_renders(page, 1280, verdict == "FAIL" ? kFailBanner : kWarnBanner, verdict, static_cast<int>(collectives.size()));
  const std::string html = read_file(page.string());
  EXPECT_NE(html.find("all_reduce sum: bus bandwidth against message size (collectives.nccl)"), std::string::npos);
  EXPECT_NE(html.find("Host-side checks that ran: collectives.nccl"), std::string::npos);
}

TEST_F(Browser, DoctorPageRenders) {
  auto r = gpucheck({"doctor", "--json", "--out", (dir / "doctor.json").string()});
  ASSERT_TRUE(fs::exists(dir / "doctor.json")) << r.describe() << r.err;
  const std::string verdict = load(dir / "doctor.json")["summary"]["verdict"];
  const Rgb banner = verdict == "PASS" ? kPassBanner : verdict == "FAIL" ? kFailBanner : kWarnBanner;
  expect_renders(html_of(dir / "doctor.json"), 1280, banner, verdict, 0);
}

// Layout is measured, not guessed: a copy of the page (its Content-Security-Policy, which forbids scripts,
// taken out) with a script that writes each status badge's line boxes and height into the DOM. Issue 35: in
// doctor --for's page at 1280 px a `WARN` badge broke into `WAR`/`N` (two line boxes, 35 px high).
std::vector<std::string> badges_on_more_than_one_line(const fs::path& page, int width) {
  std::string html = read_file(page.string());
  html = std::regex_replace(html, std::regex("<meta http-equiv=\"Content-Security-Policy\"[^>]*>"), "");
  const std::string probe =
      "<pre id=\"badge-lines\"></pre><script>{const out=[];document.querySelectorAll('.pill').forEach(p=>{"
      "const lh=parseFloat(getComputedStyle(p).lineHeight)||17;"
      "if(p.getBoundingClientRect().height>1.5*lh)out.push(p.textContent);});"
      "document.getElementById('badge-lines').textContent='measured:'+out.join(',');}</script>";
  const auto body = html.rfind("</body>");
  html.insert(body == std::string::npos ? html.size() : body, probe);
  const fs::path measured = page.parent_path() / (page.stem().string() + "-measured.html");
  write_file_atomic(measured.string(), html);
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(180);
  auto r = run_subprocess({find_in_path("chromium"), "--headless", "--no-sandbox", "--disable-gpu",
                           "--user-data-dir=" + (page.parent_path() / "profile-measure").string(),
                           "--host-resolver-rules=MAP * ~NOTFOUND", "--no-first-run", "--disable-background-networking",
                           "--window-size=" + std::to_string(width) + ",2000", "--virtual-time-budget=2000",
                           "--dump-dom", "file://" + measured.string()},
                          o);
  std::smatch m;
  static const std::regex found("<pre id=\"badge-lines\">measured:([^<]*)</pre>");
  if (!r.ok() || !std::regex_search(r.out, m, found)) return {"(not measured: " + r.describe() + ")"};
  std::vector<std::string> out;
  std::string list = m[1];
  for (std::size_t start = 0, comma; start < list.size(); start = comma + 1) {
    comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    out.push_back(list.substr(start, comma - start));
  }
  return out;
}

TEST_F(Browser, StatusBadgesStayOnOneLineAt1280And400) {
  auto r = gpucheck({"doctor", "--for", "bmtrain==0.2.2", "--json", "--out", (dir / "doctor-for.json").string()});
  ASSERT_TRUE(fs::exists(dir / "doctor-for.json")) << r.describe() << r.err;
  const fs::path page = html_of(dir / "doctor-for.json");
  ASSERT_NE(read_file(page.string()).find("class=\"pill warn\""), std::string::npos) << "no WARN badge to measure";
  for (int width : {1280, 400}) {
    const auto broken = badges_on_more_than_one_line(page, width);
    EXPECT_TRUE(broken.empty()) << width << " px: " << broken.front();
  }
}

TEST_F(Browser, CompareOfTwoRealBenchDocumentsDrawsTheRegression) {
  const std::vector<std::string> bench{"bench", "--suite", "regression", "--filter", "BM_ExactDistribution/30",
                                       "--min-time", "0.05", "--no-python", "--out"};
  auto args = bench;
  args.push_back((dir / "base.json").string());
  ASSERT_EQ(gpucheck(args).exit_code, 0);
  args = bench;
  args.push_back((dir / "slow.json").string());
  args.insert(args.end(), {"--test-slowdown", "2"});  // twice the work, on purpose
  ASSERT_EQ(gpucheck(args).exit_code, 0);
  auto r = gpucheck({"compare", (dir / "base.json").string(), (dir / "slow.json").string(), "--json", "--out",
                     (dir / "compare.json").string()});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const fs::path page = html_of(dir / "compare.json");
  expect_renders(page, 1280, kFailBanner, "FAIL", 1);
  EXPECT_NE(read_file(page.string()).find("Median time change, new against base"), std::string::npos);
}

TEST_F(Browser, FleetMergeHtmlRenders) {
  nlohmann::json base = load(quick_run(dir));
  fs::create_directories(dir / "fleet");
  for (int i = 1; i <= 4; ++i) {
    nlohmann::json node = base;
    node["host"] = "node" + std::to_string(i);
    if (i == 4)  // another cuBLAS than the rest of the fleet: drift, rejected
      node["inventory"]["libraries"].push_back({{"name", "libcublas"}, {"soname", "libcublas.so.13"},
                                                {"version", "13.0.1"}, {"path", "/opt/other/libcublas.so.13"},
                                                {"loader_pick", true}});
    save(dir / "fleet" / ("node" + std::to_string(i) + ".json"), node);
  }
  const fs::path page = dir / "fleet.html";
  auto r = gpucheck({"fleet", "merge", (dir / "fleet").string(), "--html", "--out", page.string()});
  ASSERT_EQ(r.exit_code, 1) << r.describe() << r.err;
  expect_renders(page, 1280, kFailBanner, "FAIL", 0);
  expect_renders(page, 400, kFailBanner, "FAIL", 0);
  const std::string html = read_file(page.string());
  EXPECT_NE(html.find("4 node reports merged: 3 accepted, 1 rejected, 0 incomplete."), std::string::npos) << html;
  // The drain line among what needs attention, ready to copy, not folded away.
  const auto attention = html.find("id=\"attention\""), checks = html.find("id=\"checks\"");
  const auto drain = html.find("<pre><code>scontrol update NodeName=node4 State=DRAIN");
  EXPECT_TRUE(attention < drain && drain < checks) << html;
}

TEST_F(Browser, HostileTextInAReportStaysInert) {
  nlohmann::json rep = load(quick_run(dir));
  nlohmann::json* f = probe_in(rep, "host.info");
  ASSERT_NE(f, nullptr);
  const std::string planted = "<script>console.error('planted')</script><img src=\"http://planted.invalid/x.png\"/>"
                              "\"><script>console.error('attr')</script> '\x1b[2J\x1b]0;t\x07 end";
  (*f)["summary"] = planted;
  (*f)["title"] = planted;
  (*f)["evidence"].push_back({{"what", planted}, {"value", planted}, {"source", planted}});
  (*f)["fixes"].push_back({{"rank", 9}, {"summary", planted}, {"commands", {planted}}, {"cost", planted}});
  (*f)["status"] = "fail";
  save(dir / "hostile.json", rep);
  expect_renders(html_of(dir / "hostile.json"), 1280, kFailBanner, "FAIL", 0);
}

// The checks above can fail: each control page trips exactly the check it is for.
TEST_F(Browser, ChecksCatchAScriptErrorANetworkRequestAndABlankPage) {
  write_file_atomic((dir / "script-error.html").string(),
                    "<!DOCTYPE html><html><body><p>x</p><script>no_such_function_gpucheck();</script></body></html>");
  Rendered bad = render(dir / "script-error.html", 1280);
  ASSERT_TRUE(bad.problem.empty()) << bad.problem;
  ASSERT_EQ(bad.console.size(), 1u);
  EXPECT_NE(bad.console[0].find("no_such_function_gpucheck is not defined"), std::string::npos) << bad.console[0];

  write_file_atomic((dir / "network.html").string(),
                    "<!DOCTYPE html><html><body><img src=\"http://gpucheck-test.invalid/x.png\"/></body></html>");
  Rendered net = render(dir / "network.html", 1280);
  ASSERT_TRUE(net.problem.empty()) << net.problem;
  ASSERT_FALSE(net.urls.empty());
  EXPECT_EQ(net.urls[0], "http://gpucheck-test.invalid/x.png");

  write_file_atomic((dir / "blank.html").string(), "<!DOCTYPE html><html><body style=\"background:#f6f6f4\"></body></html>");
  Rendered blank = render(dir / "blank.html", 1280);
  ASSERT_TRUE(blank.problem.empty()) << blank.problem;
  EXPECT_LT(1 - share_of_colour(blank.shot, kBackground, 0, blank.shot.height, 2), 0.001);
  EXPECT_LT(share_of_colour(blank.shot, kWarnBanner, 0, 12, 2), 0.01);
}

}  // namespace
}  // namespace gpucheck::test
