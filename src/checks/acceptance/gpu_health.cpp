#include "checks/acceptance/gpu_health.h"

#include <algorithm>
#include <fmt/format.h>

#include "checks/acceptance/nvml_codes.h"
#include "core/rule_switch.h"
#include "core/text.h"

namespace gpucheck::acceptance {

const NvmlReading* GpuHealth::find(const std::string& key) const {
  for (const auto& r : readings)
    if (r.key == key) return &r;
  return nullptr;
}

void GpuHealth::set(const std::string& key, const std::string& query, int rc, std::uint64_t value) {
  for (auto& r : readings)
    if (r.key == key) {
      r = {key, query, rc, value};
      return;
    }
  readings.push_back({key, query, rc, value});
}

namespace {

std::string function_of(const std::string& query) { return query.substr(0, query.find('(')); }

// How a successful reading reads in the evidence.
std::string describe_value(const NvmlReading& r) {
  const std::string& k = r.key;
  if (k == "ecc.mode" || k == "persistence") return r.value ? "enabled" : "disabled";
  if (k == "retired.pending" || k == "remap.pending") return r.value ? "yes" : "no";
  if (k == "remap.failure") return r.value ? "a remapping failed" : "none failed";
  if (k == "inforom") return "valid (checksums verified)";
  if (k == "clocks.event_reasons") {
    auto names = decode_clock_event_reasons(r.value);
    return names.empty() ? "none (clocks as high as possible)" : join(names, ", ");
  }
  if (k == "power.usage_mw" || k == "power.limit_mw") return fmt::format("{:.1f} W", static_cast<double>(r.value) / 1000);
  if (k == "temperature.gpu_c") return fmt::format("{} C", r.value);
  if (k == "xid.watch") return "watched";
  return std::to_string(r.value);
}

struct Judge {
  const GpuHealth& gpu;
  DeviceFinding d;
  std::vector<std::string> problems;  // warn and worse, for the summary
  std::vector<std::string> notes;     // info
  bool needs_reset = false, needs_root = false, persistence_off = false, lost = false;

  // A rule asks before it fires (core/rule_switch.h: gpucheck selftest proves each one fires).
  static bool on(const char* rule) { return !rule_disabled(rule); }

  const NvmlReading* ok(const std::string& key) const {
    const NvmlReading* r = gpu.find(key);
    return r && r->rc == kNvmlSuccess ? r : nullptr;
  }
  void flag(Status s, const std::string& what) {
    d.status = worst(d.status, s);
    (severity(s) >= severity(Status::kWarn) ? problems : notes).push_back(what);
  }

  void record_readings() {
    for (const auto& r : gpu.readings) {
      if (r.rc == kNvmlSuccess) {
        d.evidence.add(r.key, describe_value(r), r.query);
      } else if (r.rc == kNvmlMissingSymbol) {
        d.evidence.add(r.key, "not read: this libnvidia-ml.so.1 has no " + function_of(r.query), r.query);
      } else if (r.rc == kNvmlNotSupported) {
        d.evidence.add(r.key, "not supported on this GPU (NVML_ERROR_NOT_SUPPORTED)", r.query);
      } else if (r.rc == kNvmlNoPermission) {
        d.evidence.add(r.key, "refused: NVML_ERROR_NO_PERMISSION", r.query);
        flag(Status::kWarn, fmt::format("{} needs more privilege than uid {}{} has (NVML_ERROR_NO_PERMISSION)",
                                        r.query, gpu.uid, gpu.uid == 0 ? " (root)" : ""));
        needs_root = needs_root || gpu.uid != 0;
      } else if (r.rc == kNvmlGpuIsLost) {
        d.evidence.add(r.key, nvml_return_name(r.rc), r.query);
        if (!lost && on("health.gpu_lost")) flag(Status::kFail, "the GPU has fallen off the bus or is inaccessible (" + r.query + ": NVML_ERROR_GPU_IS_LOST)");
        lost = true;  // every later query says the same: one line is enough
      } else if (r.key == "inforom" && r.rc == kNvmlCorruptedInforom) {
        d.evidence.add(r.key, "corrupted (NVML_ERROR_CORRUPTED_INFOROM)", r.query);
        if (on("health.inforom_corrupted")) flag(Status::kFail, "infoROM corrupted (" + r.query + " returned NVML_ERROR_CORRUPTED_INFOROM)");
      } else {
        d.evidence.add(r.key, nvml_return_name(r.rc), r.query);
        flag(Status::kWarn, r.query + " failed: " + nvml_return_name(r.rc));
      }
    }
  }

