// knowledge/text_pattern.h: RE2 over bytes with std::regex's match/search/iterate shapes, linear and
// without recursion on inputs that overflowed std::regex's stack.
#include <gtest/gtest.h>

#include "knowledge/text_pattern.h"

namespace gpucheck {
namespace {

TEST(TextPattern, MatchIsWholeSearchIsLeftmost) {
  const knowledge::TextPattern digits(R"(([0-9]+)(-rc)?)");
  ASSERT_TRUE(digits.match("123"));
  EXPECT_EQ(digits.match("123")->str(1), "123");
  EXPECT_FALSE(digits.match("123-rc")->matched(0) == false);
  EXPECT_FALSE(digits.match("123 "));
  EXPECT_FALSE(digits.match("123")->matched(2));  // an optional group that took no part
  EXPECT_EQ(digits.match("123")->str(2), "");
  auto m = digits.search("v 12-rc and 34");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->str(0), "12-rc");
  EXPECT_TRUE(m->matched(2));
  EXPECT_FALSE(digits.search("none"));
}

TEST(TextPattern, SearchAllIteratesLikeSregexIterator) {
  const knowledge::TextPattern number(R"([0-9]+\.[0-9]+)");
  auto all = number.search_all("gcc 12.2.0 (Debian 12.2.0-14) 11.4");
  ASSERT_EQ(all.size(), 3u);  // 12.2, 12.2, 11.4: no ".0" nor "0-14" (matches do not overlap)
  EXPECT_EQ(all[0].str(0), "12.2");
  EXPECT_EQ(all.back().str(0), "11.4");
  const knowledge::TextPattern anchored(R"(^x)");
  EXPECT_EQ(anchored.search_all("xxx").size(), 1u);  // ^ is the start of the text, not of each search
  const knowledge::TextPattern empty("y*");
  EXPECT_EQ(empty.search_all("ab").size(), 3u);  // an empty match moves on a byte, and ends
}

TEST(TextPattern, BytesAreBytesAndDotStopsAtNewline) {
  const knowledge::TextPattern any("a(.)c");
  EXPECT_TRUE(any.match("a\xff" "c"));  // invalid UTF-8: one byte, as std::regex<char> saw it
  EXPECT_FALSE(any.match("a\nc"));
  EXPECT_THROW(knowledge::TextPattern("(unclosed"), std::logic_error);
  // [[:space:]] is the whitespace std::regex's \s meant, \v included (RE2's own \s lacks it).
  EXPECT_TRUE(knowledge::TextPattern("a[[:space:]]b").match("a\vb"));
  EXPECT_FALSE(knowledge::TextPattern(R"(a\sb)").match("a\vb"));
}

TEST(TextPattern, TenMegabyteRunsNeitherRecurseNorStall) {
  // std::regex overflowed an 8 MB stack at about 32,000 characters of [^']* (SIGSEGV).
  const knowledge::TextPattern quoted(R"(__version__[\t ]*=[\t ]*'([^']*)')");
  std::string text = "__version__ = '" + std::string(10u << 20, 'x') + "'";
  auto m = quoted.search(text);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->str(1).size(), 10u << 20);
  text.pop_back();  // no closing quote: no match, still linear
  EXPECT_FALSE(quoted.search(text));
}

}  // namespace
}  // namespace gpucheck
