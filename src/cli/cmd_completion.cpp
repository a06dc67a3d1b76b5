// gpucheck completion bash|zsh|fish and gpucheck man: scripts and the man page, generated from the
// command definitions every subcommand declared (cli_model.h), never from a hand-written list.
#include "cli/cli_model.h"
#include "cli/command.h"
#include "cli/completion.h"
#include "cli/man_page.h"
#include "gpucheck/build_info.h"
#include "model/tool_details.h"

namespace gpucheck::cli {
namespace {

Runner setup_completion(CLI::App& sub, GlobalOptions& g) {
  auto shell = std::make_shared<std::string>();
  sub.add_option("SHELL", *shell, "The shell to complete for")->required()->check(CLI::IsMember({"bash", "zsh", "fish"}));
  sub.footer(R"(Prints a completion script for gpucheck's commands, options, their choices, file names and
probe ids. --json prints the report instead (the script under details.script).

Examples:
  source <(gpucheck completion bash)
  gpucheck completion bash > ~/.local/share/bash-completion/completions/gpucheck
  gpucheck completion zsh > "${fpath[1]}/_gpucheck"
  gpucheck completion fish > ~/.config/fish/completions/gpucheck.fish)");
  return [shell, &sub, &g] {
    model::Report rep = new_report("completion", g);
    rep.details = model::to_json(model::CompletionDetails{*shell, completion_script(model_of(root_of(sub)), *shell)});
    return emit_report(rep, g);
  };
}

Runner setup_man(CLI::App& sub, GlobalOptions& g) {
  sub.footer(R"(Prints the gpucheck(1) man page (roff) made from the same definitions as --help; the install
tree has it as share/man/man1/gpucheck.1.

Examples:
  gpucheck man | man -l -
  gpucheck man > ~/.local/share/man/man1/gpucheck.1)");
  return [&sub, &g] {
    model::Report rep = new_report("man", g);
    rep.details = model::to_json(model::ManDetails{"roff", man_page(model_of(root_of(sub)), build::kVersion)});
    return emit_report(rep, g);
  };
}

Registration completion_reg({"completion", "Print a shell completion script (bash, zsh or fish)", 95, &setup_completion});
Registration man_reg({"man", "Print the man page (roff)", 96, &setup_man});

}  // namespace
}  // namespace gpucheck::cli
