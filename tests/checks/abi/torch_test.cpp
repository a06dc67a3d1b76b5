// An extension module built against Debian's LibTorch (real c10 symbols through the real headers):
// clean against that libtorch; against a stand-in libc10 that lacks a symbol (found, demangled, "built
// against another torch"); built with the other C++ string ABI (named as an ABI mismatch); and built
// without linking torch, clean only once torch is preloaded as `import torch` would have it.
#include <gtest/gtest.h>

#include "checks/abi/targets.h"
#include "audit_helpers.h"

using namespace gpucheck::abi;
using namespace abitest;

namespace {

const std::string kTorchLib = "/usr/lib/x86_64-linux-gnu";
const std::string kModule = R"(#include <c10/util/Exception.h>
extern "C" int check_positive(int x) {
  TORCH_CHECK(x > 0, "x must be positive, got ", x);
  return x;
}
)";

class TorchTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!fs::exists("/usr/include/torch/csrc/api/include") && !fs::exists("/usr/include/c10/util/Exception.h")) return;
    if (!fs::exists(kTorchLib + "/libc10.so")) return;
    // Nothing here embeds its own directory (no RPATH) and no test modifies it: built once for all processes.
    dir = shared_fixture_dir("torch", [](const std::string& d) {
      std::vector<std::string> inc{"-I/usr/include/torch/csrc/api/include"};
      auto with = [&](std::vector<std::string> extra) {
        extra.insert(extra.begin(), inc.begin(), inc.end());
        return extra;
      };
      build_so(d + "/ext/module_cxx11.so", kModule, with({"-L" + kTorchLib, "-Wl,--no-as-needed", "-lc10"}));
      build_so(d + "/ext/module_old_abi.so", kModule,
               with({"-D_GLIBCXX_USE_CXX11_ABI=0", "-L" + kTorchLib, "-Wl,--no-as-needed", "-lc10"}));
      build_so(d + "/ext/module_unlinked.so", kModule, with({}));
      // A libc10 stand-in with Debian's SONAME that lacks the std::string overload of torchCheckFail.
      build_so(d + "/standin/libc10.so.1.13",
               "#include <cstdint>\nnamespace c10 { namespace detail {\n"
               "[[noreturn]] void torchCheckFail(const char*, const char*, uint32_t, const char*) { throw 1; }\n}}\n",
               {"-Wl,-soname,libc10.so.1.13"});
    });
    t = new Dir{dir};
  }
  static void TearDownTestSuite() { delete t; }
  void SetUp() override {
    if (!t) GTEST_SKIP() << "Debian libtorch-dev (headers in /usr/include/torch, " << kTorchLib << "/libc10.so) not installed";
  }
  struct Dir {
    std::string path;
    std::string operator/(const std::string& rel) const { return path + "/" + rel; }
  };
  static Dir* t;
  static std::string dir;
};
TorchTest::Dir* TorchTest::t = nullptr;
std::string TorchTest::dir;

TEST_F(TorchTest, ModuleAgainstItsLibtorchIsClean) {
  auto r = audit_one(*t / "ext/module_cxx11.so");
  EXPECT_EQ(r.status, gpucheck::Status::kPass) << gpucheck::join(r.problems, "\n");
  EXPECT_EQ(real_path(r.torch_path), real_path(kTorchLib + "/libc10.so.1.13"));  // ld.so.cache says /lib/...
  EXPECT_EQ(r.cxx_abi.abi, CxxAbi::kNew);
  EXPECT_EQ(r.torch_cxx_abi.abi, CxxAbi::kNew);
  EXPECT_FALSE(r.cxx_abi_mismatch);
}

TEST_F(TorchTest, StandInLackingASymbolIsFoundAndDemangled) {
  auto r = audit_one(*t / "ext/module_cxx11.so", {*t / "standin"});
  EXPECT_EQ(r.status, gpucheck::Status::kFail);
  const SymbolGroup* g = group_of(r, "torch");
  ASSERT_NE(g, nullptr) << gpucheck::join(r.problems, "\n");
  ASSERT_EQ(g->symbols.size(), 1u);
  EXPECT_EQ(g->symbols[0],
            "c10::detail::torchCheckFail(char const*, char const*, unsigned int, std::__cxx11::basic_string<char, "
            "std::char_traits<char>, std::allocator<char> > const&)");
  EXPECT_NE(g->cause.find("another torch"), std::string::npos) << g->cause;
  EXPECT_NE(g->cause.find(*t / "standin/libc10.so.1.13"), std::string::npos) << g->cause;
  EXPECT_NE(ldd_r(*t / "ext/module_cxx11.so", {*t / "standin"}).find("undefined symbol: _ZN3c106detail14torchCheckFail"),
            std::string::npos);
}

TEST_F(TorchTest, OldAbiModuleIsAnAbiMismatch) {
  auto r = audit_one(*t / "ext/module_old_abi.so");
  EXPECT_EQ(r.status, gpucheck::Status::kFail);
  EXPECT_TRUE(r.cxx_abi_mismatch);
  EXPECT_EQ(r.cxx_abi.abi, CxxAbi::kOld);
  const SymbolGroup* g = group_of(r, "cxx_abi");
  ASSERT_NE(g, nullptr) << gpucheck::join(r.problems, "\n");
  EXPECT_EQ(g->symbols[0], "c10::detail::torchCheckFail(char const*, char const*, unsigned int, std::string const&)");
  EXPECT_NE(g->cause.find("_GLIBCXX_USE_CXX11_ABI=0"), std::string::npos) << g->cause;
  EXPECT_NE(g->remedy.front().summary.find("_GLIBCXX_USE_CXX11_ABI=1"), std::string::npos);
}

TEST_F(TorchTest, UnlinkedModuleNeedsTorchPreloaded) {
  auto bare = audit_one(*t / "ext/module_unlinked.so");
  EXPECT_EQ(bare.status, gpucheck::Status::kFail);
  const SymbolGroup* g = group_of(bare, "torch");
  ASSERT_NE(g, nullptr);
  EXPECT_NE(g->cause.find("--with-torch"), std::string::npos) << g->cause;
  auto pre = audit_one(*t / "ext/module_unlinked.so", {}, torch_preload(kTorchLib));
  EXPECT_EQ(pre.status, gpucheck::Status::kPass) << gpucheck::join(pre.problems, "\n");
}

}  // namespace
