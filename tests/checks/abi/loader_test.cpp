// Dependency resolution compared with the real loader (ldd) on libraries built here: RPATH inheritance,
// RUNPATH not inherited, RUNPATH disabling RPATH, precedence against LD_LIBRARY_PATH, $ORIGIN/$LIB/
// $PLATFORM, wrong-class candidates skipped, a missing NEEDED, and the ld.so cache.
#include <gtest/gtest.h>

#include "checks/abi/loader.h"
#include "core/errors.h"
#include "fixture.h"

using namespace gpucheck::abi;
using namespace gpucheck::platform;
using namespace abitest;

namespace {

const std::string kFn = "extern \"C\" int ";

std::map<std::string, std::string> ours(const std::string& root, const std::vector<std::string>& llp) {
  static LdCache cache = LdCache::load();
  LoaderConfig cfg = LoaderConfig::for_this_host(&cache);
  cfg.ld_library_path = llp;
  ObjectCache objects;
  LoadGraph g = build_load_graph(root, {}, cfg, objects);
  std::map<std::string, std::string> out;
  for (const auto& d : g.deps)
    if (!out.count(d.name)) out[d.name] = d.object >= 0 ? g.objects[d.object].path : "not found";
  return out;
}

/// Every NEEDED name ldd reports resolves to the same path (or is missing) in our resolution.
void expect_same_as_ldd(const std::string& root, const std::vector<std::string>& llp = {}) {
  std::map<std::string, std::string> env;
  if (!llp.empty()) env["LD_LIBRARY_PATH"] = gpucheck::join(llp, ":");
  auto real = ldd(root, env);
  auto mine = ours(root, llp);
  ASSERT_FALSE(real.empty()) << "ldd printed nothing for " << root;
  for (const auto& [name, path] : real) {
    ASSERT_TRUE(mine.count(name)) << name << " (ldd: " << path << ") not in our closure of " << root;
    EXPECT_EQ(mine[name], path) << "resolution of " << name << " for " << root;
  }
}

class LoaderTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    t = new TempDir();
    const TempDir& d = *t;
    build_so(d / "deep/libdeep.so", kFn + "deep() { return 1; }", {"-Wl,-soname,libdeep.so"});
    build_so(d / "mid/libmid.so", kFn + "deep(); " + kFn + "mid() { return deep(); }",
             {"-Wl,-soname,libmid.so", "-L" + d / "deep", "-ldeep"});
    build_so(d / "mid2/libmid.so", kFn + "deep(); " + kFn + "mid() { return deep(); }",
             {"-Wl,-soname,libmid.so", "-L" + d / "deep", "-ldeep", "-Wl,--enable-new-dtags,-rpath,/nonexistent"});
    std::string use_mid = kFn + "mid(); " + kFn + "top() { return mid(); }";
    build_so(d / "app/librpath.so", use_mid,
             {"-L" + d / "mid", "-lmid", "-Wl,--disable-new-dtags,-rpath,$ORIGIN/../mid:$ORIGIN/../deep"});
    build_so(d / "app/librunpath.so", use_mid,
             {"-L" + d / "mid", "-lmid", "-Wl,--enable-new-dtags,-rpath,$ORIGIN/../mid:$ORIGIN/../deep"});
    build_so(d / "app/librpath_blocked.so", use_mid,
             {"-L" + d / "mid2", "-lmid", "-Wl,--disable-new-dtags,-rpath,$ORIGIN/../mid2:$ORIGIN/../deep"});
    for (const char* x : {"x", "y"})
      build_so(d / (std::string(x) + "/libdup.so"), kFn + "dup() { return 2; }", {"-Wl,-soname,libdup.so"});
    std::string use_dup = kFn + "dup(); " + kFn + "f() { return dup(); }";
    build_so(d / "app/libprec_rpath.so", use_dup, {"-L" + d / "x", "-ldup", "-Wl,--disable-new-dtags,-rpath," + d / "x"});
    build_so(d / "app/libprec_runpath.so", use_dup, {"-L" + d / "x", "-ldup", "-Wl,--enable-new-dtags,-rpath," + d / "x"});
    // A 32-bit-class copy of libdup.so first on LD_LIBRARY_PATH: the loader skips it.
    std::string bytes = read_bytes(d / "x/libdup.so");
    bytes[4] = 1;  // EI_CLASS = ELFCLASS32
    write_file(d / "bad32/libdup.so", bytes);
    // A NEEDED that exists at link time only.
    build_so(d / "stub/libnothere.so", kFn + "gone() { return 3; }", {"-Wl,-soname,libnothere.so"});
    build_so(d / "app/libmissing.so", kFn + "gone(); " + kFn + "g() { return gone(); }",
             {"-L" + d / "stub", "-lnothere", "-Wl,--enable-new-dtags,-rpath,$ORIGIN"});
    // $LIB and $PLATFORM, in directories named as this host's loader expands them.
    static LdCache cache = LdCache::load();
    LoaderConfig cfg = LoaderConfig::for_this_host(&cache);
    build_so(d / ("dst/" + cfg.lib + "/libl.so"), kFn + "l() { return 4; }", {"-Wl,-soname,libl.so"});
    build_so(d / ("dst/plat/" + cfg.platform + "/libp.so"), kFn + "p() { return 5; }", {"-Wl,-soname,libp.so"});
    build_so(d / "dst/app/libdst.so", kFn + "l(); " + kFn + "p(); " + kFn + "h() { return l() + p(); }",
             {"-L" + d / ("dst/" + cfg.lib), "-L" + d / ("dst/plat/" + cfg.platform), "-ll", "-lp",
              "-Wl,--enable-new-dtags,-rpath,$ORIGIN/../$LIB:$ORIGIN/../plat/$PLATFORM"});
    // A symlink to a library elsewhere: $ORIGIN is the directory of the path as opened.
    build_so(d / "real/liborig.so", kFn + "deep(); " + kFn + "o() { return deep(); }",
             {"-L" + d / "deep", "-ldeep", "-Wl,--enable-new-dtags,-rpath,$ORIGIN/../deep"});
    fs::create_directories(d / "elsewhere/sub");
    fs::create_symlink(d / "real/liborig.so", d / "elsewhere/sub/liborig.so");
    build_so(d / "app/libvia_link.so", kFn + "o(); " + kFn + "k() { return o(); }",
             {"-L" + d / "real", "-lorig", "-Wl,--enable-new-dtags,-rpath," + d / "elsewhere/sub"});
  }
  static void TearDownTestSuite() { delete t; }
  static TempDir* t;
};
TempDir* LoaderTest::t = nullptr;

