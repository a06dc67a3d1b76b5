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
  EXPECT_NE(human.out.find("FAIL: 6 nodes, 3 accepted, 2 rejected, 1 incomplete"), std::string::npos) << human.out;
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

// Five REAL runs of this machine through a catalog of host.info and the test-only probe test.spin_rate
// (a real compute-bound measurement): node3 ran with GPUCHECK_TEST_PROBE_SLOWDOWN=8, so it really ran 8
// chains per timed chain; node4's report got another cuBLAS planted in its inventory. The
// reports keep everything they measured; only the host names are made distinct (one machine plays five).
// The merge flags exactly those two nodes (one outlier, one drift), accepts the rest, and node6 of
// --expect, which has no report, is incomplete.
TEST(Fleet, RealRunsFlagExactlyTheSlowNodeAndThePlantedLibrary) {
  auto dir = fresh_temp_dir("fleet-real");
  const fs::path stage_data = GPUCHECK_STAGE_DATA, stage_probes = GPUCHECK_STAGE_PROBES;
  const fs::path data = dir / "data", probes = dir / "probes";
  fs::create_directories(data / "probes");
  fs::create_directories(probes);
  for (auto& e : fs::directory_iterator(stage_data))
    if (e.path().filename() != "probes") fs::create_symlink(e.path(), data / e.path().filename());
  fs::copy_file(stage_data / "probes" / "host.info.json", data / "probes" / "host.info.json");
  fs::copy_file(FLEET_TEST_MANIFEST, data / "probes" / "test.spin_rate.json");
  fs::create_symlink(stage_probes / "host.info", probes / "host.info");
  fs::create_symlink(FLEET_TEST_PROBE, probes / "test.spin_rate");
  fs::create_directories(dir / "fleet");
  std::map<std::string, double> measured;
  for (int i = 1; i <= 5; ++i) {
    SubprocessOptions o;
    o.set_env = {{"GPUCHECK_DATA_DIR", data.string()}, {"GPUCHECK_PROBE_DIR", probes.string()}};
    if (i == 3) o.set_env["GPUCHECK_TEST_PROBE_SLOWDOWN"] = "8";
    fs::path runs = dir / "runs" / std::to_string(i);
    auto run = gpucheck({"run", "--level", "quick", "--report-dir", runs.string()}, o);
    ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
    fs::path file;
    for (auto& e : fs::directory_iterator(runs)) file = e.path();
    nlohmann::json node = load(file);
    std::string name = "node" + std::to_string(i);
    node["host"] = name;
    for (auto& f : node["sections"][0]["findings"])
      if (f["id"] == "test.spin_rate") measured[name] = f["metrics"][0]["value"].get<double>();
    if (i == 4)
      node["inventory"]["libraries"].push_back({{"name", "libcublas"}, {"soname", "libcublas.so.13"},
                                                {"version", "13.0.1"}, {"path", "/opt/other/libcublas.so.13"},
                                                {"loader_pick", true}});
    save(dir / "fleet" / (name + ".json"), node);
  }
  ASSERT_EQ(measured.size(), 5u);
  EXPECT_LT(measured["node3"], 0.5 * measured["node1"]) << "the slowdown was not real";

  // The relative floor (50%) keeps a loaded machine's noise between the four honest runs from counting.
  auto r = gpucheck({"fleet", "merge", (dir / "fleet").string(), "--min-relative", "0.5", "--expect",
                     "node1,node2,node3,node4,node5,node6", "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto doc = nlohmann::json::parse(r.out);
  std::map<std::string, std::string> verdict, summary;
  std::vector<std::string> outlier_nodes, drift_nodes;
  for (auto& s : doc["sections"])
    for (auto& f : s["findings"]) {
      if (s["name"] == "nodes") verdict[f["title"]] = f["status"], summary[f["title"]] = f["summary"];
      for (auto& e : f["evidence"])
        if (e["what"] == "node" && s["name"] == "outliers") outlier_nodes.push_back(e["value"]);
        else if (e["what"] == "nodes" && s["name"] == "drift") drift_nodes.push_back(e["value"]);
    }
  EXPECT_EQ(verdict["node1"], "pass") << summary["node1"];
  EXPECT_EQ(verdict["node2"], "pass") << summary["node2"];
  std::string rates;
  for (auto& [n, v] : measured) rates += n + " " + std::to_string(v) + "  ";
  EXPECT_EQ(verdict["node3"], "fail") << rates;
  EXPECT_EQ(verdict["node4"], "fail");
  EXPECT_EQ(verdict["node5"], "pass") << summary["node5"];
  EXPECT_EQ(verdict["node6"], "error") << summary["node6"];  // expected, no report: never accepted by absence
  EXPECT_NE(summary["node3"].find("test.spin_rate chain_rate"), std::string::npos) << summary["node3"];
  EXPECT_NE(summary["node4"].find("libcublas.so.13 is 13.0.1 at /opt/other"), std::string::npos) << summary["node4"];
  EXPECT_EQ(outlier_nodes, std::vector<std::string>{"node3"}) << rates;
  EXPECT_EQ(drift_nodes, std::vector<std::string>{"node4"});
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gpucheck::test