  void memory_rules() {
    auto* vol = ok("ecc.volatile.uncorrected");
    auto* agg = ok("ecc.aggregate.uncorrected");
    if (vol && vol->value > 0 && on("health.ecc_uncorrected")) {
      flag(Status::kFail, fmt::format("{} uncorrected ECC error(s) since the driver loaded", vol->value));
    } else if (agg && agg->value > 0 && on("health.ecc_lifetime")) {
      flag(Status::kWarn, fmt::format("{} uncorrected ECC error(s) in the GPU's lifetime (none since the driver "
                                      "loaded)", agg->value));
    }
    if (auto* p = ok("retired.pending"); p && p->value && on("health.retired_pending")) {
      flag(Status::kFail, "pages are pending retirement (a GPU reset retires them)");
      needs_reset = true;
    }
    if (auto* p = ok("remap.pending"); p && p->value && on("health.remap_pending")) {
      flag(Status::kFail, "row remapping pending (a GPU reset applies it)");
      needs_reset = true;
    }
    if (auto* f = ok("remap.failure"); f && f->value && on("health.remap_failed"))
      flag(Status::kFail, "a row remapping failed: the GPU has no spare row left in a bank");
  }

  // NVML's "max" link generation and width are what this GPU and its slot allow together
  // (nvmlDeviceGetMaxPcieLinkGeneration), the GPU's own maximum is nvmlDeviceGetGpuMaxPcieLinkGeneration.
  // An idle GPU lowers its link generation to save power, so a slower generation is judged only when the
  // GPU is not idle (clocks event reason GpuIdle clear); a narrower width is never a power state.
  void link_rules() {
    auto* gc = ok("pcie.gen.current");
    auto* gm = ok("pcie.gen.max");
    auto* gg = ok("pcie.gen.gpu_max");
    auto* wc = ok("pcie.width.current");
    auto* wm = ok("pcie.width.max");
    auto* reasons = ok("clocks.event_reasons");
    if (wc && wm && wc->value < wm->value && on("health.pcie_width"))
      flag(Status::kFail, fmt::format("PCIe link x{} of x{}: trained down to fewer lanes", wc->value, wm->value));
    if (gc && gm && gc->value < gm->value && on("health.pcie_gen")) {
      std::string what = fmt::format("PCIe link gen {} of gen {}", gc->value, gm->value);
      if (reasons && (reasons->value & kClocksEventGpuIdle))
        flag(Status::kInfo, what + " while the GPU is idle (a power state, not judged; device.copy loads it)");
      else if (reasons)
        flag(Status::kFail, what + " while the GPU is not idle: the link trained down");
      else
        flag(Status::kWarn, what + "; whether the GPU is idle is unknown (no clocks event reasons)");
    }
    if (gm && gg && gm->value < gg->value)
      flag(Status::kWarn, fmt::format("the slot limits the link to gen {} (the GPU supports gen {})", gm->value, gg->value));
  }

  void other_rules() {
    if (auto* r = ok("clocks.event_reasons")) {
      auto t = throttle_reasons(r->value);
      if (!t.empty() && on("health.throttle")) flag(Status::kWarn, "throttling: " + join(t, ", "));
    }
    if (!gpu.xids.empty() && on("health.xid")) {
      std::vector<std::string> ids;
      for (auto x : gpu.xids) ids.push_back(std::to_string(x));
      flag(Status::kWarn, fmt::format("XID {} reported while the probe watched {:.1f} s", join(ids, ", "), gpu.xid_watch_s));
      d.evidence.add("xid.events", join(ids, ", "), "nvmlEventSetWait_v2 (nvmlEventTypeXidCriticalError)");
    }
    if (auto* p = ok("persistence"); p && !p->value) {
      flag(Status::kInfo, "persistence mode off");
      persistence_off = true;
    }
    if (auto* t = ok("temperature.gpu_c")) d.metrics.push_back({"temperature_c", static_cast<double>(t->value), "C", "lower"});
    if (auto* p = ok("power.usage_mw")) d.metrics.push_back({"power_w", p->value / 1000.0, "W", ""});
    if (auto* p = ok("power.limit_mw")) d.metrics.push_back({"power_limit_w", p->value / 1000.0, "W", ""});
  }

