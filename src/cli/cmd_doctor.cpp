// gpucheck doctor: verdicts on the installed GPU stack and install paths, before anything is compiled.
#include <unistd.h>

#include <iostream>
#include <optional>

#include "cli/command.h"
#include "checks/doctor/doctor.h"
#include "knowledge/knowledge_base.h"
#include "core/errors.h"
#include "core/files.h"
#include "inventory/collect.h"

namespace gpucheck::cli {
namespace {

struct DoctorArgs {
  std::string from;
  std::string root;
  std::string for_package;
};

int doctor_command(const DoctorArgs& a, const GlobalOptions& g) {
  if (!a.from.empty() && !a.root.empty()) throw InputError("--from and --root exclude each other");
  auto kb = compat::KnowledgeBase::load();
  inventory::Inventory inv;
  std::string source;
  if (!a.from.empty()) {
    inv = inventory::load_inventory(a.from);
    source = "--from " + a.from;
  } else {
    inventory::CollectOptions co;
    if (!a.root.empty()) co.root = a.root;
    inv = inventory::collect(co);
    source = a.root.empty() ? "live" : "--root " + a.root;
  }
  std::optional<std::string> request;
  if (!a.for_package.empty()) request = a.for_package;
  auto rep = compat::run_doctor(inv, kb, request);
  rep.inventory_source = source;
  std::string doc = compat::to_json(rep).dump(2) + "\n";
  if (g.json) {
    emit_document(g, doc);
  } else {
    if (!g.out.empty()) write_file_atomic(g.out, doc);
    std::cout << compat::render_text(rep, use_color(g, 1), g.verbose);
  }
  return rep.exit_code();
}

Runner setup_doctor(CLI::App& sub, GlobalOptions& g) {
  auto a = std::make_shared<DoctorArgs>();
  sub.add_option("--from", a->from, "Judge this inventory document (gpucheck env --json) instead of this machine");
  sub.add_option("--root", a->root, "Judge the stack installed under DIR (a mounted image or chroot)");
  sub.add_option("--for", a->for_package,
                 "Plan installing PACKAGE[==VERSION] here (bmtrain, flash-attn, xformers, apex, deepspeed, bitsandbytes)");
  sub.footer(R"(Each finding has an id, a severity (error/warn/info), the evidence it rests on, an explanation
and a ranked fix plan of exact commands. Facts come from share/gpucheck/compat/*.json, each with its source.

Exit codes: 0 no error finding, 1 at least one error finding, 2 bad input.

Examples:
  gpucheck doctor
  gpucheck doctor --from env.json --for bmtrain==0.2.2
  gpucheck doctor --for flash-attn --json)");
  return [a, &g] { return doctor_command(*a, g); };
}

Registration reg({"doctor", "Diagnose the CUDA/torch stack and plan installs, before anything is compiled", 30,
                  &setup_doctor});

}  // namespace
}  // namespace gpucheck::cli
