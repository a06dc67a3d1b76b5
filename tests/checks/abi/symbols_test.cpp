// Symbol and version binding on libraries built here, checked against `ldd -r` (the loader's verdict):
// an undefined symbol, a library API never linked, version scripts (v1 present, v2 required), a clean
// three-library chain, a libstdc++ too old for the object, and the C++11 string ABI switch.
#include <gtest/gtest.h>

#include "checks/abi/cxx_abi.h"
#include "checks/abi/findings.h"
#include "audit_helpers.h"

using namespace gpucheck::abi;
using namespace abitest;

namespace {

class SymbolsTest : public ::testing::Test {
 protected:
  // Built once for all test processes: only $ORIGIN-relative RPATHs, and tests that modify the chain
  // work on their own copy.
  struct Dir {
    std::string path;
    std::string operator/(const std::string& rel) const { return path + "/" + rel; }
  };
  static void SetUpTestSuite() { t = new Dir{shared_fixture_dir("symbols", build)}; }
  static void build(const std::string& root) {
    const Dir d{root};
    // Undefined symbols: one plain, one NCCL API (bmtrain's "undefined symbol: ncclBroadcast").
    build_so(d / "und/libund.so",
             "namespace util { int nowhere(int); }\n"
             "extern \"C\" int ncclBroadcast(const void*, void*, unsigned long, int, int, void*, void*);\n"
             "extern \"C\" int use() { return util::nowhere(1) + ncclBroadcast(0, 0, 0, 0, 0, 0, 0); }");
    // Version scripts: v1 defines foo@@V1, v2 adds bar@@V2. The user links against v2, runs with v1.
    write_file(d / "ver/v1.map", "V1 { global: foo; local: *; };\n");
    write_file(d / "ver/v2.map", "V1 { global: foo; local: *; };\nV2 { global: bar; } V1;\n");
    build_so(d / "ver/v1/libver.so", "extern \"C\" int foo() { return 1; }",
             {"-Wl,-soname,libver.so", "-Wl,--version-script=" + d / "ver/v1.map"});
    build_so(d / "ver/v2/libver.so", "extern \"C\" int foo() { return 1; } extern \"C\" int bar() { return 2; }",
             {"-Wl,-soname,libver.so", "-Wl,--version-script=" + d / "ver/v2.map"});
    build_so(d / "ver/libuser.so", "extern \"C\" int foo(); extern \"C\" int bar(); extern \"C\" int u() { return foo() + bar(); }",
             {"-L" + d / "ver/v2", "-lver"});
    // A chain of three, each found through $ORIGIN.
    build_so(d / "chain/c/libc3.so", "extern \"C\" int c3() { return 3; }", {"-Wl,-soname,libc3.so"});
    build_so(d / "chain/b/libb2.so", "extern \"C\" int c3(); extern \"C\" int b2() { return c3() * 2; }",
             {"-Wl,-soname,libb2.so", "-L" + d / "chain/c", "-lc3", "-Wl,--enable-new-dtags,-rpath,$ORIGIN/../c"});
    build_so(d / "chain/a/liba1.so", "extern \"C\" int b2(); extern \"C\" int a1() { return b2() + 1; }",
             {"-L" + d / "chain/b", "-lb2", "-Wl,--enable-new-dtags,-rpath,$ORIGIN/../b"});
    // The C++11 string ABI: a library built with the new ABI, callers built with each.
    std::string greet = "#include <string>\nstd::string greet(const std::string& who) { return \"hi \" + who; }\n";
    build_so(d / "cxx/lib/libgreet.so", greet, {"-D_GLIBCXX_USE_CXX11_ABI=1", "-Wl,-soname,libgreet.so"});
    std::string caller = "#include <string>\nstd::string greet(const std::string&);\n"
                         "extern \"C\" int call() { return (int)greet(\"x\").size(); }\n";
    for (int abi : {0, 1})
      build_so(d / ("cxx/libcaller" + std::to_string(abi) + ".so"), caller,
               {"-D_GLIBCXX_USE_CXX11_ABI=" + std::to_string(abi), "-L" + d / "cxx/lib", "-Wl,--no-as-needed", "-lgreet",
                "-Wl,--enable-new-dtags,-rpath,$ORIGIN/lib"});
    // A stand-in libstdc++ that only knows GLIBCXX_3.4, first on LD_LIBRARY_PATH.
    write_file(d / "oldcxx/old.map", "GLIBCXX_3.4 { global: old_marker; local: *; };\n");
    build_so(d / "oldcxx/libstdc++.so.6", "extern \"C\" int old_marker() { return 0; }",
             {"-nostdlib", "-Wl,-soname,libstdc++.so.6", "-Wl,--version-script=" + d / "oldcxx/old.map"});
  }
  static void TearDownTestSuite() { delete t; }
  /// A private copy of the chain, for tests that remove or move its files.
  static std::string chain_copy(const TempDir& scratch) {
    fs::copy(*t / "chain", scratch / "chain", fs::copy_options::recursive);
    return scratch / "chain";
  }
  static Dir* t;
};
SymbolsTest::Dir* SymbolsTest::t = nullptr;

TEST_F(SymbolsTest, UndefinedSymbolIsFoundDemangledAndGrouped) {
  auto r = audit_one(*t / "und/libund.so");
  EXPECT_EQ(r.status, gpucheck::Status::kFail);
  ASSERT_EQ(r.check.symbols.size(), 2u);
  const SymbolGroup* other = group_of(r, "other");
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->symbols, std::vector<std::string>{"util::nowhere(int)"});
  EXPECT_EQ(other->mangled, std::vector<std::string>{"_ZN4util7nowhereEi"});
  const SymbolGroup* nccl = group_of(r, "library_api");
  ASSERT_NE(nccl, nullptr);
  EXPECT_EQ(nccl->symbols, std::vector<std::string>{"ncclBroadcast"});
  EXPECT_NE(nccl->cause.find("never linked"), std::string::npos) << nccl->cause;
  EXPECT_NE(nccl->remedy.front().summary.find("-lnccl"), std::string::npos);
  // The loader agrees on both.
  std::string l = ldd_r(*t / "und/libund.so");
  EXPECT_NE(l.find("undefined symbol: _ZN4util7nowhereEi"), std::string::npos) << l;
  EXPECT_NE(l.find("undefined symbol: ncclBroadcast"), std::string::npos) << l;
}

