#include "commands/explain.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>

#include <unistd.h>

#include "checks/explain/explainer.h"
#include "checks/explain/fix_facts.h"
#include "checks/explain/knowledge_facts.h"
#include "checks/explain/log_environment.h"
#include "checks/explain/similar_reports.h"
#include "core/text.h"
#include "core/verdict.h"
#include "inventory/collect_env_text.h"
#include "inventory/model.h"
#include "inventory/pasted_report.h"
#include "knowledge/knowledge_base.h"
#include "report/explain_report.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/paths.h"
#include "model/explain_details.h"

namespace gpucheck::commands {
namespace {

using commands::InventorySource;
using commands::load_inventory;

bool names_an_inventory(const InventorySource& s) { return !s.from.empty() || !s.root.empty() || !s.pythons.empty(); }


// The inventory the fixes may quote, gathered only when a fix asks one of its facts, and then only what
// that fact needs: the log alone decides the verdict. The Python probe (the slow part: it imports torch)
// runs only for env_torch*/env_python*; the rest is a file scan without library loading.
class LazyInventory {
 public:
  LazyInventory(const InventorySource& source, bool enabled) : source_(source), enabled_(enabled) {}
  void set(inventory::Inventory inv, std::string what) {
    inv_ = std::move(inv);
    with_python_ = true;
    what_ = std::move(what);
    fixed_ = true;
  }
  const inventory::Inventory* get(const std::string& fact) {
    if (fixed_) return &*inv_;
    if (!enabled_) return nullptr;
    // The planner's kb_* facts plan for this machine's interpreter and torch: they need the probe too.
    const bool python = starts_with(fact, "env_torch") || starts_with(fact, "env_python") ||
                        explain::knowledge_fact_needs_machine(fact);
    if (!inv_ || (python && !with_python_)) {
      inventory::CollectOptions o;
      o.python = python;
      o.read_library_versions = false;  // no fact here needs a library's loaded version
      inv_ = load_inventory(source_, o);
      with_python_ = python;
      ++collections_;
    }
    asked_.insert(fact);
    return &*inv_;
  }
  const std::optional<inventory::Inventory>& inventory() const { return inv_; }
  /// A fact function's name (env_toolkit_root, kb_plan_build) in the user's words: what of the machine it read.
  static std::string plain_fact(const std::string& fact) {
    if (starts_with(fact, "env_python")) return "the Python";
    if (starts_with(fact, "env_torch")) return "torch";
    if (starts_with(fact, "env_toolkit") || fact == "env_nvcc_cuda") return "the CUDA toolkits";
    if (starts_with(fact, "env_driver")) return "the driver";
    if (fact == "env_gpu_cc") return "the GPUs";
    if (fact == "env_gcc") return "the compiler";
    if (starts_with(fact, "env_glibc")) return "glibc";
    if (fact == "kb_torch_install") return "the torch to install";
    if (starts_with(fact, "kb_plan")) return "an install plan";
    return "the knowledge base";
  }
  /// Changes whenever get() re-collects, so what was derived from the inventory can be rebuilt.
  int generation() const { return collections_; }
  std::string note() const {
    if (fixed_) return "environment: " + what_;
    if (!enabled_) return "";
    if (!inv_) return "environment: not needed (no fix asked this machine's facts; the log alone decided)";
    std::vector<std::string> words;
    for (const auto& f : asked_) {
      std::string w = plain_fact(f);
      if (std::find(words.begin(), words.end(), w) == words.end()) words.push_back(w);
    }
    return "environment: " + std::string(source_.root.empty() ? "this machine" : "the stack under " + source_.root) +
           ", read for the fixes: " + join(words, ", ") + (with_python_ ? "" : " (no Python probe)") +
           " (use --no-env to explain the log alone)";
  }

