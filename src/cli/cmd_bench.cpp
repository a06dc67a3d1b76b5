// `gpucheck bench`: options only; commands::bench runs the suites and writes the benchmark document.
#include "cli/command.h"
#include "core/interrupt.h"
#include "core/errors.h"
#include "commands/bench.h"

namespace gpucheck::cli {
namespace {

Runner setup_bench(CLI::App& sub, GlobalOptions& g) {
  auto req = std::make_shared<commands::BenchRequest>();
  sub.add_option("--repetitions", req->options.repetitions, "Repetitions of each benchmark (U test: >= 5)")
      ->default_val(9);
  sub.add_option("--filter", req->options.filter, "Only benchmarks whose name matches this regex")
      ->type_name("RE");
  sub.add_option("--suite", req->options.only, "Only this suite (repeatable; see below)")
      ->type_name("NAME");
  sub.add_option("--out", req->out, "The benchmark document's path (written atomically)")
      ->type_name("FILE");
  sub.add_option("--dir", req->dir, "Else DIR/<key>-<UTC time>.json (default .)")
      ->type_name("DIR");
  sub.add_option("--min-time", req->options.min_time_s, "Least seconds per repetition (min_time)")
      ->type_name("S");
  sub.add_option("--timeout", req->options.timeout_s, "Seconds a suite may take (default 30 min)")
      ->type_name("S");
  sub.add_option("--python", req->pythons, "The Python whose torch the context names")->type_name("PATH");
  sub.add_flag("--no-python", req->no_python, "No Python: faster, the context names no torch");
  // Test-only: the `regression` suite does F times its work, a run slower on purpose (tests/checks/regression).
  sub.add_option("--test-slowdown", req->options.test_slowdown)->group("")->type_name("F");
  sub.footer(R"(Runs the Google Benchmark suites (next to gpucheck, or $GPUCHECK_BENCH_DIR),
each an isolated process, --repetitions times each benchmark, and writes ONE
Google Benchmark JSON document whose context names this hardware+software
combination (GPU models and UUIDs, driver, CUDA, cuBLAS, NCCL, torch,
gpucheck's version and build, CPU) and a key for it. GPU benchmarks without a
usable GPU are recorded as skipped with the reason. The report lists each
suite. Suites: kernels_cpu, kernels_gpu, bmtrain_gpu, collectives, explain,
abi, env, regression. Compare documents with `gpucheck compare`.
Exit: 0 the document was written, 2 bad input, 3 a suite crashed or hung.

Examples:
  gpucheck bench --out base.json
  gpucheck bench --suite kernels_cpu --filter 'BM_OffloadAdam/2/' --out new.json
  gpucheck bench --dir baselines/    # then: gpucheck compare --baseline-dir)");
  return [req, &g] {
    if (req->options.test_slowdown < 1 || req->options.test_slowdown > 100)
      throw InputError("--test-slowdown must be between 1 and 100");
    catch_interrupts();  // Ctrl-C, SIGTERM, SIGHUP: stop the suite's process group, write what finished
    model::Report rep = commands::bench(*req, new_report("bench", g));
    return emit_report(rep, g);
  };
}

Registration bench_registration({"bench", "Run the benchmark suites into one Google Benchmark document", 50, &setup_bench});

}  // namespace
}  // namespace gpucheck::cli
