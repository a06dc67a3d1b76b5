// `gpucheck completion bash|zsh|fish` and `gpucheck man`, tried in the real programs: bash's own
// completion machinery (complete -p, the function called as readline would), zsh and fish parsing the
// scripts (and fish completing), and man/groff rendering the page. What they must offer comes from the
// CLI itself (`--help`), so a renamed option shows up here.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "cli_support.h"
#include "core/files.h"

namespace gpucheck::test {
namespace {

namespace fs = std::filesystem;

std::string script(const std::string& shell) {
  auto r = gpucheck({"completion", shell});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

// What bash offers after `words` (the last one being completed), as readline would ask.
std::string bash_completes(const std::vector<std::string>& words) {
  const fs::path file = fs::temp_directory_path() / ("gpucheck-completion-" + std::to_string(getpid()) + ".bash");
  std::ofstream(file) << script("bash");
  std::string array = "'" + gpucheck_binary() + "'";
  for (const auto& w : words) array += " '" + w + "'";
  auto r = run_subprocess({"bash", "--norc", "--noprofile", "-c",
                           "source \"$1\" && COMP_WORDS=(" + array + ") && COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) && "
                           "_gpucheck && printf '%s\\n' \"${COMPREPLY[@]}\"",
                           "bash", file.string()});
  fs::remove(file);
  EXPECT_TRUE(r.ok()) << r.describe() << r.err;
  return r.out;
}

TEST(Completion, BashRegistersAndCompletesCommandsOptionsChoicesAndProbeIds) {
  const fs::path file = fs::temp_directory_path() / ("gpucheck-complete-p-" + std::to_string(getpid()));
  std::ofstream(file) << script("bash");
  auto p = run_subprocess({"bash", "--norc", "--noprofile", "-c", "source \"$1\" && complete -p gpucheck", "bash", file.string()});
  fs::remove(file);
  ASSERT_TRUE(p.ok()) << p.err;
  EXPECT_EQ(p.out, "complete -o filenames -F _gpucheck gpucheck\n");

  EXPECT_EQ(bash_completes({"ru"}), "run\n");
  EXPECT_NE(("\n" + bash_completes({"d"})).find("\ndoctor\n"), std::string::npos);
  EXPECT_EQ(bash_completes({"run", "--lev"}), "--level\n");
  EXPECT_EQ(bash_completes({"run", "--level", ""}), "quick\nstandard\nlong\n");
  EXPECT_EQ(bash_completes({"--format", "ju"}), "junit\n");  // a global option before the command
  EXPECT_EQ(bash_completes({"run", "--only", "host.i"}), "host.info\n");  // ids from `gpucheck list`
  EXPECT_EQ(bash_completes({"run", "--skip", "host.info,host.i"}), "host.info,host.info\n");
  EXPECT_EQ(bash_completes({"fleet", "mer"}), "merge\n");
  EXPECT_EQ(bash_completes({"completion", "fi"}), "fish\n");
  // Every option `gpucheck doctor --help` lists is offered.
  auto help = gpucheck({"doctor", "--help"});
  const std::string offered = bash_completes({"doctor", "--"});
  std::istringstream lines(help.out);
  int seen = 0;
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("  --", 0) == 0) {
      std::string name = line.substr(2, line.find_first_of(" ,", 2) - 2);
      EXPECT_NE(("\n" + offered).find("\n" + name + "\n"), std::string::npos) << name;
      ++seen;
    }
  EXPECT_GE(seen, 5);
}

TEST(Completion, ZshAndFishLoadTheirScripts) {
  for (const std::string shell : {"zsh", "fish"}) {
    SCOPED_TRACE(shell);
    if (find_in_path(shell).empty()) {
      ADD_FAILURE() << shell << " is not installed (scripts/packages.txt lists it)";
      continue;
    }
    const fs::path file = fs::temp_directory_path() / ("gpucheck-completion-" + std::to_string(getpid()) + "." + shell);
    std::ofstream(file) << script(shell);
    auto syntax = run_subprocess({shell, "-n", file.string()});
    EXPECT_TRUE(syntax.ok()) << syntax.describe() << syntax.out << syntax.err;
    fs::remove(file);
  }
  if (find_in_path("fish").empty()) return;
  // fish completes from the script itself: `complete -C` answers as the shell would.
  const fs::path file = fs::temp_directory_path() / ("gpucheck-completion-" + std::to_string(getpid()) + ".fish");
  std::ofstream(file) << script("fish");
  SubprocessOptions o;
  o.set_env["PATH"] = std::string(GPUCHECK_STAGE_BIN) + ":" + (getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
  auto r = run_subprocess({"fish", "--no-config", "-c",
                           "source $argv[1]; complete -C 'gpucheck run --level '; complete -C 'gpucheck run --only host.i'; "
                           "complete -C 'gpucheck run --skip host.info,host.i'",
                           file.string()}, o);
  fs::remove(file);
  ASSERT_TRUE(r.ok()) << r.describe() << r.err;
  std::string words;  // each candidate without its description (after a tab), in fish's order
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) words += line.substr(0, line.find('\t')) + " ";
  // After a comma the ids already typed are kept (issue 35: completion stopped at the comma).
  EXPECT_EQ(words, "long quick standard host.info host.info,host.info ") << r.out;
}

TEST(ManPage, RendersWithManAndNamesEveryCommand) {
  auto page = gpucheck({"man"});
  ASSERT_EQ(page.exit_code, 0) << page.err;
  EXPECT_EQ(page.out.rfind(".\\\" gpucheck(1)", 0), 0u) << page.out.substr(0, 200);
  const fs::path file = fs::temp_directory_path() / ("gpucheck-" + std::to_string(getpid()) + ".1");
  std::ofstream(file) << page.out;
  SubprocessOptions o;
  o.set_env = {{"MANWIDTH", "80"}, {"MANPAGER", "cat"}, {"PAGER", "cat"}};
  auto man = run_subprocess({"man", "-l", file.string()}, o);
  // groff's warnings (-ww) name any roff the page gets wrong.
  auto groff = run_subprocess({"groff", "-man", "-Tutf8", "-ww", "-z", file.string()});
  auto lexgrog = run_subprocess({"lexgrog", file.string()});
  fs::remove(file);
  ASSERT_TRUE(man.ok()) << man.describe() << man.err;
  EXPECT_TRUE(groff.ok() && groff.err.empty()) << groff.describe() << groff.err;
  EXPECT_NE(lexgrog.out.find("gpucheck - does this GPU stack really work"), std::string::npos) << lexgrog.out << lexgrog.err;
  for (const char* c : {"run", "doctor", "explain", "env", "abi", "completion", "man"})
    EXPECT_NE(man.out.find(std::string("gpucheck ") + c), std::string::npos) << c;
  EXPECT_NE(man.out.find("--level"), std::string::npos);
  EXPECT_NE(man.out.find("Exit codes"), std::string::npos);
  // Filled, not no-fill: at MANWIDTH=80 no rendered line runs past 80 columns (UTF-8 counted as characters).
  std::istringstream rendered(man.out);
  std::size_t longest = 0;
  for (std::string line; std::getline(rendered, line);) {
    std::size_t columns = 0;
    for (unsigned char c : line) columns += (c & 0xC0) != 0x80;
    EXPECT_LE(columns, 80u) << line;
    longest = std::max(longest, columns);
  }
  EXPECT_GE(longest, 60u) << "the page is filled to the width, not left in short lines";
}

}  // namespace
}  // namespace gpucheck::test
