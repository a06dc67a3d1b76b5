// host.info: what the rest of the results were measured on. Informational: passes when the facts are read.
#include "core/text.h"
#include "inventory/system_info.h"
#include "probe/probe.h"

int main(int argc, char** argv) {
  using namespace gpucheck;
  return probe::run(argc, argv, [](const probe::Context&, Finding& r) {
    inventory::System s = inventory::read_system("/");
    r.evidence["os"] = s.os_pretty.empty() ? s.os_id + " " + s.os_version_id : s.os_pretty;
    r.evidence["kernel"] = s.kernel;
    r.evidence["glibc"] = s.glibc;
    r.evidence["cpu"] = s.cpu_model;
    r.evidence["cpu_flags"] = join(s.cpu_flags, " ");
    r.add_metric("logical_cpus", s.cpu_count, "count");
    r.details = {{"os_id", s.os_id}, {"os_version_id", s.os_version_id}, {"cpu_flags", s.cpu_flags}};
    bool complete = !s.kernel.empty() && !s.glibc.empty() && s.cpu_count > 0;
    r.status = complete ? Status::kPass : Status::kWarn;
    r.summary = r.evidence["os"] + ", kernel " + s.kernel + ", glibc " + s.glibc + ", " +
                std::to_string(s.cpu_count) + " x " + (s.cpu_model.empty() ? "unknown CPU" : s.cpu_model);
  });
}
