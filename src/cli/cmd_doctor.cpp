// gpucheck doctor: verdicts on the installed GPU stack and install plans, before anything is compiled.
#include "cli/command.h"
#include "commands/doctor.h"

namespace gpucheck::cli {
namespace {

Runner setup_doctor(CLI::App& sub, GlobalOptions& g) {
  auto a = std::make_shared<commands::DoctorRequest>();
  add_inventory_source(sub, a->source);
  sub.add_option("--from-text", a->from_text,
                 "Judge a pasted environment report: torch's, vLLM's or detectron2's collect_env, sglang's check_env, `python -m xformers.info`, "
                 "`python -m bitsandbytes`, nvidia-smi, pip list/freeze or conda list (several in one file are merged)")
      ->type_name("FILE")
      ->excludes(sub.get_option("--from"))
      ->excludes(sub.get_option("--root"));
  sub.add_option("--for", a->plan.specs,
                 "Plan installing these requirements here (PEP 508: 'bmtrain>=0.2.1' torch "
                 "'torch<2.0.0,>=1.10' flash-attn==2.7.4.post1)")
      ->expected(1, -1);
  sub.add_option("-r,--requirement", a->plan.requirements, "Plan the requirements of a pip requirements file")
      ->type_name("FILE")
      ->check(CLI::ExistingFile);
  sub.add_option("-c,--constraint", a->plan.constraints, "Limit the plan by a pip constraints file")
      ->type_name("FILE")
      ->check(CLI::ExistingFile);
  sub.add_option("--constraints-out", a->constraints_out,
                 "Write plan 1's pins to FILE, for `pip install -c FILE` or `uv pip install -c FILE`")
      ->type_name("FILE");
  sub.footer(R"(Each finding has an id, a severity (error/warn/info), the evidence it rests on, an explanation
and a ranked fix plan of exact commands. The Python judged is the first --python, else the active
virtualenv ($VIRTUAL_ENV), else the active conda env ($CONDA_PREFIX), else python3 on PATH; the
report names it. Facts come from share/gpucheck/compat/*.json, each with its source (pypi.json: the
packages' published metadata, from scripts/gen-compat-pypi).

A plan honours every pin at once: torch and its companions, the driver, every GPU's architecture,
Python, glibc, each package's Requires-Dist, and what a source build needs (nvcc of torch's CUDA
major, a host compiler nvcc takes, torch and `wheel` installed first). It never names a version
that does not exist; when nothing fits it names the pins that conflict.

Exit codes: 0 no error finding, 1 at least one error finding, 2 bad input.

Examples:
  gpucheck doctor
  gpucheck doctor --python ~/venvs/train/bin/python
  gpucheck doctor --for 'bmtrain>=0.2.1' 'torch<2.0.0,>=1.10'
  gpucheck doctor -r requirements.txt -c constraints.txt --constraints-out pins.txt
  gpucheck doctor --from-text collect_env.txt     # from an issue's "Your current environment"
  gpucheck doctor --from-text xformers-info.txt   # `python -m xformers.info` + `pip list` pasted in an issue
  gpucheck doctor --from env.json --for torch torchvision --json

--from-text reads the output of )" + std::string(commands::pasted_report_formats()) + ".");
  return [a, &g] {
    model::Report rep = commands::doctor(*a, new_report("doctor", g));
    return emit_report(rep, g);
  };
}

Registration doctor_registration({"doctor", "Diagnose the CUDA/torch stack and plan installs, before anything is compiled", 30,
                  &setup_doctor});

}  // namespace
}  // namespace gpucheck::cli
