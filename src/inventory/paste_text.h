#pragma once
// The small text helpers every paste reader uses (paste_formats.cpp, paste_tool_outputs.cpp): a pasted
// line without its quoting, its words, the version-looking word after a key.
#include <string>
#include <string_view>
#include <vector>

namespace gpucheck::inventory::paste_text {

/// A pasted line without quoting: markdown quote marks, code-fence backticks, CR, surrounding blanks.
std::string clean(std::string_view raw);
/// The text's lines, each clean().
std::vector<std::string> lines_of(std::string_view text);
/// The first word of `s` (ends at a blank, ',' or a parenthesis).
std::string first_word(const std::string& s);
/// The blank-separated words of a table row ("torch    2.1.0+cu121   pypi_0   pypi").
std::vector<std::string> words_of(const std::string& line);
/// Starts with a digit: what a reader may take as a version.
bool is_version(const std::string& s);
/// The first word after `key` in `line`, "" when key is absent.
std::string after(const std::string& line, const std::string& key);
/// A distribution's name as pip and conda print it: letters, digits, '-', '_' and '.', starting alphanumeric.
bool distribution_name(const std::string& n);
/// PEP 503's normal form as the readers key packages: lower case, '_' and '.' as '-'.
std::string normalized(std::string name);
/// A small non-negative number written in digits only (at most 6 digits), so odd pasted text never reaches
/// std::stoi's exceptions; false otherwise.
bool small_number(const std::string& s, int& out);
/// "Cuda compilation tools, release 10.1, V10.1.243" / "CUDA 11.3" / "Build cuda_11.3.r11.3/..." -> "10.1".
std::string nvcc_release(const std::string& v);

}  // namespace gpucheck::inventory::paste_text
