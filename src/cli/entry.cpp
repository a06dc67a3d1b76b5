// The command line: parses it with CLI11 and hands over to the registered subcommand (cli/command.h).
// main() (cli/main.cpp) only sets up the process; the fuzz target of the parser calls this with
// Stage::parse, so nothing here may end the process (no exit(): CLI11's app.exit() only prints).
#include "cli/entry.h"

#include <algorithm>
#include <iostream>
#include <optional>
#include <string>

#include "cli/command.h"
#include "cli/parse_errors.h"
#include "cli/path_option.h"
#include "core/errors.h"
#include "core/text.h"
#include "gpucheck/build_info.h"
#include "render/render.h"
#include "render/wrap.h"

namespace {

const char* kFooter = R"(Examples:
  gpucheck run                         run the standard suite on this machine, write a report
  gpucheck run --level quick --strict  node acceptance: a skipped GPU probe is a failure
  gpucheck list                        the probes this build has
  gpucheck <command> --help            options of one command

Exit codes:
  0  no failure            1  a check failed (with --strict: or was skipped)
  2  usage or input error  3  a probe errored (crash, timeout, bad output): no verdict)";

// The first word that is neither an option nor an option's value ("" when none).
std::string first_word_typed(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--format" || arg == "--out" || arg == "--color") { ++i; continue; }
    if (!arg.empty() && arg[0] == '-') continue;
    return arg;
  }
  return "";
}

// That word, when it names no command.
template <class Commands>
std::optional<std::string> unknown_command(int argc, char** argv, const Commands& cmds) {
  std::string word = first_word_typed(argc, argv);
  if (word.empty()) return std::nullopt;
  for (auto& c : cmds)
    if (c.name == word) return std::nullopt;
  return word;
}

// The commands whose options are declared: all of them, or only the one typed. Declaring every command's
// options cost about a million instructions per run (a tenth of `abi` on one library); the others are listed
// by name and description, which is all `--help` shows of them. `completion` and `man` read every command's
// options, so they get all.
template <class Commands>
std::string only_command_to_declare(int argc, char** argv, const Commands& cmds) {
  std::string word = first_word_typed(argc, argv);
  if (word == "completion" || word == "man") return "";
  for (auto& c : cmds)
    if (c.name == word) return word;
  return "";
}

// The command typed (the first word that names one), "" when none: its --help is where the fix is.
template <class Commands>
std::string typed_command(int argc, char** argv, const Commands& cmds) {
  for (int i = 1; i < argc; ++i)
    for (auto& c : cmds)
      if (c.name == argv[i]) return c.name;
  return "";
}

template <class Commands>
std::string did_you_mean(const std::string& typo, const Commands& cmds) {
  std::string best;
  std::size_t best_distance = 3;  // farther than two edits is another word, not a typo
  for (auto& c : cmds) {
    std::size_t d = gpucheck::edit_distance(typo, c.name);
    if (d < best_distance) best_distance = d, best = c.name;
  }
  return best.empty() ? "" : ", did you mean '" + best + "'?";
}

}  // namespace

namespace gpucheck::cli {

int run_command_line(int argc, char** argv, Stage until) {
  using gpucheck::cli::GlobalOptions;
  GlobalOptions global;
  global.argv.assign(argv, argv + argc);

  CLI::App app{"gpucheck: does this GPU stack really work, and if not, what exactly fixes it?", "gpucheck"};
  app.footer(gpucheck::render::join_prose_lines(kFooter));
  app.require_subcommand(1);
  app.set_version_flag("-V,--version", gpucheck::build::kVersion);
  app.add_flag("--json", global.json, "The JSON document (reports/schema/report.schema.json); same as --format json");
  app.add_flag("--html", global.html, "One self-contained HTML page (verdict, fixes, charts; no script, loads nothing); "
               "same as --format html, best with --out FILE.html");
  app.add_option("--format", global.format,
                 "Output format: text, json, markdown (to paste into an issue), junit (CI test results), prom "
                 "(Prometheus textfile collector) or html (a page to read or attach)")
      ->check(CLI::IsMember({"text", "json", "markdown", "md", "junit", "prom", "prometheus", "html"}));
  CLI::Option* out_option = app.add_option("--out", global.out, "Write the document, in the selected format, to FILE (atomically) instead of stdout")
      ->type_name("FILE");
  app.add_flag("-q,--quiet", global.quiet, "Only errors and the final verdict");
  app.add_flag("-v,--verbose", global.verbose, "More detail: evidence, child output tails");
  app.add_option("--color", global.color, "Colour output: auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));

  auto& cmds = gpucheck::cli::commands();
  std::sort(cmds.begin(), cmds.end(), [](auto& a, auto& b) { return a.order < b.order; });
  gpucheck::cli::Runner selected;
  const std::string only = only_command_to_declare(argc, argv, cmds);
  for (auto& c : cmds) {
    CLI::App* sub = app.add_subcommand(c.name, c.description);
    if (!only.empty() && c.name != only) continue;
    sub->fallthrough();  // global options are accepted after the subcommand name too
    auto runner = c.setup(*sub, global);
    sub->footer(gpucheck::render::join_prose_lines(sub->get_footer()));  // footers are broken by hand in the source
    sub->callback([&selected, runner] { selected = runner; });
  }
  gpucheck::cli::validate_path_options(app);  // every FILE/DIR/PATH value: non-empty, one line, exit 2

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << gpucheck::render::wrap_lines(app.help(), gpucheck::render::terminal_width(1));
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << gpucheck::render::wrap_lines(app.help("", CLI::AppFormatMode::All), gpucheck::render::terminal_width(1));
    return 0;
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (auto typo = unknown_command(argc, argv, cmds)) {
      std::cerr << "gpucheck: unknown command '" << gpucheck::terminal_safe(*typo) << "'"
                << did_you_mean(*typo, cmds) << " (see gpucheck --help)\n";
      return gpucheck::kExitUsage;
    }
    std::string command = typed_command(argc, argv, cmds);
    std::cerr << "gpucheck: " << gpucheck::terminal_safe(gpucheck::cli::plain_parse_error(e.what(), command))
              << " (see gpucheck " << (command.empty() ? "" : command + " ") << "--help)\n";
    return gpucheck::kExitUsage;
  }
  if (out_option->count() > 0 && global.out.empty()) {
    std::cerr << "gpucheck: --out: the file name is empty\n";  // never "write to the current directory"
    return gpucheck::kExitUsage;
  }
  if (global.json && global.html) {
    std::cerr << "gpucheck: --json and --html exclude each other (one document per --out)\n";
    return gpucheck::kExitUsage;
  }
  if (global.quiet && global.verbose) {
    std::cerr << "gpucheck: --quiet and --verbose exclude each other\n";
    return gpucheck::kExitUsage;
  }
  if (until == Stage::parse) return selected ? gpucheck::kExitOk : gpucheck::kExitUsage;
  try {
    return selected ? selected() : gpucheck::kExitUsage;
  } catch (const gpucheck::InputError& e) {
    std::cerr << "gpucheck: " << gpucheck::terminal_safe(e.what()) << "\n";
    return gpucheck::kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "gpucheck: internal error: " << gpucheck::terminal_safe(e.what()) << "\n";
    return gpucheck::kExitNoVerdict;
  }
}

}  // namespace gpucheck::cli
