#include <gtest/gtest.h>

#include "knowledge/version.h"
#include "core/errors.h"

using namespace gpucheck::knowledge;

TEST(Version, ParsesTheStackSpellings) {
  auto v = Version::parse("2.0.1+cu118");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->major(), 2);
  EXPECT_EQ(v->minor(), 0);
  EXPECT_EQ(v->part(2), 1);
  EXPECT_EQ(v->local, "cu118");
  EXPECT_EQ(Version::parse("0.2.3.post2")->suffix, ".post2");
  EXPECT_FALSE(Version::parse("cu118"));
  EXPECT_FALSE(Version::parse(""));
}

TEST(Version, ComparesNumerically) {
  EXPECT_LT(compare_versions("11.8", "11.10"), 0);
  EXPECT_EQ(compare_versions("12.1", "12.1.0"), 0);
  EXPECT_GT(compare_versions("530.30.02", "525.60.13"), 0);
  EXPECT_GT(compare_versions("0.2.3.post2", "0.2.3"), 0);
  EXPECT_LT(compare_versions("2.1.0rc1", "2.1.0"), 0);
}

TEST(Version, Specifiers) {
  EXPECT_TRUE(satisfies("0.2.2", "<=0.2.2"));
  EXPECT_FALSE(satisfies("0.2.3.post2", "<=0.2.2"));
  EXPECT_TRUE(satisfies("0.2.3.post2", ">=0.2.3"));
  EXPECT_TRUE(satisfies("2.0.1+cu118", ">=1.10,<2.1"));
  EXPECT_FALSE(satisfies("2.1.0", ">=1.10,<2.1"));
  EXPECT_TRUE(satisfies("2.0.1", "==2.0.*"));
  EXPECT_FALSE(satisfies("2.1.1", "==2.0.*"));
  EXPECT_TRUE(satisfies("1.0", ""));
  // PEP 440, as pep440.h decides it: <V excludes V's pre-releases, >V its post-releases; ~= is read.
  EXPECT_FALSE(satisfies("2.1.0rc1", ">=1.10,<2.1"));
  EXPECT_TRUE(satisfies("2.6.0.dev20241112+cu124", ">=2.5"));
  EXPECT_FALSE(satisfies("0.2.3.post2", ">0.2.3"));
  EXPECT_TRUE(satisfies("1.5", "~=1.0"));
  EXPECT_FALSE(satisfies("2.0", "~=1.0"));
  // A version PEP 440 cannot read is compared numerically; a specifier neither reads is bad input.
  EXPECT_TRUE(satisfies("11.4.0-1ubuntu1~22.04", ">=11.3"));
  EXPECT_FALSE(satisfies("11.4.0-1ubuntu1~22.04", ">=11.5"));
  EXPECT_THROW(satisfies("11.4.0-1ubuntu1", "~=11"), gpucheck::InputError);
  EXPECT_THROW(satisfies("1.0", ">>1"), gpucheck::InputError);
  EXPECT_THROW(satisfies("x", ">=1"), gpucheck::InputError);
}

TEST(Version, CudaSpellings) {
  EXPECT_EQ(cuda_int_to_string(12040), "12.4");
  EXPECT_EQ(cuda_int_to_string(11080), "11.8");
  EXPECT_EQ(cuda_int_to_string(0), "");
  EXPECT_EQ(gpucheck::cuda_string_to_int("12.4"), 12040);
  EXPECT_EQ(gpucheck::cuda_string_to_int("12.2.1"), 12020);
  EXPECT_EQ(gpucheck::cuda_string_to_int(cuda_int_to_string(13000)), 13000);
  for (const char* bad : {"12", "", "x.1", "12.", "100.0", "12.1e", "9999999.1"})
    EXPECT_EQ(gpucheck::cuda_string_to_int(bad), 0) << bad;
  EXPECT_EQ(cuda_tag_to_version("cu118"), "11.8");
  EXPECT_EQ(cuda_tag_to_version("cu130"), "13.0");
  EXPECT_EQ(cuda_tag_to_version("cpu"), "");
}
