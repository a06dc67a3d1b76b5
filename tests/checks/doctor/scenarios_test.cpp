// Every scenario inventory under tests/checks/doctor/scenarios/ through every rule: the exact set of finding ids
// (and, with --for, the plan's findings, verdict and exit code) recorded in scenarios/expected.json.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "core/files.h"
#include "inventory/model.h"
#include "support/doctor_run.h"

using namespace gpucheck;
using namespace gpucheck::knowledge;
using namespace gpucheck::doctor;
using namespace gpucheck::testing;
namespace fs = std::filesystem;

namespace {

const std::string kScenarios = std::string(GPUCHECK_SOURCE_DIR) + "/tests/checks/doctor/scenarios";

const KnowledgeBase& kb() {
  static KnowledgeBase k = KnowledgeBase::load(std::string(GPUCHECK_SOURCE_DIR) + "/data/compat");
  return k;
}

std::vector<std::string> ids(const std::vector<Finding>& fs) {
  std::vector<std::string> v;
  for (const auto& f : fs) v.push_back(f.id);
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<std::string> sorted(const nlohmann::json& j) {
  auto v = j.get<std::vector<std::string>>();
  std::sort(v.begin(), v.end());
  return v;
}

// expected.json states a plan's verdict as the text shows it; the test compares the verdict enum.
PlanVerdict expected_verdict(const nlohmann::json& text) {
  static const std::map<std::string, PlanVerdict> by_text = {
      {"installs", PlanVerdict::kInstalls},
      {"fails as asked; installs by a path below", PlanVerdict::kInstallsByPath},
      {"no known path on this machine", PlanVerdict::kNoPath}};
  return by_text.at(text.get<std::string>());
}

class Scenario : public ::testing::TestWithParam<std::string> {};

TEST_P(Scenario, ProducesExactlyTheExpectedFindings) {
  const std::string name = GetParam();
  auto expected = read_json_file(kScenarios + "/expected.json").at(name);
  auto inv = inventory::load_inventory(kScenarios + "/" + name + ".json");
  std::optional<std::string> request;
  if (expected.contains("for")) request = expected["for"].get<std::string>();
  model::Report rep = run_doctor(inv, kb(), request);

  EXPECT_EQ(ids(doctor_findings(rep)), sorted(expected.at("findings")));
  EXPECT_EQ(model::exit_code(rep), expected.at("exit").get<int>());
  const Finding* plan = install_plan(rep);
  if (request) {
    ASSERT_TRUE(plan);
    EXPECT_EQ(ids(plan_findings(rep)), sorted(expected.at("plan_findings")));
    EXPECT_EQ(plan_verdict(*plan), expected_verdict(expected.at("verdict")));
    EXPECT_EQ(plan->fixes.size(), expected.at("paths").get<std::size_t>());
  } else {
    EXPECT_FALSE(plan);
  }
  // Every finding is complete: evidence, an explanation, and fixes with commands ranked from 1.
  auto all = doctor_findings(rep);
  auto own = plan_findings(rep);
  all.insert(all.end(), own.begin(), own.end());
  for (const auto& f : all) {
    EXPECT_FALSE(f.evidence.empty()) << f.id;
    EXPECT_FALSE(f.explanation.empty()) << f.id;
    EXPECT_FALSE(f.title.empty()) << f.id;
    for (std::size_t i = 0; i < f.fixes.size(); ++i) EXPECT_EQ(f.fixes[i].rank, static_cast<int>(i + 1)) << f.id;
  }
}

std::vector<std::string> scenario_names() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(kScenarios))
    if (e.path().extension() == ".json" && e.path().stem() != "expected") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Doctor, Scenario, ::testing::ValuesIn(scenario_names()),
                         [](const auto& info) { return info.param; });

TEST(Scenarios, EveryScenarioHasAnExpectationAndThereAreAtLeastTwenty) {
  auto expected = read_json_file(kScenarios + "/expected.json");
  auto names = scenario_names();
  EXPECT_GE(names.size(), 20u);
  EXPECT_EQ(expected.size(), names.size());
  for (const auto& n : names) EXPECT_TRUE(expected.contains(n)) << n << " has no expectation";
}

}  // namespace
