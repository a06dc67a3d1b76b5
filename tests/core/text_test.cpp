// Text that came from outside: what reaches a terminal, and what a JSON document holds.
#include <gtest/gtest.h>

#include "core/text.h"

namespace gpucheck {
namespace {

TEST(TerminalSafe, ControlBytesAreShownNotObeyed) {
  EXPECT_EQ(terminal_safe("libfoo.so\x1b[2J\x1b]0;pwned\x07"), "libfoo.so\\x1b[2J\\x1b]0;pwned\\x07");
  EXPECT_EQ(terminal_safe("line\roverwrite"), "line\\x0doverwrite");
  EXPECT_EQ(terminal_safe("del\x7f"), "del\\x7f");
  EXPECT_EQ(terminal_safe("c1 \xc2\x9b" "31m"), "c1 \\xc2\\x9b31m");  // the one-byte CSI
  EXPECT_EQ(terminal_safe("two\nlines\tand a tab"), "two\nlines\tand a tab");
  EXPECT_EQ(terminal_safe("Gr\xc3\xbc\xc3\x9f" "e \xe4\xb8\xad \xf0\x9f\x98\x80"), "Gr\xc3\xbc\xc3\x9f" "e \xe4\xb8\xad \xf0\x9f\x98\x80");
}

TEST(TerminalSafe, BytesThatAreNotUtf8AreShownAsHex) {
  EXPECT_EQ(terminal_safe("\xff"), "\\xff");
  EXPECT_EQ(terminal_safe("\xc0\xaf"), "\\xc0\\xaf");          // overlong '/'
  EXPECT_EQ(terminal_safe("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  EXPECT_EQ(terminal_safe("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  EXPECT_EQ(terminal_safe("cut \xe4\xb8"), "cut \\xe4\\xb8");   // truncated sequence at the end
}

TEST(JsonText, InvalidUtf8BecomesReplacementCharacterInsteadOfThrowing) {
  nlohmann::json j = {{"needed", std::string("lib\xff.so")}};
  EXPECT_THROW((void)j.dump(), nlohmann::json::type_error);  // what used to end in "internal error"
  std::string text = json_text(j);
  EXPECT_EQ(nlohmann::json::parse(text)["needed"], "lib\xef\xbf\xbd.so");
  EXPECT_EQ(json_text(nlohmann::json{{"esc", "\x1b"}}), R"({"esc":"\u001b"})");
}

}  // namespace
}  // namespace gpucheck
