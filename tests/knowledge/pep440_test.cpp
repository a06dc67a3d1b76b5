// PEP 440 / PEP 508 as packaging decides them (src/knowledge/pep440.h); expected values are packaging 24's
// answers. pep440_reference_test.cpp compares the module with packaging itself over a generated table.
#include <gtest/gtest.h>

#include "knowledge/pep440.h"

using namespace gpucheck::knowledge::pep440;

namespace {
int cmpv(const std::string& a, const std::string& b) { return compare(*Version::parse(a), *Version::parse(b)); }
// pip check's question: is the installed version inside the set (pre-releases judged as they are)?
bool in(const std::string& v, const std::string& spec) { return SpecifierSet::parse(spec).contains(v, true); }
// An installer's question: may it pick this version (pre-releases only when a clause names one)?
bool picks(const std::string& v, const std::string& spec) { return SpecifierSet::parse(spec).contains(v); }
}  // namespace

TEST(Pep440Version, NormalisesAsPackaging) {
  EXPECT_EQ(Version::parse("1.0-1")->str(), "1.0.post1");
  EXPECT_EQ(Version::parse("2.1.2+CU121")->str(), "2.1.2+cu121");
  EXPECT_EQ(Version::parse("2.0.1+cu118")->str(), "2.0.1+cu118");
  EXPECT_EQ(Version::parse("0.2.3.post2")->str(), "0.2.3.post2");
  EXPECT_EQ(Version::parse("1.0RC1")->str(), "1.0rc1");
  EXPECT_EQ(Version::parse("v1.2-dev3")->str(), "1.2.dev3");
  EXPECT_EQ(Version::parse("0.9.10dev")->str(), "0.9.10.dev0");
  EXPECT_EQ(Version::parse(" 1.0c1 ")->str(), "1.0rc1");
  EXPECT_EQ(Version::parse("1.0.preview2")->str(), "1.0rc2");
  EXPECT_EQ(Version::parse("1.0-r4")->str(), "1.0.post4");
  EXPECT_EQ(Version::parse("1.0+ubuntu-1_2")->str(), "1.0+ubuntu.1.2");
  EXPECT_EQ(Version::parse("01.002")->str(), "1.2");
  EXPECT_EQ(Version::parse("1!2.0+x")->public_str(), "1!2.0");
  EXPECT_FALSE(Version::parse("2.0.x"));
  EXPECT_FALSE(Version::parse("latest"));
  EXPECT_FALSE(Version::parse(""));
  EXPECT_FALSE(Version::parse("1.0+"));
  EXPECT_FALSE(Version::parse("1234567890123456789012"));  // more than 18 digits: not read as a version here
}

TEST(Pep440Version, OrdersDevPreFinalPostLocal) {
  const char* ordered[] = {"1.0.dev0", "1.0a1.dev1", "1.0a1", "1.0a1.post1", "1.0b2", "1.0rc1", "1.0",
                           "1.0+abc", "1.0+abc.5", "1.0+5", "1.0.post1.dev1", "1.0.post1", "1.1", "1!0.1"};
  for (std::size_t i = 0; i + 1 < std::size(ordered); ++i) EXPECT_LT(cmpv(ordered[i], ordered[i + 1]), 0) << ordered[i];
  EXPECT_EQ(cmpv("1.0", "1.0.0"), 0);
  EXPECT_EQ(cmpv("1.0RC1", "1.0rc1"), 0);
  EXPECT_EQ(cmpv("2.0+CU1", "2.0+cu1"), 0);
  EXPECT_EQ(Version::parse("2.0+a")->compare(*Version::parse("2.0+b"), false), 0);
}

