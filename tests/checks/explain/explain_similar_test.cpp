// Similar reports: the index generator (corpus-format cases and the older fixtures), the ranking (TF-IDF
// over normalised tokens, deterministic) measured leave-one-out on the real fixture logs, and what
// `gpucheck explain` shows (details.similar, "similar reports:" lines within 80 columns).
#include <unistd.h>

#include <filesystem>
#include <set>

#include <gtest/gtest.h>

#include "checks/explain/similar_reports.h"
#include "core/files.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "explain_test_util.h"
#include "fixture_corpus.h"

using namespace gpucheck::explain;
using namespace gpucheck::explain::testing;
namespace fs = std::filesystem;

namespace {

const std::string kBin = std::string(GPUCHECK_STAGE_BIN);
const std::string kData = std::string(GPUCHECK_TEST_DATA);

gpucheck::SubprocessResult run(std::vector<std::string> args) {
  gpucheck::SubprocessOptions o;
  o.unset_env = {"NO_COLOR"};
  return gpucheck::run_subprocess(args, o);
}

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/gpucheck-similar-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path); }
};

nlohmann::json build_index(const std::vector<std::string>& dirs) {
  TempDir t;
  std::vector<std::string> args = {kBin + "/explain_similar_index", "--signatures",
                                   std::string(GPUCHECK_SOURCE_DIR) + "/data/signatures", "--out", t.path + "/similar.json"};
  args.insert(args.end(), dirs.begin(), dirs.end());
  auto r = run(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return gpucheck::read_json_file(t.path + "/similar.json");
}

const nlohmann::json& staged_index() {
  static const nlohmann::json j = gpucheck::read_json_file(std::string(GPUCHECK_STAGE_DATA) + "/explain/similar.json");
  return j;
}

}  // namespace

TEST(ExplainSimilarTokens, VersionsNumbersAndCaseDoNotMakeLogsDifferent) {
  EXPECT_EQ(similarity_tokens("RuntimeError: The detected CUDA version (12.2) mismatches PyTorch (11.7)."),
            (std::vector<std::string>{"runtimeerror", "the", "detected", "cuda", "version", "mismatches", "pytorch"}));
  EXPECT_EQ(similarity_tokens("libcudart.so.12: cannot open sm_86 0x7f3a"),
            (std::vector<std::string>{"libcudart.so.00", "cannot", "open", "sm_00"}));  // addresses dropped
  EXPECT_EQ(similarity_tokens("ImportError: libcudart.so.11.0"), similarity_tokens("importerror: LIBCUDART.so.12.1"));
}

TEST(ExplainSimilarIndex, GeneratorKeepsDistinctiveLinesOfCasesWithAThreadOnly) {
  auto idx = build_index({kData + "/similar"});
  ASSERT_EQ(idx.at("version"), 1);
  const auto& cases = idx.at("cases");
  ASSERT_EQ(cases.size(), 2u) << "the case without a URL is left out";
  EXPECT_EQ(cases[0]["name"], "cpm-bee-57");  // sorted by name
  EXPECT_EQ(cases[1]["name"], "vllm-1060");
  EXPECT_EQ(cases[1]["url"], "https://github.com/vllm-project/vllm/issues/1060");
  EXPECT_EQ(cases[1]["causes"], nlohmann::json::array({"cuda-mismatch-nvcc-torch"}));
  EXPECT_EQ(cases[1]["fix"], "build with nvcc 11.7, the CUDA version torch was built with");
  EXPECT_EQ(cases[1]["fix_confirmed"], true);
  EXPECT_EQ(cases[1]["family"], "build");
  for (const auto& c : cases) {
    EXPECT_LE(c["lines"].size(), 16u);
    EXPECT_GE(c["lines"].size(), 2u);
    for (const auto& l : c["lines"]) EXPECT_LE(l.get<std::string>().size(), 200u);
  }
  // The distinctive lines, not the log: the mismatch message is there, pip's progress lines are not.
  std::string all;
  for (const auto& l : cases[1]["lines"]) all += l.get<std::string>() + "\n";
  EXPECT_NE(all.find("The detected CUDA version (12.2) mismatches"), std::string::npos) << all;
  auto log = gpucheck::read_file(kData + "/similar/vllm-1060.log");
  EXPECT_LT(cases[1]["lines"].dump().size() * 2, log.size());
}