 private:
  const InventorySource& source_;
  bool enabled_;
  bool fixed_ = false, with_python_ = false;
  int collections_ = 0;
  std::optional<inventory::Inventory> inv_;
  std::set<std::string> asked_;
  std::string what_;
};

constexpr std::size_t kEnvReportBytes = 1u << 20;  // where a pasted collect_env report is looked for

std::string read_head(std::istream& in) {
  std::string head(kEnvReportBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  return head;
}

}  // namespace

model::Report explain(const ExplainRequest& req, model::Report rep) {
  auto signatures =
      explain::load_signatures(req.signatures_dir.empty() ? data_path("signatures") : req.signatures_dir);

  // The input's first MiB is read once, before the scan, to look for a pasted environment report.
  std::ifstream file;
  if (req.log != "-") {
    std::error_code ec;
    if (std::filesystem::is_directory(req.log, ec)) throw InputError(req.log + " is a directory, not a log file");
    check_stream_input(req.log);  // a device (/dev/zero) would never end, a named FIFO's writer may never come
    file.open(req.log, std::ios::binary);
    if (!file) throw InputError("cannot read " + req.log + ": " + std::strerror(errno));
  }
  std::istream& in = req.log == "-" ? std::cin : file;
  const std::string head = read_head(in);
  if (in.bad()) throw InputError("cannot read " + req.log + ": " + (errno ? std::strerror(errno) : "read error"));
  std::optional<inventory::Inventory> pasted;
  std::string pasted_kind;  // "collect_env", "xformers.info+pip list", ...
  if (inventory::looks_like_environment_report(head)) {
    if (auto p = inventory::read_pasted_environment(head, req.log, data_path("compat"), /*log_statements=*/false)) {
      pasted = std::move(p->inventory);
      pasted_kind = join(p->formats, "+");
    }
  }

  std::vector<std::string> notes;
  // The fixes target the environment the log ran in when it is on this machine (its bin/python), not
  // whichever Python this shell would run; otherwise the note says which one they assume.
  InventorySource source = req.source;
  std::string named_missing;
  if (source.from.empty() && source.root.empty() && source.pythons.empty() && !pasted && !req.no_env)
    for (const auto& prefix : explain::python_prefixes_named_in(head)) {
      const std::string python = prefix + "/bin/python";
      if (::access(python.c_str(), X_OK) == 0) {
        source.pythons.push_back(python);
        notes.push_back("the fixes target " + python + ", the environment the log names");
        break;
      }
      if (named_missing.empty()) named_missing = prefix;
    }
  LazyInventory inv(source, names_an_inventory(req.source) || !req.no_env);
  if (!req.source.from.empty()) inv.set(load_inventory(req.source), req.source.from);
  else if (pasted && req.source.root.empty()) inv.set(*pasted, "the " + pasted_kind + " report in " + req.log);
  std::string kb_note;
  auto knowledge = explain::load_knowledge_facts(kb_note);
  if (!kb_note.empty()) notes.push_back(kb_note);
  auto base = explain::make_fact_call(nullptr, knowledge);
  // The planner's facts plan for the (lazily gathered) inventory's machine; without one, for an unknown one.
  explain::KnowledgeCall planned;
  int planned_for = -1;
  explain::FactCall facts = [&](const std::string& fn, const std::vector<std::string>& args) -> std::optional<std::string> {
    if (explain::knowledge_fact_needs_machine(fn)) {
      const inventory::Inventory* i = inv.get(fn);
      if (!i) return base(fn, args);
      if (planned_for != inv.generation()) {
        std::string ignored;  // the same knowledge base as `knowledge`: its note is already given
        planned = explain::load_knowledge_facts(ignored, "", i);
        planned_for = inv.generation();
      }
      return planned ? planned(fn, args) : std::nullopt;
    }
    if (!starts_with(fn, "env_")) return base(fn, args);
    const inventory::Inventory* i = inv.get(fn);
    return i ? explain::make_fact_call(i, knowledge)(fn, args) : std::nullopt;
  };

  explain::Explanation ex = explain::explain_stream(in, req.log, signatures, facts, {}, head);

  // Similar reports from the corpus index staged beside the signatures (absent in a bare source tree).
  const std::string index_path = data_path("explain/similar.json");
  std::error_code ec;
  if (std::filesystem::is_regular_file(index_path, ec)) {
    explain::SimilarIndex index(read_json_file(index_path));
    explain::add_similar_reports(ex, index);
  } else {
    notes.push_back("no similar-reports index at " + index_path);
  }

  report::ExplainOutcome outcome;
  outcome.explanation = std::move(ex);
  outcome.log = req.log;
  if (pasted) {
    outcome.pasted = std::move(pasted);
    outcome.pasted_kind = pasted_kind;
    outcome.knowledge = knowledge::KnowledgeBase::load();
    for (const auto& c : outcome.explanation.causes)
      for (const auto& sig : signatures)
        outcome.build_log |= sig.id == c.id && std::filesystem::path(sig.file).filename() == "build.json";
  }
  if (auto n = inv.note(); !n.empty()) notes.push_back(n);
  if (!named_missing.empty() && source.pythons.empty()) {
    const inventory::PythonEnv* assumed = inv.inventory() ? inventory::primary_python(*inv.inventory()) : nullptr;
    notes.push_back("the log names the environment " + named_missing + ", which is not on this machine: " +
                    (assumed ? "the fixes assume " + assumed->interpreter
                             : std::string("no fix here read this machine's Python")) +
                    " (--python PATH chooses another)");
  }
  outcome.notes = std::move(notes);
  outcome.inventory = inv.inventory();
  return report::explain_report(std::move(outcome), std::move(rep));
}

}  // namespace gpucheck::commands