TEST(Pep440Specifier, ComparesAsPackaging) {
  EXPECT_TRUE(in("2.1.2+cu121", "==2.1.2"));  // local ignored when the spec has none
  EXPECT_FALSE(in("2.1.2", "==2.1.2+cu121"));
  EXPECT_FALSE(in("2.1.2", "==2.2.0"));
  EXPECT_TRUE(in("2.1.2", ">=1.10,<2.1.3"));
  EXPECT_FALSE(in("2.1.2", ">=2.3"));
  EXPECT_TRUE(in("2.0.1", "==2.0.*"));
  EXPECT_FALSE(in("2.1.0", "==2.0.*"));
  EXPECT_TRUE(in("2.0", "==2.0.0.*"));
  EXPECT_TRUE(in("1.0rc1", "==1.0.*"));
  EXPECT_TRUE(in("1.0rc1", "==1.0.0.*"));  // packaging pads 1.0rc1's release to 1.0.0 before comparing
  EXPECT_TRUE(in("8.4.0", "!=8.3.*,>=5.3.0"));
  EXPECT_FALSE(in("8.3.2", "!=8.3.*,>=5.3.0"));
  EXPECT_TRUE(in("1.4.5", "~=1.4.2"));
  EXPECT_FALSE(in("1.5.0", "~=1.4.2"));
  EXPECT_TRUE(in("2.9", "~=2.2"));
  EXPECT_FALSE(in("3.0", "~=2.2"));
  EXPECT_FALSE(in("1!2.3", "~=2.2"));
  EXPECT_FALSE(in("3.0rc1", "<3.0"));  // <V excludes V's pre-releases
  EXPECT_TRUE(in("3.0rc1", "<3.0rc2"));
  EXPECT_FALSE(in("1.0.post1", ">1.0"));  // >V excludes V's post-releases
  EXPECT_TRUE(in("1.0.post2", ">1.0.post1"));
  EXPECT_FALSE(in("1.0+local", ">1.0"));
  EXPECT_TRUE(in("1.1", ">1.0"));
  EXPECT_TRUE(in("1.0+local", "<=1.0"));
  EXPECT_TRUE(in("2.0", "===2.0"));
  EXPECT_FALSE(in("2.0.0", "===2.0"));
  EXPECT_TRUE(in("1.0", "(>=0.9)"));
  EXPECT_TRUE(in("0.1", ""));
  EXPECT_EQ(SpecifierSet::parse("<2.0.0,>=1.10").str(), "<2.0.0,>=1.10");
  EXPECT_EQ(SpecifierSet::parse(" >= 1.0 ,, != 1.5.* ").str(), ">=1.0,!=1.5.*");
}

TEST(Pep440Specifier, PreReleasesOnlyWhenNamedOrAsked) {
  // The question: doctor (pip check) and the planner asked one module, so they cannot disagree.
  EXPECT_FALSE(in("2.1.0rc1", ">=2.1"));  // 2.1.0rc1 < 2.1: outside, whoever asks
  EXPECT_TRUE(in("2.2.0.dev1", ">=2.1"));       // an installed pre-release is judged as it is
  EXPECT_FALSE(picks("2.2.0.dev1", ">=2.1"));   // an installer does not pick one unasked
  EXPECT_FALSE(picks("2.4.0rc1", ">=2.3"));
  EXPECT_TRUE(picks("2.4.0rc1", ">=2.4.0rc1"));
  EXPECT_TRUE(picks("2.4.0rc2", ">=2.3,<=2.4.0rc2"));
  EXPECT_FALSE(picks("2.4.0rc1", ">2.4.0a1"));  // only ==, >=, <=, ~= and === name one (packaging)
  EXPECT_FALSE(picks("2.4.0rc1", "<3.0rc1"));
  EXPECT_FALSE(picks("1.0rc1", ""));            // an empty set admits no pre-release unless asked
  EXPECT_TRUE(SpecifierSet::parse("").contains("1.0rc1", true));
  EXPECT_FALSE(SpecifierSet::parse(">=2.4.0rc1").contains("2.4.0rc1", false));  // false: never
  EXPECT_FALSE(SpecifierSet::parse("<2.0.0,>=1.10").contains("2.0.0rc1", true));  // <V excludes V's own
}

TEST(Pep440Specifier, BadInputIsATypedError) {
  for (const char* bad : {"~=1", ">=2.0.*", "=>1.0", ">>2", ">=2.*", "==1.0.dev1.*", "==1.0+abc.*", ">=1.0+abc",
                          "~=1.0+abc", ">=", "1.0", ">=1.0;", "==1.0 .*"}) {
    EXPECT_THROW(SpecifierSet::parse(bad), ParseError) << bad;
    EXPECT_FALSE(SpecifierSet::try_parse(bad)) << bad;
  }
  try {
    SpecifierSet::parse(">=1.10,<2.x");
    FAIL();
  } catch (const gpucheck::InputError& e) {  // the CLI's exit 2, one line naming the clause
    EXPECT_STREQ(e.what(), "'>=1.10,<2.x': '<2.x': '2.x' is not a PEP 440 version");
  }
}

TEST(Pep508Requirement, ParsesTheFormsWheelsAndUsersWrite) {
  auto r = Requirement::parse("torch (==2.2.0)");
  EXPECT_EQ(r.name, "torch");
  EXPECT_EQ(r.specifiers.str(), "==2.2.0");
  r = Requirement::parse("Flash_Attn[Extra1, extra_2]>=2.7 ; python_version >= \"3.8\"");
  EXPECT_EQ(r.name, "flash-attn");
  EXPECT_EQ(r.written_name, "Flash_Attn");
  EXPECT_EQ(r.extras, (std::vector<std::string>{"extra1", "extra-2"}));
  EXPECT_EQ(r.marker, "python_version >= \"3.8\"");
  EXPECT_EQ(r.str(), "flash-attn[extra1,extra-2]>=2.7");
  r = Requirement::parse("pkg @ https://example.org/pkg.whl ; sys_platform == 'linux'");
  EXPECT_EQ(r.url, "https://example.org/pkg.whl");
  EXPECT_EQ(r.marker, "sys_platform == 'linux'");
  EXPECT_EQ(Requirement::parse("torch @ https://example.org/t.whl").url, "https://example.org/t.whl");
  EXPECT_EQ(Requirement::parse("bmtrain>=0.2.1  # the seed's line").str(), "bmtrain>=0.2.1");
  for (const char* bad : {"torch >= ", "-e .", "", "torch; python_version <", "x ; unknown_variable == '1'",
                          "x ; extra > 'a'", "x @ ", "x ;"}) {
    EXPECT_THROW(Requirement::parse(bad), ParseError) << bad;
    EXPECT_FALSE(Requirement::try_parse(bad)) << bad;
  }
}

