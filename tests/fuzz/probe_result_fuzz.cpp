// Fuzz target: what a probe prints on its result descriptor (`gpucheck run`; a probe may crash, lie or print
// garbage): any bytes become a Finding (an `error` one when they are not a result of this probe), never an
// exception, and that Finding goes into a report that serialises and exits with one of the contract's codes.
// The first byte picks the probe's exit status, so results followed by a failed exit are covered too.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/text.h"
#include "model/report.h"
#include "runner/probe_runner.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpucheck;
  using namespace gpucheck::runner;
  if (size == 0) return 0;
  static const ProbeSpec spec = [] {
    ProbeSpec s;
    s.id = "host.info";
    s.title = "Host information";
    s.executable = "/nonexistent/host_info";
    return s;
  }();
  SubprocessResult o;
  o.started = o.exited = true;
  o.exit_code = data[0] % 4 == 0 ? 1 : 0;
  o.result.assign(reinterpret_cast<const char*>(data + 1), size - 1);
  o.elapsed_s = 0.5;
  Finding f = classify_probe_outcome(spec, o, 60, "quick");
  if (f.id != spec.id && f.status != Status::kError) std::abort();  // another probe's result is never trusted
  model::Report r;
  r.sections.push_back({"probes", {f}});
  const int code = model::exit_code(r);
  if (code < 0 || code > 3) std::abort();
  (void)json_text(model::to_json(r));
  (void)terminal_safe(f.summary);
  return 0;
}
