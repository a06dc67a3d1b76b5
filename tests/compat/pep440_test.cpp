// PEP 440 / PEP 508 as packaging decides them; expected values are packaging 24's answers.
#include <gtest/gtest.h>

#include "knowledge/pep440.h"

using namespace gpucheck::pep440;

namespace {
int cmpv(const std::string& a, const std::string& b) { return compare(*Version::parse(a), *Version::parse(b)); }
bool in(const std::string& v, const std::string& spec) { return SpecifierSet::parse(spec)->contains(v); }
}  // namespace

TEST(Pep440Version, OrdersDevPreFinalPostLocal) {
  const char* ordered[] = {"1.0.dev0", "1.0a1", "1.0b2", "1.0rc1", "1.0", "1.0+cu118", "1.0.post1", "1.1"};
  for (std::size_t i = 0; i + 1 < std::size(ordered); ++i) EXPECT_LT(cmpv(ordered[i], ordered[i + 1]), 0) << ordered[i];
  EXPECT_EQ(cmpv("1.0", "1.0.0"), 0);
  EXPECT_EQ(cmpv("1.0RC1", "1.0rc1"), 0);
  EXPECT_EQ(Version::parse("1.0-1")->str(), "1.0.post1");
  EXPECT_EQ(Version::parse("2.1.2+CU121")->str(), "2.1.2+cu121");
  EXPECT_GT(cmpv("1!0.1", "2.0"), 0);
  EXPECT_FALSE(Version::parse("2.0.x"));
  EXPECT_FALSE(Version::parse(""));
}

TEST(Pep440Specifier, AsPackagingDecides) {
  EXPECT_TRUE(in("2.1.2+cu121", "==2.1.2"));   // local ignored when the spec has none
  EXPECT_FALSE(in("2.1.2", "==2.1.2+cu121"));
  EXPECT_FALSE(in("2.1.2", "==2.2.0"));
  EXPECT_TRUE(in("2.1.2", ">=1.10,<2.1.3"));
  EXPECT_FALSE(in("2.1.2", ">=2.3"));
  EXPECT_TRUE(in("2.0.1", "==2.0.*"));
  EXPECT_FALSE(in("2.1.0", "==2.0.*"));
  EXPECT_TRUE(in("8.4.0", "!=8.3.*,>=5.3.0"));
  EXPECT_FALSE(in("8.3.2", "!=8.3.*,>=5.3.0"));
  EXPECT_TRUE(in("1.4.5", "~=1.4.2"));
  EXPECT_FALSE(in("1.5.0", "~=1.4.2"));
  EXPECT_TRUE(in("2.9", "~=2.2"));
  EXPECT_FALSE(in("3.0rc1", "<3.0"));      // <V excludes V's pre-releases
  EXPECT_TRUE(in("3.0rc1", "<3.0rc2"));
  EXPECT_FALSE(in("1.0.post1", ">1.0"));   // >V excludes V's post-releases
  EXPECT_FALSE(in("1.0+local", ">1.0"));
  EXPECT_TRUE(in("1.1", ">1.0"));
  EXPECT_TRUE(in("2.2.0.dev1", ">=2.1"));  // installed versions are judged as they are (pip check)
  EXPECT_FALSE(SpecifierSet::parse(">=2.3")->contains("2.4.0rc1", false));
  EXPECT_TRUE(SpecifierSet::parse(">=2.4.0rc1")->contains("2.4.0rc1", false));
  EXPECT_TRUE(in("1.0", "(>=0.9)"));
  EXPECT_FALSE(SpecifierSet::parse("~=1"));
  EXPECT_FALSE(SpecifierSet::parse(">=2.0.*"));
  EXPECT_FALSE(SpecifierSet::parse("=>1.0"));
  EXPECT_EQ(SpecifierSet::parse("<2.0.0,>=1.10")->str(), "<2.0.0,>=1.10");
}

TEST(Pep508Requirement, ParsesTheFormsWheelsWrite) {
  auto r = Requirement::parse("torch (==2.2.0)");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->name, "torch");
  EXPECT_EQ(r->specifiers.str(), "==2.2.0");
  r = Requirement::parse("Flash_Attn[Extra1, extra_2]>=2.7 ; python_version >= \"3.8\"");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->name, "flash-attn");
  EXPECT_EQ(r->extras, (std::vector<std::string>{"extra1", "extra-2"}));
  EXPECT_EQ(r->marker, "python_version >= \"3.8\"");
  r = Requirement::parse("pkg @ https://example.org/pkg.whl ; sys_platform == 'linux'");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->url, "https://example.org/pkg.whl");
  EXPECT_FALSE(Requirement::parse("torch >= "));
  EXPECT_FALSE(Requirement::parse("-e ."));
}

TEST(Pep508Marker, EvaluatesForTheInterpreterAndTheExtra) {
  auto env = linux_marker_environment("3.11.7");
  auto applies = [&](const std::string& line, const std::string& extra = "") {
    return Requirement::parse(line)->applies(env, extra);
  };
  EXPECT_TRUE(applies("numpy"));
  EXPECT_FALSE(applies("scipy ; extra == 'scipy'"));
  EXPECT_TRUE(applies("scipy ; extra == 'scipy'", "scipy"));
  EXPECT_TRUE(applies("x ; extra == \"Dev_Tools\"", "dev-tools"));
  EXPECT_FALSE(applies("typing-extensions ; python_version < \"3.8\""));
  EXPECT_TRUE(applies("tomli ; python_version < \"3.12\""));
  EXPECT_TRUE(applies("a ; python_full_version >= '3.11.5' and (sys_platform == 'linux' or os_name == 'nt')"));
  EXPECT_FALSE(applies("pywin32 ; platform_system == \"Windows\""));
  EXPECT_TRUE(applies("triton ; platform_system == \"Linux\" and platform_machine == \"x86_64\""));
  EXPECT_TRUE(applies("b ; 'linux' in sys_platform"));
  EXPECT_FALSE(evaluate_marker("python_version >", env));
  EXPECT_TRUE(applies("c ; unknown_variable == '1'"));  // unreadable: kept, never silently dropped
}