TEST_F(SymbolsTest, VersionScriptV2RequiredButV1Present) {
  auto ok = audit_one(*t / "ver/libuser.so", {*t / "ver/v2"});
  EXPECT_EQ(ok.status, gpucheck::Status::kPass) << gpucheck::join(ok.problems, "\n");
  auto r = audit_one(*t / "ver/libuser.so", {*t / "ver/v1"});
  EXPECT_EQ(r.status, gpucheck::Status::kFail);
  ASSERT_EQ(r.check.versions.size(), 1u);
  EXPECT_EQ(r.check.versions[0].version, "V2");
  EXPECT_EQ(r.check.versions[0].file, "libver.so");
  ASSERT_EQ(r.check.symbols.size(), 1u);  // bar@V2; foo@V1 binds
  EXPECT_EQ(r.check.symbols[0].name, "bar");
  EXPECT_EQ(r.check.symbols[0].version, "V2");
  const SymbolGroup* g = group_of(r, "version");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->symbols, std::vector<std::string>{"V2"});
  std::string l = ldd_r(*t / "ver/libuser.so", {*t / "ver/v1"});
  EXPECT_NE(l.find("version `V2' not found"), std::string::npos) << l;
}

TEST_F(SymbolsTest, ThreeLibraryChainIsClean) {
  TempDir scratch;
  std::string chain = chain_copy(scratch);
  auto r = audit_one(chain + "/a/liba1.so");
  EXPECT_EQ(r.status, gpucheck::Status::kPass) << gpucheck::join(r.problems, "\n");
  EXPECT_TRUE(r.check.symbols.empty());
  EXPECT_GT(r.check.references_checked, 0u);
  ASSERT_GE(r.graph.objects.size(), 3u);
  EXPECT_EQ(r.graph.objects[1].path, chain + "/a/../b/libb2.so");
  // $ORIGIN of libb2 is the directory it was found in, unnormalised, exactly as ld.so (and ldd) print it.
  EXPECT_EQ(r.graph.objects[2].path, chain + "/a/../b/../c/libc3.so");
  EXPECT_EQ(ldd(chain + "/a/liba1.so")["libc3.so"], r.graph.objects[2].path);
  // Remove the end of the chain: the middle library's need is reported, against the right requester.
  fs::remove(chain + "/c/libc3.so");
  auto broken = audit_one(chain + "/a/liba1.so");
  auto missing = broken.graph.missing();
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0]->name, "libc3.so");
  EXPECT_EQ(broken.graph.objects[missing[0]->requester].path, chain + "/a/../b/libb2.so");
  EXPECT_EQ(broken.check.symbols.size(), 1u);  // c3, needed by libb2
}

