// The no_std_regex scan must name each of these lines (tests/hardening/CMakeLists.txt).
#include <regex>
int a() { static const std::regex re("x+"); return 0; }
int b(const std::string& s) { std::smatch m; return std::regex_search(s, m, std::regex("y")); }
int c(const std::string& s) { return std::regex_match(s, std::regex("z")); }
// std::regex named in a comment is fine.
