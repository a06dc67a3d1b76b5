#pragma once
// gpucheck's own one-line wording for CLI11's parse errors ("--for: 1 required TEXT missing" reads as a
// library talking): what is missing or extra, in the words of the command that was typed.
#include <string>

namespace gpucheck::cli {

/// `what` is CLI::ParseError::what(); `command` the subcommand typed ("" when none). Returns the message
/// without the "gpucheck: " prefix and without the help pointer; unknown shapes pass through unchanged.
std::string plain_parse_error(const std::string& what, const std::string& command);

}  // namespace gpucheck::cli
