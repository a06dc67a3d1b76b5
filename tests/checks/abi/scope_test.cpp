// Symbol visibility as ld.so has it for `import ext` in a process that already loaded other libraries:
// what a preload opened RTLD_LOCAL brought in is matched by SONAME but its symbols are invisible to a
// later object that does not link it (torch's libnccl and bmtrain 0.2.2's nccl/_C, issue 13); opened
// RTLD_GLOBAL, or reached through the object's own DT_NEEDED, it is visible. Each verdict is compared
// with the real loader: python3's ctypes opening the same files in the same order (RTLD_NOW).
#include <gtest/gtest.h>

#include "audit_helpers.h"

using namespace gpucheck::abi;
using namespace gpucheck::platform;
using namespace abitest;

namespace {

class ScopeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir = new std::string(shared_fixture_dir("scope", [](const std::string& d) {
      build_so(d + "/lib/libdep.so.2", "extern \"C\" int dep_recv(int x) { return x + 1; }\n", {"-Wl,-soname,libdep.so.2"});
      // Stands for libtorch_cuda: links libdep.so.2 and is what the parent opens.
      build_so(d + "/lib/libholder.so", "extern \"C\" int dep_recv(int); extern \"C\" int hold() { return dep_recv(1); }\n",
               {"-Wl,-soname,libholder.so", "-L" + d + "/lib", "-Wl,--no-as-needed", "-l:libdep.so.2", "-Wl,-rpath,$ORIGIN"});
      // Stands for bmtrain's nccl/_C: calls dep_recv but links neither library.
      build_so(d + "/ext/unlinked.so", "extern \"C\" int dep_recv(int); extern \"C\" int use() { return dep_recv(2); }\n");
      // The same code linked with the holder: dep_recv is reached through its own closure.
      build_so(d + "/ext/linked.so", "extern \"C\" int dep_recv(int); extern \"C\" int use() { return dep_recv(2); }\n",
               {"-L" + d + "/lib", "-Wl,--no-as-needed", "-lholder", "-Wl,-rpath," + d + "/lib"});
    }));
  }
  static void TearDownTestSuite() { delete dir; }
  static std::string* dir;

  static TargetReport audit(const std::string& target, bool holder_global) {
    static LdCache cache = LdCache::load();
    AuditOptions o;
    o.loader = LoaderConfig::for_this_host(&cache);
    o.loader.ld_library_path = {};
    o.torch_loads = {{*dir + "/lib/libholder.so", holder_global}};
    Auditor a(o);
    return a.audit(target);
  }

  /// What the real loader says: "" when the target loads after the holder, else dlerror's text.
  static std::string real_loader(const std::string& target, bool holder_global) {
    std::string code = "import ctypes\nctypes.CDLL('" + *dir + "/lib/libholder.so'" +
                       (holder_global ? ", mode=ctypes.RTLD_GLOBAL" : "") + ")\ntry:\n    ctypes.CDLL('" + target +
                       "')\n    print('loaded')\nexcept OSError as e:\n    print(e)\n";
    gpucheck::SubprocessOptions so;
    so.unset_env = {"LD_LIBRARY_PATH", "LD_PRELOAD"};
    auto r = gpucheck::run_subprocess({"python3", "-c", code}, so);
    EXPECT_TRUE(r.ok()) << r.err;
    std::string out = gpucheck::trim(r.out);
    return out == "loaded" ? "" : out;
  }
};
std::string* ScopeTest::dir = nullptr;

TEST_F(ScopeTest, LocalPreloadIsInvisibleToAnObjectThatDoesNotLinkIt) {
  auto t = audit(*dir + "/ext/unlinked.so", false);
  EXPECT_EQ(t.status, gpucheck::Status::kFail);
  const SymbolGroup* g = group_of(t, "not_visible");
  ASSERT_NE(g, nullptr) << gpucheck::join(t.problems, "\n");
  EXPECT_EQ(g->symbols, std::vector<std::string>{"dep_recv"});
  EXPECT_NE(g->cause.find("libdep.so.2"), std::string::npos) << g->cause;
  EXPECT_NE(g->cause.find("RTLD_LOCAL"), std::string::npos) << g->cause;
  ASSERT_FALSE(g->remedy.empty());
  EXPECT_NE(g->remedy[0].summary.find("-ldep"), std::string::npos) << g->remedy[0].summary;
  auto hidden = [&](const std::string& name) {
    for (const auto& p : t.host.not_visible)
      if (p.size() >= name.size() && p.compare(p.size() - name.size(), name.size(), name) == 0) return true;
    return false;
  };
  EXPECT_TRUE(hidden("/libholder.so") && hidden("/libdep.so.2")) << gpucheck::join(t.host.not_visible, "\n");
  std::string real = real_loader(*dir + "/ext/unlinked.so", false);
  EXPECT_NE(real.find("undefined symbol: dep_recv"), std::string::npos) << real;
}

TEST_F(ScopeTest, GlobalPreloadIsVisible) {
  auto t = audit(*dir + "/ext/unlinked.so", true);
  EXPECT_EQ(t.status, gpucheck::Status::kPass) << gpucheck::join(t.problems, "\n");
  EXPECT_TRUE(t.host.not_visible.empty());
  EXPECT_EQ(real_loader(*dir + "/ext/unlinked.so", true), "");
}

TEST_F(ScopeTest, ALocalPreloadReachedThroughTheObjectsOwnNeededIsVisible) {
  auto t = audit(*dir + "/ext/linked.so", false);
  EXPECT_EQ(t.status, gpucheck::Status::kPass) << gpucheck::join(t.problems, "\n");
  EXPECT_EQ(real_loader(*dir + "/ext/linked.so", false), "");
  // Matched by SONAME: the holder the parent loaded, not a second copy.
  int holders = 0;
  for (const auto& o : t.graph.objects)  // (paths only: the objects died with the auditor)
    holders += o.real.size() > 13 && o.real.compare(o.real.size() - 13, 13, "/libholder.so") == 0;
  EXPECT_EQ(holders, 1);
}

}  // namespace
