#include "report/explain_report.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "checks/explain/explainer.h"
#include "checks/explain/fix_facts.h"
#include "checks/explain/knowledge_facts.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/paths.h"

namespace gpucheck::report {
namespace {

nlohmann::json input_json(const explain::InputSummary& in) {
  return {{"name", in.name},
          {"bytes", in.bytes},
          {"lines", in.lines},
          {"long_lines", in.long_lines},
          {"invalid_utf8_bytes", in.invalid_utf8_bytes},
          {"control_bytes", in.control_bytes},
          {"binary", in.binary}};
}

bool names_an_inventory(const InventorySource& s) { return !s.from.empty() || !s.root.empty() || !s.pythons.empty(); }

}  // namespace

Report explain_report(const ExplainRequest& req, Report rep) {
  auto signatures =
      explain::load_signatures(req.signatures_dir.empty() ? data_path("signatures") : req.signatures_dir);

  std::optional<inventory::Inventory> inv;
  std::vector<std::string> notes;
  if (names_an_inventory(req.source) || !req.no_env) {
    inv = load_inventory(req.source);
    if (!req.source.from.empty()) notes.push_back("environment: " + req.source.from);
    else if (!req.source.root.empty()) notes.push_back("environment: the stack under " + req.source.root);
    else notes.push_back("environment: this machine (use --no-env to explain the log alone)");
  }
  std::string kb_note;
  auto knowledge = explain::load_knowledge_facts(kb_note, "", inv ? &*inv : nullptr);
  if (!kb_note.empty()) notes.push_back(kb_note);
  auto facts = explain::make_fact_call(inv ? &*inv : nullptr, knowledge);

  explain::Explanation ex;
  if (req.log == "-") {
    ex = explain::explain_stream(std::cin, "-", signatures, facts);
  } else {
    std::error_code ec;
    if (std::filesystem::is_directory(req.log, ec)) throw InputError(req.log + " is a directory, not a log file");
    check_input_file(req.log);  // a device (/dev/zero) would never end
    std::ifstream in(req.log, std::ios::binary);
    if (!in) throw InputError("cannot read " + req.log + ": " + std::strerror(errno));
    ex = explain::explain_stream(in, req.log, signatures, facts);
  }

  rep.section("causes").findings = ex.findings();
  rep.details = {{"input", input_json(ex.input)}};
  rep.notes = ex.notes;
  rep.notes.insert(rep.notes.end(), notes.begin(), notes.end());
  if (inv) rep.inventory = *inv;
  return rep;
}

}  // namespace gpucheck::report
