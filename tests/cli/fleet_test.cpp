// `gpucheck fleet merge` over real run reports of this machine, copied as five nodes: one made slow (its
// offload-Adam throughput halved) and one with another cuBLAS planted must be exactly the two rejects.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "core/text.h"

namespace gpucheck::test {
namespace {

namespace fs = std::filesystem;

nlohmann::json load(const fs::path& p) { return nlohmann::json::parse(std::ifstream(p)); }

void save(const fs::path& p, const nlohmann::json& j) { std::ofstream(p) << j.dump(2); }

TEST(Fleet, MergeRejectsTheSlowNodeAndTheDriftedOneOnly) {
  auto dir = fresh_temp_dir("fleet");
  auto run = gpucheck({"run", "--only", "host.info,kernels.adam_offload", "--report-dir", (dir / "real").string()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  fs::path real;
  for (auto& e : fs::directory_iterator(dir / "real")) real = e.path();
  nlohmann::json base = load(real);
  ASSERT_TRUE(base["inventory"]["libraries"].is_array());
  fs::create_directories(dir / "fleet");
  for (int i = 1; i <= 5; ++i) {
    nlohmann::json node = base;
    node["host"] = "node" + std::to_string(i);
    for (auto& f : node["sections"][0]["findings"])
      for (auto& m : f["metrics"])
        if (m["name"] == "throughput") m["value"] = i == 3 ? 0.5 * m["value"].get<double>() : m["value"].get<double>() * (1 + 0.01 * i);
    if (i == 4) {
      nlohmann::json lib = {{"name", "libcublas"}, {"soname", "libcublas.so.13"}, {"version", "13.0.1"},
                            {"path", "/opt/other/libcublas.so.13"}, {"loader_pick", true}};
      node["inventory"]["libraries"].push_back(lib);
    }
    save(dir / "fleet" / ("node" + std::to_string(i) + ".json"), node);
  }
  std::ofstream(dir / "fleet" / "garbage.json") << "{not json";

  auto r = gpucheck({"fleet", "merge", (dir / "fleet").string(), "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto doc = nlohmann::json::parse(r.out);
  std::map<std::string, std::string> verdict;
  for (auto& s : doc["sections"])
    if (s["name"] == "nodes")
      for (auto& f : s["findings"]) verdict[f["title"]] = f["status"];
  EXPECT_EQ(verdict["node1"], "pass");
  EXPECT_EQ(verdict["node2"], "pass");
  EXPECT_EQ(verdict["node3"], "fail");  // slow
  EXPECT_EQ(verdict["node4"], "fail");  // drifted
  EXPECT_EQ(verdict["node5"], "pass");
  EXPECT_EQ(verdict["garbage.json"], "error");  // incomplete, never silently dropped
  std::string text = r.out;
  EXPECT_NE(text.find("scontrol update NodeName=node3 State=DRAIN Reason='gpucheck: kernels.adam_offload throughput"),
            std::string::npos) << text;
  EXPECT_NE(text.find("scontrol update NodeName=node4 State=DRAIN Reason='gpucheck: libcublas.so.13 is 13.0.1 at /opt/other"),
            std::string::npos) << text;
  EXPECT_EQ(text.find("NodeName=node1"), std::string::npos) << text;

  auto human = gpucheck({"fleet", "merge", (dir / "fleet").string()});
  EXPECT_NE(human.out.find("6 nodes: 3 accepted, 2 rejected, 1 incomplete"), std::string::npos) << human.out;
  EXPECT_NE(human.out.find("kernels.adam_offload throughput"), std::string::npos) << human.out;
  EXPECT_NE(human.out.find("libcublas.so.13"), std::string::npos) << human.out;
  for (auto& line : split(human.out, '\n'))  // commands are printed whole, everything else fits
    if (line.find("$ ") == std::string::npos) {
      EXPECT_LE(line.size(), 80u) << line;
    }

  auto bad = gpucheck({"fleet", "merge", (dir / "nothing-here").string()});
  EXPECT_EQ(bad.exit_code, 2);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gpucheck::test
