// Matching that generalises: weak signals add up to a verdict, context discriminators (pip's phase, the
// build backend, versions in the log) decide between look-alikes, and a cause below its minimum confidence
// is not named (unknown, with the candidate and the reason) rather than named wrongly. The signatures
// here are written for the test; the context signatures are the shipped ones, the logs real fixtures.
#include <gtest/gtest.h>

#include "core/errors.h"
#include "core/files.h"
#include "explain_test_util.h"

using namespace gpucheck::explain;
using namespace gpucheck::explain::testing;

namespace {

// The shipped context signatures (pip phase, torch version, ...) plus the causes given.
std::vector<Signature> with_context(const char* causes_json) {
  std::vector<Signature> sigs = parse_signatures(nlohmann::json::parse(causes_json), "test.json");
  for (const auto& s : source_signatures())
    if (s.kind == "context") sigs.push_back(s);
  return sigs;
}

Explanation run(const std::vector<Signature>& sigs, const std::string& log) {
  return explain_text(log, sigs, make_fact_call(nullptr, {}));
}

std::string fixture(const char* name) { return gpucheck::read_file(std::string(GPUCHECK_TEST_DATA) + "/logs/" + name); }

const char* kOomSignals = R"J({"signatures": [{
  "id": "build-oom", "title": "the build ran out of memory", "explanation": "e", "sources": ["u"],
  "threshold": 0.8,
  "signals": [
    {"name": "compiler killed", "literals": ["Killed signal terminated program"], "regex": "Killed signal terminated program (?P<prog>\\S+)", "weight": 0.5},
    {"name": "ninja failed", "literals": ["ninja: build stopped"], "regex": "ninja: build stopped: subcommand failed", "weight": 0.3},
    {"name": "parallel jobs", "literals": ["MAX_JOBS"], "regex": "MAX_JOBS=(?P<jobs>\\d+)", "weight": 0.3}
  ]}]})J";

const char* kKilled = "c++: fatal error: Killed signal terminated program cc1plus\n";
const char* kNinja = "ninja: build stopped: subcommand failed.\n";
const char* kJobs = "+ MAX_JOBS=64 pip install flash-attn\n";

}  // namespace

TEST(ExplainSignals, OneWeakSignalIsNotAVerdictButACandidate) {
  auto sigs = with_context(kOomSignals);
  auto ex = run(sigs, std::string("building...\n") + kKilled);
  EXPECT_FALSE(ex.identified());
  const auto& cands = ex.unknown.details.at("candidates");
  ASSERT_EQ(cands.size(), 1u);
  EXPECT_EQ(cands[0]["id"], "build-oom");
  EXPECT_EQ(cands[0]["why_not"], "signals add up to 0.50 of the 0.80 needed");
  EXPECT_EQ(cands[0]["first_line"], 2);
}

TEST(ExplainSignals, WeakSignalsAddUpToAVerdictWithTheirConfidence) {
  auto sigs = with_context(kOomSignals);
  auto ex = run(sigs, std::string(kJobs) + kKilled + kNinja);
  ASSERT_TRUE(ex.identified());
  const gpucheck::Finding& c = ex.causes.at(0);
  EXPECT_EQ(c.id, "build-oom");
  // noisy-or of the three weights: 1 - 0.5 * 0.7 * 0.7
  EXPECT_NEAR(c.details.at("confidence").get<double>(), 0.76, 0.005);
  EXPECT_NEAR(c.details.at("signal_weight").get<double>(), 1.1, 1e-9);
  EXPECT_EQ(c.details.at("signals").get<std::vector<std::string>>(),
            (std::vector<std::string>{"compiler killed", "ninja failed", "parallel jobs"}));
  EXPECT_EQ(captures(c).at("jobs"), "64");
  EXPECT_EQ(captures(c).at("prog"), "cc1plus");
  EXPECT_EQ(lines(c), (std::vector<std::uint64_t>{1, 2, 3}));
  // Two of them (0.5 + 0.3) reach the threshold too; the other pair (0.3 + 0.3) does not.
  EXPECT_TRUE(run(sigs, std::string(kKilled) + kNinja).identified());
  EXPECT_FALSE(run(sigs, std::string(kJobs) + kNinja).identified());
}

