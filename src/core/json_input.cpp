#include "core/json_input.h"

#include "core/errors.h"

namespace gpucheck {

bool json_too_deep(std::string_view text) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // the escaped character cannot end the string
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

nlohmann::json parse_json_or_discarded(std::string_view text) {
  if (json_too_deep(text)) return nlohmann::json(nlohmann::json::value_t::discarded);
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

nlohmann::json parse_json_input(std::string_view text, const std::string& what) {
  if (json_too_deep(text))
    throw InputError(what + " is not valid JSON (nested deeper than " + std::to_string(kMaxJsonDepth) + " levels)");
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(what + " is not valid JSON (byte " + std::to_string(e.byte) + ")");
  } catch (const nlohmann::json::exception&) {  // out_of_range.406: a number no C++ type holds
    throw InputError(what + " is not valid JSON (a number out of range)");
  }
}

}  // namespace gpucheck
