#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/errors.h"
#include "runner/catalog.h"

namespace gpucheck::runner {
namespace {

namespace fs = std::filesystem;

class CatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("gpucheck-catalog-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir / name) << text; }
  fs::path dir;
};

TEST_F(CatalogTest, LoadsAndSelectsByLevel) {
  write("a.one.json", R"({"id":"a.one","title":"A","levels":["quick","standard"],"timeout_s":5})");
  write("b.two.json", R"({"id":"b.two","title":"B","levels":["long"],"level_args":{"long":["--big"]}})");
  write("README.txt", "ignored");
  auto cat = load_catalog(dir.string(), "/probes");
  ASSERT_EQ(cat.size(), 2u);
  EXPECT_EQ(cat[0].executable, "/probes/a.one");
  EXPECT_EQ(cat[1].level_args.at("long"), std::vector<std::string>{"--big"});
  EXPECT_EQ(select_probes(cat, "quick", {}).size(), 1u);
  EXPECT_EQ(select_probes(cat, "long", {})[0].id, "b.two");
  EXPECT_EQ(select_probes(cat, "quick", {"b.two"})[0].id, "b.two");  // --only ignores levels
}

TEST_F(CatalogTest, UnknownIdSuggestsTheClosest) {
  write("a.json", R"({"id":"device.runtime","title":"A","levels":["quick"]})");
  auto cat = load_catalog(dir.string(), "/p");
  try {
    select_probes(cat, "quick", {"device.runtim"});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'device.runtime'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(select_probes(cat, "medium", {}), InputError);
}

TEST_F(CatalogTest, AFamilySelectsEveryProbeOfItAndNothingElse) {
  write("a.json", R"({"id":"device.runtime","title":"A","levels":["quick"]})");
  write("b.json", R"({"id":"device.copy","title":"B","levels":["long"]})");
  write("c.json", R"({"id":"devices.other","title":"C","levels":["quick"]})");  // shares the letters, not the family
  write("d.json", R"({"id":"host.info","title":"D","levels":["quick"]})");
  auto cat = load_catalog(dir.string(), "/p");
  auto ids = [](const std::vector<ProbeSpec>& v) {
    std::vector<std::string> out;
    for (auto& p : v) out.push_back(p.id);
    return out;
  };
  const std::vector<std::string> device{"device.copy", "device.runtime"};
  for (const char* word : {"device", "device.", "device.*"}) EXPECT_EQ(ids(select_probes(cat, "quick", {word})), device);
  EXPECT_EQ(ids(select_probes(cat, "quick", {"device.runtime", "device"})), (std::vector<std::string>{"device.runtime", "device.copy"}));
  EXPECT_EQ(ids(select_probes(cat, "quick", {}, {"device"})), (std::vector<std::string>{"devices.other", "host.info"}));
  try {
    select_probes(cat, "quick", {"device.run"});  // a dotted word is an id, not a prefix
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--only: unknown probe 'device.run' (families: device, devices, host; probes: device.copy, "
              "device.runtime, devices.other, host.info)");
  }
}

TEST_F(CatalogTest, SkipLeavesProbesOutAndAMistypedIdSuggestsTheClosest) {
  write("a.json", R"({"id":"device.runtime","title":"A","levels":["quick"]})");
  write("b.json", R"({"id":"host.info","title":"B","levels":["quick"]})");
  auto cat = load_catalog(dir.string(), "/p");
  auto left = select_probes(cat, "quick", {}, {"device.runtime"});
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].id, "host.info");
  EXPECT_TRUE(select_probes(cat, "quick", {"host.info"}, {"host.info"}).empty());
  try {
    select_probes(cat, "quick", {}, {"host.inf"});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--skip: unknown probe 'host.inf', did you mean 'host.info'?"), std::string::npos)
        << e.what();
  }
}

TEST_F(CatalogTest, AnIdThatIsNoProbeIdIsRefusedBeforeItNamesAnExecutable) {
  // The id is the probe's file name in the probe directory: a manifest must not make `run` execute
  // another file (found by tests/fuzz/manifest_fuzz.cpp, which checks every loaded id).
  for (const std::string id : {"../../bin/sh", "host.info/../../x", "host", "host..info", ".host.info", "Host.Info", ""}) {
    write("evil.json", R"({"id":")" + id + R"(","title":"t","levels":["quick"]})");
    EXPECT_THROW(load_catalog(dir.string(), "/p"), InputError) << id;
  }
  write("evil.json", R"({"id":"host.info_2","title":"t","levels":["quick"]})");
  EXPECT_EQ(load_catalog(dir.string(), "/p").at(0).executable, "/p/host.info_2");
}

// Found by fuzz.manifest's first 10^6 run: a number no C++ type holds made nlohmann's parser throw
// out_of_range (not parse_error), which nothing caught: std::terminate. And timeout_cores read with
// get<int>() from a float is undefined behaviour. Both are one-line input errors now.
TEST_F(CatalogTest, NumbersOutOfEveryRangeAreInputErrors) {
  auto why = [&](const std::string& text) -> std::string {
    write("n.json", text);
    try {
      load_catalog(dir.string(), "/p");
    } catch (const InputError& e) {
      return e.what();
    }
    return "accepted";
  };
  EXPECT_NE(why("2222222207e605").find("is not valid JSON (a number out of range)"), std::string::npos);
  for (const char* cores : {"6.7e77", "1.5", "5000", "-1", "\"8\""})
    EXPECT_NE(why(std::string(R"({"id":"a.b","title":"t","levels":["quick"],"timeout_cores":)") + cores + "}")
                  .find("timeout_cores must be a whole number in [0, 4096]"),
              std::string::npos)
        << cores;
  EXPECT_EQ(why(R"({"id":"a.b","title":"t","levels":["quick"],"timeout_cores":8})"), "accepted");
  // An id holding a newline is shown escaped: the error stays one line (fuzz.manifest, second run).
  std::string msg = why(R"({"id":"abi.ext\nsions","title":"t","levels":["quick"]})");
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  EXPECT_NE(msg.find("id 'abi.ext\\nsions' is not a probe id"), std::string::npos) << msg;
}

TEST_F(CatalogTest, MalformedManifestNamesTheFile) {
  write("bad.json", R"({"id":"x.y","levels":["quick"]})");  // no title
  try {
    load_catalog(dir.string(), "/p");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos);
  }
  fs::remove(dir / "bad.json");
  write("trunc.json", R"({"id":"x.y","title":)");
  EXPECT_THROW(load_catalog(dir.string(), "/p"), InputError);
  fs::remove(dir / "trunc.json");
  write("lvl.json", R"({"id":"x.y","title":"t","levels":["sometimes"]})");
  EXPECT_THROW(load_catalog(dir.string(), "/p"), InputError);
}

