#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "render/render.h"
#include "render/terminal.h"
#include "render/wrap.h"

namespace gpucheck::render {
namespace {

TEST(Terminal, FailureShowsEvidenceAndFix) {
  Finding r;
  r.id = "device.runtime";
  r.status = Status::kFail;
  r.summary = "broken";
  r.evidence["cudaGetDeviceCount"] = "cudaErrorNoDevice (100)";
  r.add_fix("install the driver");
  std::string line = result_line(r, false);
  EXPECT_NE(line.find("FAIL"), std::string::npos);
  EXPECT_NE(line.find("device.runtime"), std::string::npos);
  std::string details = result_details(r, false);
  EXPECT_NE(details.find("cudaErrorNoDevice (100)"), std::string::npos);
  EXPECT_NE(details.find("1. install the driver"), std::string::npos);
}

TEST(Terminal, QuietPassHasNoDetailsAndColourIsOptional) {
  Finding r;
  r.id = "host.info";
  r.status = Status::kPass;
  r.evidence["os"] = "Debian";
  EXPECT_EQ(result_details(r, false), "");
  EXPECT_NE(result_details(r, true).find("os: Debian"), std::string::npos);
  EXPECT_EQ(result_line(r, false).find('\033'), std::string::npos);
  EXPECT_NE(result_line(r, true).find('\033'), std::string::npos);
}

TEST(Terminal, MultiLineEvidenceIsIndented) {
  Finding r;
  r.id = "a.b";
  r.status = Status::kError;
  r.evidence["stderr_tail"] = "line one\nline two";
  EXPECT_NE(result_details(r, false).find("| line two"), std::string::npos);
}

TEST(Wrap, BreaksAtSpacesUnderTheTextAndNeverCutsATokenOrACommand) {
  const std::string path = "/very/long/path/" + std::string(60, 'x') + "/libcudart.so.12";
  std::string text = "   why: the loader did not find " + path + " in the RPATH or the cache\n"
                     "      $ pip install --no-build-isolation bmtrain==0.2.2 torch==2.4.1 --index-url https://x/y\n"
                     "short line\n";
  std::string out = wrap_lines(text, 40);
  std::istringstream lines(out);
  std::vector<std::string> got;
  for (std::string l; std::getline(lines, l);) got.push_back(l);
  ASSERT_GE(got.size(), 5u) << out;
  EXPECT_EQ(got[0], "   why: the loader did not find");
  EXPECT_EQ(got[1], "     " + path) << "too long for the hanging indent: two past the line's own";
  EXPECT_EQ(got[2], "     in the RPATH or the cache");
  EXPECT_EQ(got[3], "      $ pip install --no-build-isolation bmtrain==0.2.2 torch==2.4.1 --index-url https://x/y");
  EXPECT_EQ(got[4], "short line");
  EXPECT_EQ(wrap_lines("1. one two three four five six seven eight", 24), "1. one two three four\n   five six seven eight");
  // Colour takes no columns: the same line coloured wraps at the same place.
  EXPECT_EQ(display_width("\033[31;1mERROR\033[0m caf\xc3\xa9"), 10u);
  EXPECT_EQ(wrap_lines("\033[31mERROR\033[0m aaaa bbbb cccc dddd", 20), "\033[31mERROR\033[0m aaaa bbbb cccc\n  dddd");
}

TEST(Wrap, ProseBrokenInTheSourceIsJoinedSoItWrapsAtTheReadersWidth) {
  const std::string footer =
      "Each finding has an id and a fix plan of\n"
      "exact commands.\n"
      "\n"
      "Examples:\n"
      "  gpucheck doctor\n"
      "  gpucheck doctor --for torch\n"
      "Exit codes: 0 ok, 2 bad input.\n";
  EXPECT_EQ(join_prose_lines(footer),
            "Each finding has an id and a fix plan of exact commands.\n"
            "\n"
            "Examples:\n"
            "  gpucheck doctor\n"
            "  gpucheck doctor --for torch\n"
            "Exit codes: 0 ok, 2 bad input.\n")
      << "a heading and indented lines stay; a column-0 line after an indented one starts anew";
  EXPECT_EQ(join_prose_lines(""), "");
  EXPECT_EQ(join_prose_lines("one\ntwo"), "one two");
  // Joined, then wrapped: lines fill the width instead of alternating long and short.
  const std::string source = "aaaa bbbb cccc dddd eeee\nffff gggg";
  EXPECT_EQ(wrap_lines(source, 20), "aaaa bbbb cccc dddd\n  eeee\nffff gggg") << "what --help showed before";
  EXPECT_EQ(wrap_lines(join_prose_lines(source), 20), "aaaa bbbb cccc dddd\n  eeee ffff gggg");
}

// A next step that names a command prints it on a "$ " line of its own: at 80 columns a long --python path
// used to wrap the command across two lines, and pasting those ran `gpucheck doctor --python` without it.
TEST(NextStep, ACommandGetsALineOfItsOwnThatWrappingNeverBreaks) {
  const std::string venv = "/root/.cache/gpucheck/test-venvs/bmtrain-full/bin/python";
  model::Report r;
  r.meta.command = "doctor";
  r.meta.command_line = {"/opt/gpucheck/bin/gpucheck", "doctor", "--python", venv};
  Finding f;
  f.id = "install.arch_unbuildable";
  f.status = Status::kFail;
  f.title = "bmtrain would compile architectures that nvcc 13.0 cannot build";
  r.section("findings").findings.push_back(f);
  RenderOptions o;
  o.program = "/opt/gpucheck/bin/gpucheck";
  std::ostringstream out;
  render_text(r, out, o);
  const std::string text = out.str();
  EXPECT_NE(text.find("Next step: read what [install.arch_unbuildable] found above, then check again:\n"
                      "  $ /opt/gpucheck/bin/gpucheck doctor --python " + venv + "\n"),
            std::string::npos)
      << text;
  // A report judged elsewhere: the command is run there, still on its own line.
  r.meta.command_line = {"gpucheck", "doctor", "--from", "node7.json"};
  std::ostringstream there;
  render_text(r, there, o);
  EXPECT_NE(there.str().find("that machine:\n  $ gpucheck doctor\n"), std::string::npos) << there.str();
  // A step without a command stays one line.
  r.meta.command = "diff";
  r.sections.clear();
  std::ostringstream plain;
  render_text(r, plain, o);
  EXPECT_EQ(plain.str().find("  $ "), std::string::npos) << plain.str();
}

TEST(Wrap, TerminalWidthIsColumnsWhenValidElseEighty) {
  const char* saved = std::getenv("COLUMNS");
  std::string keep = saved ? saved : "";
  setenv("COLUMNS", "120", 1);
  EXPECT_EQ(terminal_width(-1), 120);
  setenv("COLUMNS", "30", 1);
  EXPECT_EQ(terminal_width(-1), 40) << "never below 40";
  for (const char* bad : {"abc", "80x", "0", "-5", "1001", ""}) {
    setenv("COLUMNS", bad, 1);
    EXPECT_EQ(terminal_width(-1), 80) << "COLUMNS=" << bad;
  }
  unsetenv("COLUMNS");
  EXPECT_EQ(terminal_width(-1), 80);
  if (saved) setenv("COLUMNS", keep.c_str(), 1);
}

}  // namespace
}  // namespace gpucheck::report
