// gpucheck doctor: verdicts on the installed GPU stack and install paths, before anything is compiled.
#include <optional>

#include "cli/command.h"
#include "report/doctor_report.h"

namespace gpucheck::cli {
namespace {

struct DoctorArgs {
  report::InventorySource source;
  std::string for_package;
  std::string from_text;  // --from-text FILE: a pasted collect_env report
};

int doctor_command(const DoctorArgs& a, const GlobalOptions& g) {
  std::optional<std::string> request;
  if (!a.for_package.empty()) request = a.for_package;
  report::Report rep = a.from_text.empty() ? report::doctor_report(new_report("doctor", g), a.source, request)
                                           : report::doctor_report_from_text(new_report("doctor", g), a.from_text, request);
  return emit_report(rep, g);
}

Runner setup_doctor(CLI::App& sub, GlobalOptions& g) {
  auto a = std::make_shared<DoctorArgs>();
  add_inventory_source(sub, a->source);
  sub.add_option("--from-text", a->from_text,
                 "Judge a pasted environment report: `python -m torch.utils.collect_env` or vLLM's collect_env.py output")
      ->type_name("FILE")
      ->excludes(sub.get_option("--from"))
      ->excludes(sub.get_option("--root"));
  sub.add_option("--for", a->for_package,
                 "Plan installing PACKAGE[==VERSION] here (bmtrain, flash-attn, xformers, apex, deepspeed, bitsandbytes)");
  sub.footer(R"(Each finding has an id, a severity (error/warn/info), the evidence it rests on, an explanation
and a ranked fix plan of exact commands. The Python judged is the first --python, else the active
virtualenv ($VIRTUAL_ENV), else the active conda env ($CONDA_PREFIX), else python3 on PATH; the
report names it. Facts come from share/gpucheck/compat/*.json, each with its source.

Exit codes: 0 no error finding, 1 at least one error finding, 2 bad input.

Examples:
  gpucheck doctor
  gpucheck doctor --python ~/venvs/train/bin/python
  gpucheck doctor --from env.json --for bmtrain==0.2.2
  gpucheck doctor --from-text collect_env.txt     # from an issue's "Your current environment"
  gpucheck doctor --for flash-attn --json)");
  return [a, &g] { return doctor_command(*a, g); };
}

Registration reg({"doctor", "Diagnose the CUDA/torch stack and plan installs, before anything is compiled", 30,
                  &setup_doctor});

}  // namespace
}  // namespace gpucheck::cli