  std::string healthy_line() const {
    std::vector<std::string> parts;
    if (auto* v = ok("ecc.volatile.uncorrected")) parts.push_back(fmt::format("{} uncorrected ECC", v->value));
    auto* gc = ok("pcie.gen.current");
    auto* wc = ok("pcie.width.current");
    if (gc && wc) parts.push_back(fmt::format("PCIe gen {} x{}", gc->value, wc->value));
    if (auto* t = ok("temperature.gpu_c")) parts.push_back(fmt::format("{} C", t->value));
    if (auto* p = ok("power.usage_mw")) parts.push_back(fmt::format("{:.0f} W", p->value / 1000.0));
    return parts.empty() ? "no health fact could be read" : "healthy: " + join(parts, ", ");
  }
};

Judge run_rules(const GpuHealth& gpu) {
  Judge j{gpu, {}, {}, {}};
  j.d.device = gpu.index;
  j.d.status = Status::kPass;
  if (!gpu.name.empty()) j.d.evidence.add("name", gpu.name, "nvmlDeviceGetName");
  if (!gpu.uuid.empty()) j.d.evidence.add("uuid", gpu.uuid, "nvmlDeviceGetUUID");
  if (!gpu.pci_bus_id.empty()) j.d.evidence.add("pci_bus_id", gpu.pci_bus_id, "nvmlDeviceGetPciInfo_v3");
  if (gpu.pci_device_id) j.d.evidence.add("pci_device_id", fmt::format("0x{:04x}", gpu.pci_device_id), "nvmlDeviceGetPciInfo_v3");
  j.record_readings();
  j.memory_rules();
  j.link_rules();
  j.other_rules();
  j.d.summary = j.problems.empty() ? j.healthy_line() : join(j.problems, "; ");
  if (j.problems.empty() && !j.notes.empty()) j.d.summary += " (" + join(j.notes, "; ") + ")";
  return j;
}

}  // namespace

DeviceFinding judge_gpu_health(const GpuHealth& gpu) { return run_rules(gpu).d; }

void judge_health(const std::vector<GpuHealth>& gpus, Finding& out) {
  out.status = Status::kPass;
  std::vector<std::string> reset, persistence_off, bad;
  bool needs_root = false;
  for (const auto& g : gpus) {
    Judge j = run_rules(g);
    if (j.needs_reset) reset.push_back(g.index);
    if (j.persistence_off) persistence_off.push_back(g.index);
    needs_root = needs_root || j.needs_root;
    if (severity(j.d.status) >= severity(Status::kWarn)) bad.push_back("GPU " + g.index + ": " + j.d.summary);
    out.status = worst(out.status, j.d.status);
    out.devices.push_back(std::move(j.d));
  }
  std::size_t n = gpus.size();
  out.summary = bad.empty() ? fmt::format("{} GPU(s) healthy", n)
                            : fmt::format("{} of {} GPU(s) need attention: {}", bad.size(), n, join(bad, " | "));
  for (const auto& i : reset)
    out.add_fix("GPU " + i + " has pending retirements or remaps: reset it with no process on it (as root), "
                "or reboot", {"nvidia-smi -r -i " + i});
  if (!persistence_off.empty())
    out.add_fix("enable persistence mode (as root) so the driver stays loaded between jobs: GPU(s) " +
                    join(persistence_off, ", "),
                {"nvidia-smi -pm 1"});
  if (needs_root) out.add_fix("run the probe as root to read the refused counters");
}

}  // namespace gpucheck::acceptance