// Issue 15 item 17: a CPU-bound probe sized for 8 cores got killed at its 300 s timeout on 2. Timeouts
// scale with the level's work (timeout_s_by_level) and, for probes that say so, with fewer cores.
TEST_F(CatalogTest, TimeoutsScaleWithTheLevelAndTheCores) {
  write("a.json", R"({"id":"k.cpu","title":"A","levels":["standard","long"],"timeout_s":300,
                      "timeout_s_by_level":{"long":900},"timeout_cores":8})");
  write("b.json", R"({"id":"k.gpu","title":"B","levels":["standard"],"timeout_s":60})");
  auto cat = load_catalog(dir.string(), "/p");
  const ProbeSpec& cpu = cat[0];
  EXPECT_EQ(effective_timeout(cpu, "standard", 16), 300);
  EXPECT_EQ(effective_timeout(cpu, "standard", 8), 300);
  EXPECT_EQ(effective_timeout(cpu, "standard", 2), 1200);  // a quarter of the cores: four times the time
  EXPECT_EQ(effective_timeout(cpu, "long", 2), 3600);
  EXPECT_EQ(effective_timeout(cpu, "long", 1), 900 * 8);    // at most eight times
  EXPECT_EQ(effective_timeout(cat[1], "standard", 1), 60);  // not core-bound: as written
  write("c.json", R"({"id":"k.bad","title":"C","levels":["long"],"timeout_s_by_level":{"sometimes":5}})");
  EXPECT_THROW(load_catalog(dir.string(), "/p"), InputError);
}

TEST_F(CatalogTest, MissingDirectoryIsAnInputError) {
  EXPECT_THROW(load_catalog((dir / "nope").string(), "/p"), InputError);
}

}  // namespace
}  // namespace gpucheck::runner
