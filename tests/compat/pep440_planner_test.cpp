// PEP 440 / PEP 508 as pip reads them (src/knowledge/pep440_planner.h).
#include <gtest/gtest.h>

#include "core/errors.h"
#include "knowledge/pep440_planner.h"

using namespace gpucheck::compat::pep440;

TEST(Pep440Planner, VersionsNormaliseAndOrder) {
  EXPECT_EQ(Version::parse("2.0.1+cu118")->str(), "2.0.1+cu118");
  EXPECT_EQ(Version::parse("0.2.3.post2")->str(), "0.2.3.post2");
  EXPECT_EQ(Version::parse("1.0RC1")->str(), "1.0rc1");
  EXPECT_EQ(Version::parse("v1.2-dev3")->str(), "1.2.dev3");
  EXPECT_EQ(Version::parse("0.9.10dev")->str(), "0.9.10.dev0");
  EXPECT_FALSE(Version::parse("latest"));
  EXPECT_FALSE(Version::parse(""));
  std::vector<std::string> ordered = {"1.0.dev1", "1.0a1", "1.0b2", "1.0rc1", "1.0", "1.0+cu118", "1.0.post1", "1.0.1"};
  for (std::size_t i = 1; i < ordered.size(); ++i)
    EXPECT_LT(Version::parse(ordered[i - 1])->compare(*Version::parse(ordered[i])), 0) << ordered[i - 1] << " < " << ordered[i];
  EXPECT_EQ(Version::parse("2.0")->compare(*Version::parse("2.0.0")), 0);
}

TEST(Pep440Planner, SpecifiersMatchAsPipDoes) {
  auto s = SpecifierSet::parse("<2.0.0,>=1.10");
  EXPECT_TRUE(s.contains("1.13.1"));
  EXPECT_TRUE(s.contains("1.10"));
  EXPECT_FALSE(s.contains("2.0.0"));
  EXPECT_FALSE(s.contains("2.0.0rc1")) << "<V excludes V's own pre-releases";
  EXPECT_FALSE(s.contains("1.9.1"));
  EXPECT_TRUE(SpecifierSet::parse("==2.5.1").contains("2.5.1+cu124")) << "a public pin admits local builds";
  EXPECT_FALSE(SpecifierSet::parse("==1.10.0+cu102").contains("1.10.0"));
  EXPECT_TRUE(SpecifierSet::parse("==2.0.*").contains("2.0.1"));
  EXPECT_FALSE(SpecifierSet::parse("==2.0.*").contains("2.1"));
  EXPECT_TRUE(SpecifierSet::parse("~=3.8.0").contains("3.8.4"));
  EXPECT_FALSE(SpecifierSet::parse("~=3.8.0").contains("3.9.0"));
  EXPECT_FALSE(SpecifierSet::parse(">1.0").contains("1.0.post1"));
  EXPECT_TRUE(SpecifierSet::parse("(!=1.12.0,>=1.9)").contains("1.13.1"));
  EXPECT_FALSE(SpecifierSet::parse(">=1.0").contains("2.0rc1")) << "pre-releases need asking";
  EXPECT_TRUE(SpecifierSet::parse(">=1.0").contains("2.0rc1", true));
  EXPECT_TRUE(SpecifierSet::parse("").contains("0.1"));
  EXPECT_THROW(SpecifierSet::parse(">>2"), gpucheck::InputError);
  EXPECT_THROW(SpecifierSet::parse(">=2.*"), gpucheck::InputError);
}

TEST(Pep440Planner, RequirementsAndMarkers) {
  auto r = Requirement::parse("Flash_Attn[Triton] (>=2.7) ; python_version >= \"3.9\" and extra == 'all'");
  EXPECT_EQ(r.name, "flash-attn");
  EXPECT_EQ(r.extras, std::vector<std::string>{"triton"});
  EXPECT_EQ(r.str(), "flash-attn[triton]>=2.7");
  MarkerEnv env;
  env.python_version = "3.11";
  EXPECT_FALSE(r.applies(env));
  env.extras = {"all"};
  EXPECT_TRUE(r.applies(env));
  EXPECT_TRUE(evaluate_marker("platform_system == \"Linux\" and platform_machine == \"x86_64\"", env));
  EXPECT_FALSE(evaluate_marker("python_version < \"3.10\" or sys_platform == 'win32'", env));
  EXPECT_TRUE(evaluate_marker("(python_version >= '3.8') and 'linux' in sys_platform", env));
  EXPECT_EQ(Requirement::parse("torch @ https://example.org/t.whl").url, "https://example.org/t.whl");
  EXPECT_THROW(Requirement::parse("-e ."), gpucheck::InputError);
  EXPECT_THROW(Requirement::parse("torch; python_version <"), gpucheck::InputError);
  EXPECT_THROW(Requirement::parse(""), gpucheck::InputError);
}
