// `gpucheck diff A.json B.json` on inventories collected here: `env --no-python` against `env` (the
// judged Python and its packages appear on one side only), and the test's own edit of one document
// through JSON (torch 2.1.2+cu121 against 2.1.2+cu118, numpy 1.26.4 against 2.1.0) where the
// consequences are known.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "core/files.h"

namespace gpucheck::test {
namespace {

namespace fs = std::filesystem;

class Diff : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir = fresh_temp_dir("diff");
    auto bare = gpucheck({"env", "--no-python", "--json", "--out", (dir / "no-python.json").string()});
    ASSERT_EQ(bare.exit_code, 0) << bare.err;
    auto full = gpucheck({"env", "--json", "--out", (dir / "python.json").string()});
    ASSERT_EQ(full.exit_code, 0) << full.err;
  }
  static void TearDownTestSuite() { fs::remove_all(dir); }
  static fs::path dir;
};
fs::path Diff::dir;

std::map<std::string, nlohmann::json> by_id(const nlohmann::json& doc) {
  std::map<std::string, nlohmann::json> out;
  for (const auto& s : doc["sections"])
    for (const auto& f : s["findings"]) out[f["id"]] = f;
  return out;
}

TEST_F(Diff, SameInventoryIsExitZeroAndSaysSo) {
  auto r = gpucheck({"diff", (dir / "python.json").string(), (dir / "python.json").string()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("no difference in the facts compared"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("SAME: 0 difference(s), 0 that matter"), std::string::npos) << r.out;
}

TEST_F(Diff, WithAndWithoutPythonDifferInThePython) {
  auto j = gpucheck({"diff", (dir / "no-python.json").string(), (dir / "python.json").string(), "--json"});
  const auto doc = nlohmann::json::parse(j.out);
  const auto facts = by_id(doc);
  if (doc["inventory"].is_null() && facts.empty()) GTEST_SKIP() << "no Python found here";
  ASSERT_TRUE(facts.count("diff.python")) << j.out;
  EXPECT_EQ(facts.at("diff.python")["status"], "fail");
  EXPECT_EQ(facts.at("diff.python")["evidence"][0]["value"], "(none)");
  EXPECT_EQ(j.exit_code, 1);
  EXPECT_EQ(doc["details"]["that_matter"].get<int>() >= 1, true);
  EXPECT_EQ(schema_errors("report.schema.json", [&] {
              std::ofstream(dir / "diff.json") << j.out;
              return (dir / "diff.json").string();
            }()),
            "");
  // The text is a table within 80 columns.
  SubprocessOptions o;
  o.unset_env = {"COLUMNS"};
  auto t = gpucheck({"diff", (dir / "no-python.json").string(), (dir / "python.json").string()}, o);
  EXPECT_EQ(t.exit_code, 1);
  EXPECT_NE(t.out.find("FACT"), std::string::npos) << t.out;
  std::istringstream lines(t.out);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 80u) << line;
}

TEST_F(Diff, TorchCudaMajorAndNumpyAbiBreakNameTheirConsequences) {
  nlohmann::json doc = read_json_file((dir / "no-python.json").string());
  nlohmann::json py = {{"interpreter", "/venv/bin/python"}, {"version", "3.11.7"}, {"prefix", "/venv"}, {"kind", "venv"},
                       {"found_via", {"PATH"}}, {"torch_installed", true}, {"torch_version", "2.1.2+cu121"},
                       {"torch_cuda", "12.1"}, {"packages", {{"torch", "2.1.2+cu121"}, {"numpy", "1.26.4"}, {"six", "1.16.0"}}}};
  doc["inventory"]["pythons"] = nlohmann::json::array({py});
  std::ofstream(dir / "cu121.json") << doc.dump();
  py["torch_version"] = "2.1.2+cu118";
  py["torch_cuda"] = "11.8";
  py["packages"] = {{"torch", "2.1.2+cu118"}, {"numpy", "2.1.0"}, {"six", "1.17.0"}};
  doc["inventory"]["pythons"] = nlohmann::json::array({py});
  std::ofstream(dir / "cu118.json") << doc.dump();

  auto j = gpucheck({"diff", (dir / "cu121.json").string(), (dir / "cu118.json").string(), "--json"});
  EXPECT_EQ(j.exit_code, 1) << j.err;
  const auto facts = by_id(nlohmann::json::parse(j.out));
  ASSERT_TRUE(facts.count("diff.torch_cuda")) << j.out;
  EXPECT_NE(facts.at("diff.torch_cuda")["explanation"].get<std::string>().find("will not load on the other"),
            std::string::npos);
  ASSERT_TRUE(facts.count("diff.package.numpy"));
  EXPECT_EQ(facts.at("diff.package.numpy")["status"], "fail");
  EXPECT_NE(facts.at("diff.package.numpy")["explanation"].get<std::string>().find("broke its ABI"), std::string::npos);
  ASSERT_TRUE(facts.count("diff.package.six"));
  EXPECT_EQ(facts.at("diff.package.six")["status"], "info") << "a package the knowledge base does not track";
  EXPECT_FALSE(facts.count("diff.driver")) << "the same machine's driver";

  auto t = gpucheck({"diff", (dir / "cu121.json").string(), (dir / "cu118.json").string()});
  EXPECT_NE(t.out.find("consequences:"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("Next step: make [diff."), std::string::npos) << t.out;
}

TEST_F(Diff, BadInputIsOneLineAndExitTwo) {
  std::ofstream(dir / "junk.json") << "{\"not\": \"an inventory\"}";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"diff", (dir / "junk.json").string(), (dir / "python.json").string()},
        {"diff", (dir / "missing.json").string(), (dir / "python.json").string()},
        {"diff", (dir / "python.json").string()}}) {
    auto r = gpucheck(args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << r.out << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace
}  // namespace gpucheck::test