TEST_F(LoaderTest, RpathIsInheritedByDependencies) {
  auto m = ours(*t / "app/librpath.so", {});
  EXPECT_EQ(m["libmid.so"], *t / "app/../mid/libmid.so");
  EXPECT_EQ(m["libdeep.so"], *t / "app/../deep/libdeep.so");  // found through the root's RPATH
  expect_same_as_ldd(*t / "app/librpath.so");
}

TEST_F(LoaderTest, RunpathIsNotInherited) {
  auto m = ours(*t / "app/librunpath.so", {});
  EXPECT_EQ(m["libmid.so"], *t / "app/../mid/libmid.so");
  EXPECT_EQ(m["libdeep.so"], "not found");
  expect_same_as_ldd(*t / "app/librunpath.so");
}

TEST_F(LoaderTest, ARunpathInTheRequesterDisablesInheritedRpath) {
  auto m = ours(*t / "app/librpath_blocked.so", {});
  EXPECT_EQ(m["libmid.so"], *t / "app/../mid2/libmid.so");
  EXPECT_EQ(m["libdeep.so"], "not found");
  expect_same_as_ldd(*t / "app/librpath_blocked.so");
}

TEST_F(LoaderTest, RpathBeatsLdLibraryPathWhichBeatsRunpath) {
  EXPECT_EQ(ours(*t / "app/libprec_rpath.so", {*t / "y"})["libdup.so"], *t / "x/libdup.so");
  EXPECT_EQ(ours(*t / "app/libprec_runpath.so", {*t / "y"})["libdup.so"], *t / "y/libdup.so");
  expect_same_as_ldd(*t / "app/libprec_rpath.so", {*t / "y"});
  expect_same_as_ldd(*t / "app/libprec_runpath.so", {*t / "y"});
}