TEST(ExplainSimilarIndex, FixtureShapeGivesEveryExpectedCauseRootFirst) {
  auto idx = build_index({kData + "/logs"});
  bool seen = false;
  for (const auto& c : idx.at("cases")) {
    EXPECT_EQ(c["url"].get<std::string>().rfind("http", 0), 0u) << c["name"];
    if (c["name"] == "cpm-bee-57-seed") {
      seen = true;
      EXPECT_EQ(c["causes"], nlohmann::json::array({"build-isolation-missing-torch", "cuda-mismatch-nvcc-torch"}));
      EXPECT_EQ(c["fix"], "");
    }
  }
  EXPECT_TRUE(seen);
  EXPECT_EQ(build_index({kData + "/corpus", kData + "/logs"}), staged_index())
      << "the staged index is built from tests/data/corpus and tests/data/logs";
}

// Leave-one-out on the real fixture logs: the index without the case (and without any case of the same
// thread); the best similar report must share a cause with the log's expected causes.
TEST(ExplainSimilarRanking, NearestOtherThreadSharesTheCauseLeaveOneOut) {
  const auto& all = staged_index().at("cases");
  int scored = 0, same = 0, listed = 0;
  for (const auto& f : load_fixtures(kData + "/logs")) {
    if (f.expected.empty() || f.expected == std::set<std::string>{"unknown"}) continue;
    std::string url;
    for (const auto& c : all)
      if (c["name"] == f.name) url = c["url"];
    if (url.empty()) continue;
    nlohmann::json rest = {{"version", 1}, {"cases", nlohmann::json::array()}};
    for (const auto& c : all)
      if (c["url"] != url) rest["cases"].push_back(c);
    SimilarIndex index(rest);
    auto ex = explain_string(gpucheck::read_file(f.log_path));
    add_similar_reports(ex, index);
    const auto findings = ex.findings();
    const auto& top = findings.front().details.at("similar");
    ++scored;
    if (top.empty()) continue;
    ++listed;
    if (f.expected.count(top[0]["cause"].get<std::string>())) ++same;
  }
  std::printf("similar reports, leave-one-out: %d logs, %d with a report listed, top-1 same cause %d (%.0f%%)\n",
              scored, listed, same, 100.0 * same / std::max(scored, 1));
  ASSERT_GT(scored, 50);
  EXPECT_EQ(listed, scored) << "every log gets a similar report";
  EXPECT_GE(same * 100, scored * 80) << same << " of " << scored;
}

TEST(ExplainSimilarRanking, IsDeterministicAndUnknownGetsReportsToo) {
  SimilarIndex index(staged_index());
  auto ex1 = explain_string(gpucheck::read_file(kData + "/logs/heldout-detectron2-5162.log"));
  auto ex2 = ex1;
  add_similar_reports(ex1, index);
  add_similar_reports(ex2, index);
  ASSERT_FALSE(ex1.identified());
  EXPECT_EQ(ex1.unknown.details.at("similar"), ex2.unknown.details.at("similar"));
  EXPECT_FALSE(ex1.unknown.details.at("similar").empty());
  // Unrelated noise has no similar report.
  auto noise = explain_string("hello world\nall good here\n");
  add_similar_reports(noise, index);
  EXPECT_TRUE(noise.unknown.details.at("similar").empty());
}

TEST(ExplainSimilarCli, CausesAndUnknownListThreadsWithTheirFixWithin80Columns) {
  auto r = run({kBin + "/gpucheck", "explain", "--no-env", kData + "/logs/vllm-1060.log"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto at = r.out.find("similar reports:");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("- https://github.com/", at), std::string::npos);
  for (const auto& line : gpucheck::split(r.out.substr(at), '\n')) EXPECT_LE(line.size(), 80u) << line;
  auto j = run({kBin + "/gpucheck", "explain", "--no-env", "--json", kData + "/logs/heldout-detectron2-5162.log"});
  EXPECT_EQ(j.exit_code, 1);
  auto doc = nlohmann::json::parse(j.out);
  const auto& sim = doc["sections"][0]["findings"][0]["details"]["similar"];
  ASSERT_FALSE(sim.empty());
  for (const char* key : {"case", "url", "cause", "fix", "fix_confirmed", "score"}) EXPECT_TRUE(sim[0].contains(key)) << key;
}
