#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/command.h"
#include "core/errors.h"
#include "core/paths.h"
#include "checks/explain/explainer.h"
#include "checks/explain/fix_facts.h"
#include "checks/explain/knowledge_facts.h"
#include "inventory/collect.h"
#include "inventory/model.h"

namespace gpucheck::cli {
namespace {

struct ExplainArgs {
  std::string log;
  std::string env_file;
  bool no_env = false;
  std::string signatures_dir;
};

int explain_command(const ExplainArgs& a, const GlobalOptions& g) {
  auto signatures = explain::load_signatures(a.signatures_dir.empty() ? data_path("signatures") : a.signatures_dir);

  std::optional<inventory::Inventory> inv;
  std::vector<std::string> notes;
  if (!a.env_file.empty()) {
    inv = inventory::load_inventory(a.env_file);
    notes.push_back("environment: " + a.env_file);
  } else if (!a.no_env) {
    inventory::CollectOptions co;
    inv = inventory::collect(co);
    notes.push_back("environment: this machine (use --no-env to explain the log alone)");
  }
  std::string kb_note;
  auto knowledge = explain::load_knowledge_facts(kb_note);
  if (!kb_note.empty()) notes.push_back(kb_note);
  auto facts = explain::make_fact_call(inv ? &*inv : nullptr, knowledge);

  explain::Explanation ex;
  if (a.log == "-") {
    ex = explain::explain_stream(std::cin, "-", signatures, facts);
  } else {
    std::error_code ec;
    if (std::filesystem::is_directory(a.log, ec)) throw InputError(a.log + " is a directory, not a log file");
    std::ifstream in(a.log, std::ios::binary);
    if (!in) throw InputError("cannot read " + a.log + ": " + std::strerror(errno));
    ex = explain::explain_stream(in, a.log, signatures, facts);
  }
  ex.notes.insert(ex.notes.end(), notes.begin(), notes.end());

  if (g.json) emit_document(g, explain::to_json(ex).dump(2) + "\n");
  else {
    if (!g.out.empty()) emit_document(g, explain::to_json(ex).dump(2) + "\n");
    if (!g.quiet || ex.identified()) std::cout << explain::render_text(ex, use_color(g, 1));
  }
  return ex.identified() ? kExitOk : kExitFailed;
}

Runner setup_explain(CLI::App& sub, GlobalOptions& g) {
  auto a = std::make_shared<ExplainArgs>();
  sub.add_option("log", a->log, "The log file, or - for stdin")->required();
  sub.add_option("--env", a->env_file, "Use this inventory (from `gpucheck env --json`) for the fixes");
  sub.add_flag("--no-env", a->no_env, "Do not inspect this machine; explain the log alone");
  sub.add_option("--signatures", a->signatures_dir, "Signature directory (default: the installed data/signatures)");
  sub.footer(R"(Names each failure cause found in a pasted log (pip build output, import errors, CUDA runtime
errors), shows the evidence lines with their numbers, explains it and gives the commands that fix it.
Nothing in the log is executed. Exit: 0 a cause was identified, 1 none (unknown), 2 bad input.

Examples:
  gpucheck explain pip-install.log
  pip install bmtrain 2>&1 | gpucheck explain -
  gpucheck explain build.log --env env.json --json)");
  return [a, &g] { return explain_command(*a, g); };
}

Registration reg({"explain", "Explain a failure log: cause, evidence, fix", 40, &setup_explain});

}  // namespace
}  // namespace gpucheck::cli
