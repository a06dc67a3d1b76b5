// No fix ever shows a placeholder: every fix template of data/signatures, rendered as explain renders it
// (first alternative that resolves) with the captures the fixture corpus really produces, over every
// scenario inventory (and none), and every fix doctor prints for every scenario (with and without --for each
// planned package), contain no '{', no '?' and no <angle> word a user would have to replace.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "checks/explain/knowledge_facts.h"
#include "checks/explain/explain_test_util.h"
#include "support/doctor_run.h"

using namespace gpucheck;
namespace fs = std::filesystem;

namespace {

const std::string kScenarios = std::string(GPUCHECK_SOURCE_DIR) + "/tests/checks/doctor/scenarios";
const std::string kCompat = std::string(GPUCHECK_SOURCE_DIR) + "/data/compat";

std::string placeholder_in(const std::string& text) {
  static const std::regex angle("<[A-Za-z_][A-Za-z_ .-]*>");
  if (text.find('{') != std::string::npos) return "{";
  if (text.find('?') != std::string::npos) return "?";
  std::smatch m;
  if (std::regex_search(text, m, angle)) return m.str();
  return "";
}

std::vector<std::pair<std::string, inventory::Inventory>> scenarios() {
  std::vector<std::pair<std::string, inventory::Inventory>> out;
  for (const auto& e : fs::directory_iterator(kScenarios))
    if (e.path().extension() == ".json" && e.path().stem() != "expected")
      out.push_back({e.path().stem().string(), inventory::load_inventory(e.path().string())});
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

/// The captures each cause gets in the corpus (up to three distinct sets per signature).
std::map<std::string, std::vector<explain::Vars>> corpus_captures() {
  std::map<std::string, std::vector<explain::Vars>> seen;
  for (const auto& e : fs::directory_iterator(std::string(GPUCHECK_TEST_DATA) + "/logs")) {
    if (e.path().extension() != ".log") continue;
    std::ifstream in(e.path(), std::ios::binary);
    auto ex = explain::explain_stream(in, e.path().string(), explain::testing::source_signatures(),
                                      explain::make_fact_call(nullptr, {}));
    for (const auto& c : ex.causes) {
      auto caps = explain::testing::captures(c);
      auto& v = seen[c.id];
      if (v.size() < 3 && std::find(v.begin(), v.end(), caps) == v.end()) v.push_back(caps);
    }
  }
  return seen;
}

}  // namespace

TEST(NoPlaceholders, EveryExplainFixOverEveryScenario) {
  auto seen = corpus_captures();
  auto invs = scenarios();
  std::vector<const inventory::Inventory*> envs = {nullptr};
  for (const auto& [name, inv] : invs) envs.push_back(&inv);
  int rendered = 0;
  for (const auto* inv : envs) {
    std::string note;
    auto facts = explain::make_fact_call(inv, explain::load_knowledge_facts(note, kCompat, inv));
    ASSERT_TRUE(note.empty()) << note;
    for (const auto& s : explain::testing::source_signatures()) {
      if (s.kind == "context") continue;
      std::vector<explain::Vars> vars = seen.count(s.id) ? seen[s.id] : std::vector<explain::Vars>{{}};
      for (const auto& v : vars)
        for (const auto& step : s.fix)
          for (const auto& alt : step.alternatives)
            if (auto line = explain::render_template(alt, v, facts)) {
              ++rendered;
              EXPECT_EQ(placeholder_in(*line), "") << s.id << " (" << s.file << "): " << *line;
              break;
            }
    }
  }
  EXPECT_GT(rendered, 1000) << "the corpus and scenarios exercise the templates";
}

TEST(NoPlaceholders, EveryDoctorFixOverEveryScenario) {
  auto kb = knowledge::KnowledgeBase::load(kCompat);
  int fixes = 0;
  for (const auto& [name, inv] : scenarios()) {
    std::vector<std::optional<std::string>> requests = {std::nullopt, "torch", "bmtrain", "flash-attn",
                                                        "xformers", "transformers", "apex", "deepspeed"};
    for (const auto& req : requests) {
      model::Report rep = gpucheck::testing::run_doctor(inv, kb, req);
      for (const auto& sec : rep.sections)
        for (const auto& f : sec.findings)
          for (const auto& fx : f.fixes) {
            ++fixes;
            EXPECT_EQ(placeholder_in(fx.summary), "") << name << " " << f.id << ": " << fx.summary;
            for (const auto& c : fx.commands) EXPECT_EQ(placeholder_in(c), "") << name << " " << f.id << ": " << c;
          }
    }
  }
  EXPECT_GT(fixes, 100);
}