TEST_F(LoaderTest, WrongClassCandidatesAreSkipped) {
  static LdCache cache = LdCache::load();
  LoaderConfig cfg = LoaderConfig::for_this_host(&cache);
  cfg.ld_library_path = {*t / "bad32"};
  ObjectCache objects;
  LoadGraph g = build_load_graph(*t / "app/libprec_runpath.so", {}, cfg, objects);
  const Dependency& d = g.deps.front();
  ASSERT_EQ(d.name, "libdup.so");
  ASSERT_GE(d.object, 0);
  EXPECT_EQ(g.objects[d.object].path, *t / "x/libdup.so");
  EXPECT_EQ(d.searched.front().path, *t / "bad32/libdup.so");
  EXPECT_NE(d.searched.front().outcome.find("ELFCLASS32"), std::string::npos) << d.searched.front().outcome;
  expect_same_as_ldd(*t / "app/libprec_runpath.so", {*t / "bad32"});
}

TEST_F(LoaderTest, MissingNeededListsWhereItLooked) {
  static LdCache cache = LdCache::load();
  LoaderConfig cfg = LoaderConfig::for_this_host(&cache);
  cfg.ld_library_path.clear();
  ObjectCache objects;
  LoadGraph g = build_load_graph(*t / "app/libmissing.so", {}, cfg, objects);
  auto missing = g.missing();
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0]->name, "libnothere.so");
  std::vector<std::string> sources;
  for (const auto& a : missing[0]->searched) sources.push_back(a.source + ":" + a.path);
  std::string all = gpucheck::join(sources, "\n");
  EXPECT_NE(all.find("RUNPATH of " + *t / "app/libmissing.so:" + *t / "app/libnothere.so"), std::string::npos) << all;
  EXPECT_NE(all.find("ld.so.cache"), std::string::npos) << all;
  EXPECT_NE(all.find("default directory"), std::string::npos) << all;
  expect_same_as_ldd(*t / "app/libmissing.so");
}

TEST_F(LoaderTest, LibAndPlatformExpandAsTheLoaderDoes) {
  auto m = ours(*t / "dst/app/libdst.so", {});
  EXPECT_NE(m["libl.so"], "not found");
  EXPECT_NE(m["libp.so"], "not found");
  expect_same_as_ldd(*t / "dst/app/libdst.so");
}

TEST_F(LoaderTest, OriginOfASymlinkedLibraryIsTheLinkDirectory) {
  // liborig.so found as elsewhere/sub/liborig.so: its $ORIGIN/../deep is elsewhere/deep, which does not exist.
  auto m = ours(*t / "app/libvia_link.so", {});
  EXPECT_EQ(m["liborig.so"], *t / "elsewhere/sub/liborig.so");
  EXPECT_EQ(m["libdeep.so"], "not found");
  expect_same_as_ldd(*t / "app/libvia_link.so");
}

TEST_F(LoaderTest, SystemLibrariesResolveLikeLdd) {
  expect_same_as_ldd("/usr/lib/x86_64-linux-gnu/libtorch_cpu.so");
  if (fs::exists("/usr/local/cuda/lib64/libcublas.so")) expect_same_as_ldd("/usr/local/cuda/lib64/libcublas.so");
}