TEST(Pep508Marker, EvaluatesForTheInterpreterAndTheExtras) {
  auto env = MarkerEnv::linux_cpython("3.11.7");
  auto applies = [&](const std::string& line, std::set<std::string> extras = {}) {
    MarkerEnv e = env;
    e.extras = std::move(extras);
    return Requirement::parse(line).applies(e);
  };
  EXPECT_EQ(env.python_version, "3.11");
  EXPECT_TRUE(applies("numpy"));
  EXPECT_FALSE(applies("scipy ; extra == 'scipy'"));
  EXPECT_TRUE(applies("scipy ; extra == 'scipy'", {"scipy"}));
  EXPECT_TRUE(applies("x ; extra == \"Dev_Tools\"", {"dev-tools"}));
  EXPECT_TRUE(applies("x ; extra != 'a'", {"b"}));
  EXPECT_FALSE(applies("typing-extensions ; python_version < \"3.8\""));
  EXPECT_TRUE(applies("tomli ; python_version < \"3.12\""));
  EXPECT_TRUE(applies("a ; python_full_version >= '3.11.5' and (sys_platform == 'linux' or os_name == 'nt')"));
  EXPECT_FALSE(applies("pywin32 ; platform_system == \"Windows\""));
  EXPECT_TRUE(applies("triton ; platform_system == \"Linux\" and platform_machine == \"x86_64\""));
  EXPECT_TRUE(applies("b ; 'linux' in sys_platform"));
  EXPECT_TRUE(applies("c ; sys.platform == 'linux' and os.name == 'posix'"));  // the legacy dotted names
  EXPECT_FALSE(applies("d ; python_version not in '3.10 3.11'"));
  auto r = Requirement::parse("Flash_Attn[Triton] (>=2.7) ; python_version >= \"3.9\" and extra == 'all'");
  EXPECT_EQ(r.str(), "flash-attn[triton]>=2.7");
  EXPECT_FALSE(r.applies(env));
  EXPECT_TRUE(applies(r.written_name + r.specifiers.str() + " ; " + r.marker, {"all"}));
  EXPECT_TRUE(evaluate_marker("", env));
  EXPECT_FALSE(evaluate_marker("python_version < \"3.10\" or sys_platform == 'win32'", env));
  EXPECT_THROW(evaluate_marker("python_version >", env), ParseError);
  EXPECT_THROW(evaluate_marker("python_version > '3' junk", env), ParseError);
}

namespace {
// Long texts from outside (a Requires-Dist line, a requirements file, --for): std::regex overflowed the
// stack on a 100 KB specifier (SIGSEGV); the grammar now runs on RE2.
TEST(Pep440Robustness, MegabyteTextsAreRejectedNotACrash) {
  const std::string huge(1u << 20, 'a');
  EXPECT_FALSE(SpecifierSet::try_parse(">=1" + huge));
  EXPECT_THROW(SpecifierSet::parse(">=1" + huge), ParseError);
  EXPECT_FALSE(Version::parse("1." + std::string(1u << 20, '1')));
  EXPECT_FALSE(Requirement::try_parse("torch>=1" + huge));
  auto spaced = Requirement::try_parse("torch" + std::string(4000, ' ') + ">=1.0");
  ASSERT_TRUE(spaced);
  EXPECT_EQ(spaced->str(), "torch>=1.0");
  EXPECT_FALSE(evaluate_marker("python_version == '" + huge + "'", MarkerEnv::linux_cpython("3.11.7")));
  // Each parenthesis is a level of the marker reader's recursion: bounded, a ParseError past 64.
  const auto env = MarkerEnv::linux_cpython("3.11.7");
  EXPECT_TRUE(evaluate_marker(std::string(64, '(') + "python_version >= '3'" + std::string(64, ')'), env));
  EXPECT_THROW(evaluate_marker(std::string(100000, '(') + "python_version >= '3'" + std::string(100000, ')'), env),
               ParseError);
}

TEST(Pep440Robustness, WhitespaceIsTheOneTrimAndStdRegexKnew) {
  // \v separated an operator from its version for std::regex's \s; RE2's \s lacks it, so the class is spelt out.
  EXPECT_EQ(SpecifierSet::parse(">=\v1.0").str(), ">=1.0");
  EXPECT_FALSE(Requirement::try_parse("torch >=1.0\nnumpy"));  // two lines are not one requirement
}
}  // namespace