TEST(ExplainSignals, ADecisivePatternStillNamesAloneAndSignalsCorroborate) {
  auto sigs = with_context(R"J({"signatures": [{
    "id": "x", "title": "t", "explanation": "e", "sources": ["u"],
    "patterns": [{"literals": ["CUDA out of memory"], "regex": "CUDA out of memory", "confidence": 0.9}],
    "signals": [{"literals": ["Tried to allocate"], "regex": "Tried to allocate", "weight": 0.5}]}]})J");
  auto alone = run(sigs, "torch.OutOfMemoryError: CUDA out of memory.\n");
  ASSERT_TRUE(alone.identified());
  EXPECT_NEAR(alone.causes[0].details.at("confidence").get<double>(), 0.9, 1e-9);
  auto both = run(sigs, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n");
  EXPECT_NEAR(both.causes[0].details.at("confidence").get<double>(), 0.95, 1e-9);  // 1 - 0.1 * 0.5
}

TEST(ExplainThreshold, UnknownBeatsAWeakGuess) {
  auto sigs = with_context(R"J({"signatures": [{
    "id": "guess", "title": "t", "explanation": "e", "sources": ["u"],
    "patterns": [{"literals": ["segmentation fault"], "regex": "Segmentation fault", "icase": true, "confidence": 0.3}]},
    {"id": "picky", "title": "t", "explanation": "e", "sources": ["u"], "min_confidence": 0.95,
    "patterns": [{"literals": ["core dumped"], "regex": "core dumped", "confidence": 0.9}]}]})J");
  auto ex = run(sigs, "Segmentation fault (core dumped)\n");
  EXPECT_FALSE(ex.identified());
  const auto& cands = ex.unknown.details.at("candidates");
  ASSERT_EQ(cands.size(), 2u);
  EXPECT_EQ(cands[0]["why_not"], "confidence 0.30 below 0.50");
  EXPECT_EQ(cands[1]["why_not"], "confidence 0.90 below 0.95");
}

// One look-alike, "No module named 'torch'" while pip builds a package, told apart by the build backend:
// under PEP 517 the build runs isolated (torch is installed but not visible), under the legacy setup.py
// egg_info it is not (torch is simply missing). Real logs: bmtrain 0.2.2 built on this machine (PEP 517,
// "Getting requirements to build wheel") and the CPM-Bee seed report ("python setup.py egg_info").
const char* kNoTorch = R"J({"signatures": [
  {"id": "isolated", "title": "isolated build of {building_package}", "explanation": "e", "sources": ["u"],
   "patterns": [{"literals": ["No module named"], "regex": "No module named '(?P<module>torch)'"}],
   "when": [{"fact": "build_backend", "equals": "pep517"}]},
  {"id": "legacy", "title": "legacy build: {pip_phase}", "explanation": "e", "sources": ["u"],
   "patterns": [{"literals": ["No module named"], "regex": "No module named '(?P<module>torch)'"}],
   "when": [{"fact": "build_backend", "equals": "legacy"}, {"fact": "pip_phase", "in": ["metadata", "wheel"]}]}]})J";

TEST(ExplainDiscriminators, PipPhaseAndBuildBackendTellLookAlikesApart) {
  auto sigs = with_context(kNoTorch);
  auto pep517 = run(sigs, fixture("bmtrain-0.2.2-no-torch.log"));
  EXPECT_EQ(cause_ids(pep517), (std::set<std::string>{"isolated"}));
  EXPECT_EQ(captures(pep517.causes.at(0)).at("pip_phase"), "build_requires");
  EXPECT_EQ(pep517.causes.at(0).details.at("discriminators").get<std::vector<std::string>>(),
            (std::vector<std::string>{"build_backend equals pep517"}));
  auto legacy = run(sigs, fixture("cpm-bee-57-seed.log"));
  ASSERT_TRUE(find_cause(legacy, "legacy"));
  EXPECT_FALSE(find_cause(legacy, "isolated"));
  EXPECT_EQ(find_cause(legacy, "legacy")->title, "legacy build: metadata");
  // Without a pip line the backend is unknown: neither is named, and the candidates say why.
  auto bare = run(sigs, "ModuleNotFoundError: No module named 'torch'\n");
  EXPECT_FALSE(bare.identified());
  EXPECT_EQ(bare.unknown.details.at("candidates")[0]["why_not"], "needs build_backend equals pep517 (not in the log)");
}