TEST(DstExpansion, AllForms) {
  LoaderConfig cfg;
  cfg.lib = "x86_64-linux-gnu";
  cfg.platform = "haswell";
  EXPECT_EQ(expand_dst("$ORIGIN/../lib", "/opt/a", cfg), "/opt/a/../lib");
  EXPECT_EQ(expand_dst("${ORIGIN}/x", "/o", cfg), "/o/x");
  EXPECT_EQ(expand_dst("/usr/$LIB/$PLATFORM", "/o", cfg), "/usr/x86_64-linux-gnu/haswell");
  EXPECT_EQ(expand_dst("/a/${LIB}b", "/o", cfg), "/a/x86_64-linux-gnub");
  EXPECT_EQ(expand_dst("/a/$LIBRARY", "/o", cfg), "/a/$LIBRARY");  // not a token: name continues
}

TEST(LdCache, AgreesWithLdconfig) {
  LdCache c = LdCache::load();
  ASSERT_FALSE(c.entries().empty());
  auto out = run_ok({"/sbin/ldconfig", "-p"});
  int compared = 0;
  for (const auto& raw : gpucheck::split(out, '\n')) {
    // "	libz.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libz.so.1"
    std::string line = gpucheck::trim(raw);
    auto arrow = line.find(" => ");
    if (arrow == std::string::npos || line.find("x86-64") == std::string::npos || line.find("hwcap") != std::string::npos) continue;
    std::string name = line.substr(0, line.find(' '));
    std::string path = line.substr(arrow + 4);
    auto mine = c.lookup(name);
    ASSERT_TRUE(mine.has_value()) << name;
    // ldconfig -p lists every entry; the loader (and we) take the first one for a name.
    if (*mine == path) ++compared;
  }
  EXPECT_GT(compared, 100);
}

TEST(LdCache, OldFormatTableInFrontOfTheNewOne) {
  // glibc < 2.32 ldconfig wrote "ld.so-1.7.0" + an old table, then the new table 8-byte aligned; string
  // offsets of the new table are relative to its own header.
  std::string fresh = read_bytes(std::string(GPUCHECK_SOURCE_DIR) + "/tests/checks/abi/fuzz/corpus/ldcache/small_valid.cache");
  ASSERT_FALSE(fresh.empty());
  std::string old = std::string("ld.so-1.7.0") + '\0';
  std::uint32_t nold = 1;
  old.append(reinterpret_cast<const char*>(&nold), 4);
  old.append(12, '\0');        // one old entry
  old.append(4, '\0');         // 28 -> 32: 8-byte alignment
  LdCache c = LdCache::parse(old + fresh, "combined");
  EXPECT_EQ(c.lookup("libz.so.1").value_or(""), "/lib/x86_64-linux-gnu/libz.so.1");
  EXPECT_EQ(c.lookup("libm.so.6").value_or(""), "/lib/x86_64-linux-gnu/libm.so.6");
  EXPECT_FALSE(c.lookup("libnope.so").has_value());
}

TEST(LdCache, MalformedCachesAreInputErrors) {
  std::string good = read_bytes("/etc/ld.so.cache");
  ASSERT_GT(good.size(), 100u);
  EXPECT_THROW(LdCache::parse("not a cache at all, definitely not", "x"), gpucheck::InputError);
  std::string huge = good;
  huge[20] = '\xff'; huge[21] = '\xff'; huge[22] = '\xff'; huge[23] = '\x7f';  // nlibs
  EXPECT_THROW(LdCache::parse(huge, "x"), gpucheck::InputError);
  std::string badstr = good;
  for (int i = 0; i < 4; ++i) badstr[48 + 4 + i] = '\xff';  // first entry's key offset
  EXPECT_THROW(LdCache::parse(badstr, "x"), gpucheck::InputError);
  EXPECT_THROW(LdCache::parse(good.substr(0, 60), "x"), gpucheck::InputError);
  EXPECT_NO_THROW(LdCache::parse(good, "x"));
}

}  // namespace
