#pragma once
// Fitting text to the terminal: every line of a command's text output and of --help goes through
// wrap_lines(), so no renderer has to count columns itself. A token is never cut (a path, a URL, an id
// stays whole and copyable) and a command line ("$ pip install ...") is never wrapped: both may be
// longer than the screen, nothing else is.
#include <string>

namespace gpucheck::render {

/// Display columns of `s`: an ANSI escape sequence counts 0, a UTF-8 character 1.
std::size_t display_width(const std::string& s);

/// `text` with every line wider than `width` broken at spaces. A continuation line is indented under
/// the text it continues: after a "| " quote marker, a short "label: ", or the last two-space column
/// gap (table and --help layouts), else two more than the line's own indent. Lines whose text starts
/// with "$ " (a command to copy) are kept whole.
std::string wrap_lines(const std::string& text, int width);

/// `text` with the lines of each paragraph written at column 0 joined by a space, so that wrap_lines
/// breaks prose at the reader's width rather than where the source broke it. Indented lines (examples,
/// tables), blank lines and a line after one ending in ':' (a heading such as "Examples:") stay as they are.
std::string join_prose_lines(const std::string& text);

}  // namespace gpucheck::render
