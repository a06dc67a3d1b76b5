// core/json_input.h: documents from outside are refused when they nest deeper than kMaxJsonDepth, before
// nlohmann's recursive copy, comparison or dump can overflow the stack on them.
#include <gtest/gtest.h>

#include "core/errors.h"
#include "core/json_input.h"

namespace gpucheck {
namespace {

std::string nested(std::size_t levels, char open = '[', char close = ']') {
  return std::string(levels, open) + std::string(levels, close);
}

TEST(JsonInput, DepthIsCountedOutsideStringsOnly) {
  EXPECT_FALSE(json_too_deep(nested(kMaxJsonDepth)));
  EXPECT_TRUE(json_too_deep(nested(kMaxJsonDepth + 1)));
  std::string objects;
  for (std::size_t i = 0; i < kMaxJsonDepth + 1; ++i) objects += "{\"k\":";
  EXPECT_TRUE(json_too_deep(objects + "1" + std::string(kMaxJsonDepth + 1, '}')));
  // Brackets inside strings, escaped quotes included, are text.
  EXPECT_FALSE(json_too_deep("{\"k\":\"" + std::string(100000, '[') + "\\\"" + std::string(1000, '{') + "\"}"));
  EXPECT_FALSE(json_too_deep(std::string(100000, ']')));  // closing brackets alone never go below zero
}

TEST(JsonInput, TooDeepIsBadInputAndDiscardedNeverACrash) {
  const std::string deep = "{\"x\":" + nested(100000) + "}";
  try {
    parse_json_input(deep, "f.json");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "f.json is not valid JSON (nested deeper than 256 levels)");
  }
  EXPECT_TRUE(parse_json_or_discarded(deep).is_discarded());
  auto ok = parse_json_input("{\"x\":" + nested(kMaxJsonDepth - 1) + "}", "f.json");
  nlohmann::json copy = ok;  // what overflowed the stack at 100,000 levels
  EXPECT_EQ(copy, ok);
  EXPECT_THROW(parse_json_input("{\"x\":", "f.json"), InputError);
  EXPECT_THROW(parse_json_input("1e99999", "f.json"), InputError);
  EXPECT_TRUE(parse_json_or_discarded("[1,").is_discarded());
}

}  // namespace
}  // namespace gpucheck