TEST_F(SymbolsTest, Cxx11AbiMismatchIsNamed) {
  std::string err;
  ObjectCache c;
  EXPECT_EQ(detect_cxx_abi(*c.get(*t / "cxx/lib/libgreet.so", &err)).abi, CxxAbi::kNew);
  EXPECT_EQ(detect_cxx_abi(*c.get(*t / "cxx/libcaller0.so", &err)).abi, CxxAbi::kOld);
  EXPECT_EQ(detect_cxx_abi(*c.get(*t / "cxx/libcaller1.so", &err)).abi, CxxAbi::kNew);

  auto same = audit_one(*t / "cxx/libcaller1.so");
  EXPECT_EQ(same.status, gpucheck::Status::kPass) << gpucheck::join(same.problems, "\n");
  auto r = audit_one(*t / "cxx/libcaller0.so");
  EXPECT_EQ(r.status, gpucheck::Status::kFail);
  const SymbolGroup* g = group_of(r, "cxx_abi");
  ASSERT_NE(g, nullptr) << gpucheck::join(r.problems, "\n");
  EXPECT_EQ(g->symbols, std::vector<std::string>{"greet(std::string const&)"});
  EXPECT_NE(g->cause.find("_GLIBCXX_USE_CXX11_ABI=0"), std::string::npos) << g->cause;
  EXPECT_NE(g->cause.find("libgreet.so"), std::string::npos) << g->cause;
  EXPECT_NE(ldd_r(*t / "cxx/libcaller0.so").find("undefined symbol: _Z5greetRKSs"), std::string::npos);
}

TEST_F(SymbolsTest, TooOldLibstdcxxPointsToANewerOne) {
  auto r = audit_one(*t / "cxx/libcaller1.so", {*t / "oldcxx"});
  EXPECT_EQ(r.status, gpucheck::Status::kFail);
  const SymbolGroup* g = group_of(r, "libstdcxx");
  ASSERT_NE(g, nullptr) << gpucheck::join(r.problems, "\n");
  EXPECT_NE(g->cause.find(*t / "oldcxx/libstdc++.so.6"), std::string::npos) << g->cause;
  // The system libstdc++ defines the missing versions: it is named as the newer one on this machine.
  std::string sys = real_path("/usr/lib/x86_64-linux-gnu/libstdc++.so.6");
  EXPECT_NE(g->cause.find(sys), std::string::npos) << g->cause;
  bool glibcxx = false;
  for (const auto& s : g->symbols) glibcxx = glibcxx || s.rfind("GLIBCXX_3.4.", 0) == 0;
  EXPECT_TRUE(glibcxx) << gpucheck::join(g->symbols, ",");
  std::string l = ldd_r(*t / "cxx/libcaller1.so", {*t / "oldcxx"});
  EXPECT_NE(l.find("version `GLIBCXX_3.4."), std::string::npos) << l;
  // The remedy is a command too: that newer libstdc++'s directory first on LD_LIBRARY_PATH; the target's
  // Finding is named by its first problem and carries the command among its fixes.
  ASSERT_EQ(g->remedy.size(), 1u);
  ASSERT_EQ(g->remedy.front().commands.size(), 1u);
  EXPECT_EQ(g->remedy.front().commands[0].rfind("export LD_LIBRARY_PATH=", 0), 0u) << g->remedy.front().commands[0];
  gpucheck::Finding f = to_finding(r);
  EXPECT_EQ(f.id, "abi.symbols.libstdcxx");
  EXPECT_EQ(f.summary, r.problems.front());
  bool has_command = false;
  for (const auto& fx : f.fixes) has_command = has_command || fx.commands == g->remedy.front().commands;
  EXPECT_TRUE(has_command);
}

TEST_F(SymbolsTest, PreloadedLibrarySatisfiesNeedsAndSymbols) {
  // libb2.so's NEEDED libc3.so matched by SONAME to a preloaded copy, even with the file gone from the path.
  TempDir scratch;
  std::string chain = chain_copy(scratch);
  fs::rename(chain + "/c/libc3.so", scratch / "preloaded-libc3.so");
  auto r = audit_one(chain + "/a/liba1.so", {}, {scratch / "preloaded-libc3.so"});
  EXPECT_EQ(r.status, gpucheck::Status::kPass) << gpucheck::join(r.problems, "\n");
  bool via_preload = false;
  for (const auto& d : r.graph.deps) via_preload = via_preload || (d.name == "libc3.so" && d.via == "preloaded");
  EXPECT_TRUE(via_preload);
}

}  // namespace