TEST(ExplainDiscriminators, ReclassifyAndUnlessReadTheLogsFacts) {
  auto sigs = with_context(R"J({"signatures": [
    {"id": "old-torch", "title": "torch {torch_version} predates it", "explanation": "e", "sources": ["u"],
     "patterns": [{"literals": ["has no attribute"], "regex": "has no attribute '(?P<attr>\\w+)'"}],
     "unless": [{"fact": "torch_version", "version": ">=2.0"}],
     "reclassify": [{"when": [{"fact": "torch_version", "matches": "\\+cpu$"}], "id": "cpu-build"}]},
    {"id": "cpu-build", "kind": "cause", "title": "a CPU-only torch", "explanation": "e2", "sources": ["u"],
     "patterns": [{"literals": ["never in any log"], "regex": "never in any log"}]}]})J");
  const std::string error = "AttributeError: module 'torch' has no attribute 'compile'\n";
  auto old = run(sigs, "torch.__version__ = 1.13.1\n" + error);
  ASSERT_TRUE(old.identified());
  EXPECT_EQ(old.causes[0].title, "torch 1.13.1 predates it");
  EXPECT_FALSE(run(sigs, "torch.__version__ = 2.1.0\n" + error).identified());
  auto cpu = run(sigs, "torch.__version__ = 1.13.1+cpu\n" + error);
  EXPECT_EQ(cause_ids(cpu), (std::set<std::string>{"cpu-build"}));
  EXPECT_EQ(cpu.causes[0].explanation, "e2");
}

TEST(ExplainSignatures, MalformedSignalsAndConditionsAreInputErrors) {
  auto bad = [](const std::string& extra) {
    return parse_signatures(nlohmann::json::parse(R"J({"signatures": [{"id": "a", "title": "t", "explanation": "e",
      "sources": ["u"], "patterns": [{"literals": ["abcd"], "regex": "abcd"}])J" + extra + "}]}"), "test.json");
  };
  EXPECT_NO_THROW(bad(""));
  EXPECT_THROW(bad(R"J(, "signals": [{"literals": ["abcd"], "regex": "abcd"}])J"), gpucheck::InputError);  // no weight
  EXPECT_THROW(bad(R"J(, "signals": [{"literals": ["abcd"], "regex": "abcd", "weight": 1.5}])J"), gpucheck::InputError);
  EXPECT_THROW(bad(R"J(, "threshold": 0)J"), gpucheck::InputError);
  EXPECT_THROW(bad(R"J(, "min_confidence": 2)J"), gpucheck::InputError);
  EXPECT_THROW(bad(R"J(, "when": [{"fact": "x"}])J"), gpucheck::InputError);                       // no test
  EXPECT_THROW(bad(R"J(, "when": [{"fact": "x", "equals": "a", "in": ["b"]}])J"), gpucheck::InputError);  // two
  EXPECT_THROW(bad(R"J(, "when": [{"fact": "x", "version": "~=2"}])J"), gpucheck::InputError);      // bad specifier
  EXPECT_THROW(bad(R"J(, "when": [{"fact": "x", "matches": "(?=y)"}])J"), gpucheck::InputError);    // not RE2
  EXPECT_THROW(bad(R"J(, "reclassify": [{"id": "b"}])J"), gpucheck::InputError);                   // no if/when
  EXPECT_NO_THROW(bad(R"J(, "when": [{"fact": "x", "version": ">=2.0,<2.4"}], "unless": {"fact": "y", "present": true})J"));
}
