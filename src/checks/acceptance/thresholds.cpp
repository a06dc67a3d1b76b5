#include "checks/acceptance/thresholds.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>

#include "core/rule_switch.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/text.h"

namespace gpucheck::acceptance {

double ThresholdConfig::share_for(const std::string& metric) const {
  auto it = reference_share.find(metric);
  if (it != reference_share.end()) return it->second;
  it = reference_share.find("default");
  return it == reference_share.end() ? 0.6 : it->second;
}

nlohmann::json ThresholdConfig::to_json() const {
  return {{"reference_share", reference_share},
          {"outlier", {{"z", peer.outlier_z}, {"min_relative", peer.min_relative}, {"min_peers", peer.min_peers}}},
          {"baseline_share", baseline_share},
          {"origin", origin}};
}

namespace {

// The CLI prints an InputError as one line: a key (or a file name) holding a newline must not break it
// (without on_one_line the `thresholds` fuzz target aborts on {"x\ny": 1}).
[[noreturn]] void bad_config(const std::string& origin, const std::string& what) {
  throw InputError(on_one_line("thresholds config " + origin + ": " + what));
}

double share_value(const nlohmann::json& v, const std::string& origin, const std::string& where) {
  if (!v.is_number() || !(v.get<double>() > 0) || v.get<double>() > 1)
    bad_config(origin, where + " must be a number above 0 and at most 1 (a share), got " + v.dump());
  return v.get<double>();
}

}  // namespace

ThresholdConfig parse_threshold_config(const nlohmann::json& j, const std::string& origin) {
  ThresholdConfig c;
  c.origin = origin;
  if (!j.is_object()) bad_config(origin, "not a JSON object");
  for (const auto& [key, v] : j.items()) {
    if (key == "reference_share") {
      if (!v.is_object()) bad_config(origin, "reference_share must be an object {metric: share}");
      for (const auto& [metric, share] : v.items()) {
        bool known = metric == "default";
        for (const auto& m : metric_contract()) known = known || metric == m.name;
        if (!known) bad_config(origin, "reference_share." + metric + ": not a metric of the contract");
        c.reference_share[metric] = share_value(share, origin, "reference_share." + metric);
      }
    } else if (key == "outlier") {
      if (!v.is_object()) bad_config(origin, "outlier must be an object {z, min_relative, min_peers}");
      for (const auto& [k, x] : v.items()) {
        if (k == "z") {
          if (!x.is_number() || !(x.get<double>() > 0)) bad_config(origin, "outlier.z must be a number above 0");
          c.peer.outlier_z = x.get<double>();
        } else if (k == "min_relative") {
          if (!x.is_number() || x.get<double>() < 0 || x.get<double>() >= 1)
            bad_config(origin, "outlier.min_relative must be a number in [0, 1)");
          c.peer.min_relative = x.get<double>();
        } else if (k == "min_peers") {
          if (!x.is_number_unsigned() || x.get<std::size_t>() < 3)
            bad_config(origin, "outlier.min_peers must be an integer of at least 3");
          c.peer.min_peers = x.get<std::size_t>();
        } else {
          bad_config(origin, "outlier." + k + ": unknown key (z, min_relative, min_peers)");
        }
      }
    } else if (key == "baseline_share") {
      c.baseline_share = share_value(v, origin, "baseline_share");
    } else {
      bad_config(origin, "unknown key '" + key + "' (reference_share, outlier, baseline_share)");
    }
  }
  return c;
}

ThresholdConfig load_threshold_config(const std::string& path) { return parse_threshold_config(read_json_file(path), path); }

namespace {

// "00000000:18:00.0" and "0000:18:00.0" name the same function.
std::string normalize_bus_id(const std::string& s) {
  std::string t = trim(s);
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  auto colon = t.find(':');
  if (colon == std::string::npos || colon == 0) return t;
  std::string domain = t.substr(0, colon);
  if (domain.find_first_not_of("0123456789abcdef") != std::string::npos || domain.size() > 8) return t;
  return fmt::format("{:x}", std::stoul(domain, nullptr, 16)) + t.substr(colon);
}

std::string evidence_or(const DeviceFinding& d, const std::string& what) {
  return d.evidence.count(what) ? d.evidence.at(what) : "";
}

const GpuIdentity* resolve(const DeviceFinding& d, const std::vector<GpuIdentity>& gpus) {
  std::string uuid = evidence_or(d, "uuid");
  if (!uuid.empty())
    for (const auto& g : gpus)
      if (g.uuid == uuid) return &g;
  std::string bus = evidence_or(d, "pci_bus_id");
  if (!bus.empty())
    for (const auto& g : gpus)
      if (!g.pci_bus_id.empty() && normalize_bus_id(g.pci_bus_id) == normalize_bus_id(bus)) return &g;
  if (uuid.empty() && bus.empty())
    for (const auto& g : gpus)
      if (g.index == d.device) return &g;
  return nullptr;
}

std::string fmt_num(double v) { return fmt::format("{:.4g}", v); }

struct Sample {
  std::size_t device;  // position in the probe finding's devices
  const ContractMetric* metric;
  double value;
  std::string unit;
  const GpuIdentity* gpu;
  const Product* product;
  std::string group;  // peers are GPUs with the same group
};

struct Verdict {
  std::string device, metric, rule;
  double value = 0, limit = 0;
  bool fired = false;
  std::string detail;  // the sentence naming the numbers
  nlohmann::json extra;
};

class ProbeJudge {
 public:
  ProbeJudge(const ThresholdInput& in, const Finding& probe) : in_(in), probe_(probe) {}

  Finding run() {
    collect();
    for (const auto& s : samples_) {
      if (s.metric->kind == MetricKind::kMustBeZero) zero_rule(s);
      else {
        reference_rule(s);
        baseline_rule(s);
      }
    }
    peer_rule();
    return finding();
  }

 private:
  const ThresholdInput& in_;
  const Finding& probe_;
  std::vector<Sample> samples_;
  std::vector<Verdict> verdicts_;
  std::map<std::size_t, std::vector<std::string>> not_judged_;  // device -> why a rule did not apply

  const DeviceFinding& dev(const Sample& s) const { return probe_.devices[s.device]; }

  void collect() {
    for (std::size_t i = 0; i < probe_.devices.size(); ++i) {
      const auto& d = probe_.devices[i];
      const GpuIdentity* gpu = resolve(d, in_.gpus);
      const Product* product = gpu && gpu->pci_device_id ? in_.catalog.find(gpu->pci_device_id) : nullptr;
      std::string group = gpu && gpu->pci_device_id ? fmt::format("0x{:04x}", gpu->pci_device_id)
                          : gpu && !gpu->name.empty() ? gpu->name
                                                      : "an unknown product";
      for (const auto& m : d.metrics)
        if (const ContractMetric* cm = find_contract_metric(probe_.id, m.name))
          samples_.push_back({i, cm, m.value, m.unit, gpu, product, group});
    }
  }

  void add(const Sample& s, const std::string& rule, bool fired, double limit, std::string detail, nlohmann::json extra = {}) {
    if (fired && rule_disabled("thresholds." + rule)) fired = false;  // gpucheck selftest's hook
    verdicts_.push_back({dev(s).device, s.metric->name, rule, s.value, limit, fired, std::move(detail), std::move(extra)});
  }

  void zero_rule(const Sample& s) {
    add(s, "nonzero", s.value > 0, 0, fmt::format("{} {} > 0", s.metric->name, fmt_num(s.value)));
  }

  void reference_rule(const Sample& s) {
    if (!s.product) {
      not_judged_[s.device].push_back(s.gpu ? "no reference data for " + s.group : "GPU not found in NVML's list");
      return;
    }
    auto ref = reference_for(s.metric->name, *s.product, in_.catalog, evidence_or(dev(s), "dtype"));
    if (!ref) return;  // the contract gives this metric no reference, or the product lacks the figure
    double share = in_.config.share_for(s.metric->name);
    double limit = share * ref->value;
    bool fired = s.value < limit;
    add(s, "reference_share", fired, limit,
        fmt::format("{} {} {} {} x {} = {} ({})", s.metric->name, fmt_num(s.value), fired ? "<" : ">=", fmt_num(share),
                    ref->basis, fmt_num(limit), s.product->product),
        {{"reference", ref->value}, {"share", share}, {"basis", ref->basis}, {"source", ref->source}});
  }

  void baseline_rule(const Sample& s) {
    if (in_.baseline.empty()) return;
    const auto& d = dev(s);
    std::string uuid = evidence_or(d, "uuid");
    if (uuid.empty() && s.gpu) uuid = s.gpu->uuid;
    for (const auto& f : in_.baseline) {
      if (f.id != probe_.id) continue;
      for (const auto& bd : f.devices) {
        std::string buuid = evidence_or(bd, "uuid");
        if (buuid.empty())
          if (const GpuIdentity* bg = resolve(bd, in_.baseline_gpus)) buuid = bg->uuid;
        bool same = !uuid.empty() && !buuid.empty() ? uuid == buuid : bd.device == d.device;
        if (!same) continue;
        for (const auto& m : bd.metrics) {
          if (m.name != s.metric->name || !(m.value > 0)) continue;
          double limit = in_.config.baseline_share * m.value;
          bool fired = s.value < limit;
          std::string by = !uuid.empty() && !buuid.empty() ? "same UUID" : "same CUDA ordinal (no UUID known)";
          add(s, "baseline", fired, limit,
              fmt::format("{} {} {} {} x its baseline {} = {} ({}, {})", s.metric->name, fmt_num(s.value),
                          fired ? "<" : ">=", fmt_num(in_.config.baseline_share), fmt_num(m.value), fmt_num(limit),
                          in_.baseline_origin, by),
              {{"baseline", m.value}, {"share", in_.config.baseline_share}, {"matched_by", by}});
          return;
        }
      }
    }
    not_judged_[s.device].push_back("no baseline value of " + std::string(s.metric->name) + " for this GPU");
  }

  void peer_rule() {
    std::map<std::pair<std::string, std::string>, std::vector<const Sample*>> groups;
    for (const auto& s : samples_)
      if (s.metric->kind == MetricKind::kHigherIsBetter) groups[{s.metric->name, s.group}].push_back(&s);
    const PeerRule& rule = in_.config.peer;
    for (const auto& [key, members] : groups) {
      std::vector<double> values;
      for (const auto* s : members) values.push_back(s->value);
      PeerJudgement j = judge_peers(values, rule);
      if (!j.judged) {
        for (const auto* s : members)
          not_judged_[s->device].push_back(fmt::format("{} GPU(s) of {} report {}: fewer than {} peers", members.size(),
                                                       key.second, key.first, rule.min_peers));
        continue;
      }
      for (std::size_t i = 0; i < members.size(); ++i) {
        const Sample* s = members[i];
        const bool fired = j.low[i];
        std::string product = s->product ? s->product->product : key.second;
        add(*s, "peer_outlier", fired, j.floor,
            fired ? fmt::format("{} {} is a low outlier among {} {}: median {}, MAD {}, robust z {:.1f}{}, below "
                                "(1 - {}) x median = {}",
                                key.first, fmt_num(s->value), members.size(), product, fmt_num(j.median), fmt_num(j.mad),
                                j.z[i], j.mad > 0 ? fmt::format(" > {}", rule.outlier_z) : std::string(),
                                fmt_num(rule.min_relative), fmt_num(j.floor))
                  : fmt::format("{} {} against a median of {} over {} {}", key.first, fmt_num(s->value), fmt_num(j.median),
                                members.size(), product),
            {{"median", j.median}, {"mad", j.mad}, {"z", j.z[i]}, {"peers", members.size()}});
      }
    }
  }

  Finding finding() const {
    Finding f;
    f.id = "thresholds." + probe_.id;
    f.title = "thresholds on " + probe_.id + "'s metrics";
    f.status = Status::kPass;
    f.details["verdicts"] = nlohmann::json::array();
    f.details["config"] = in_.config.to_json();
    std::size_t fired_devices = 0, judged_devices = 0;
    std::vector<std::string> bad;
    for (std::size_t i = 0; i < probe_.devices.size(); ++i) {
      bool has = false;
      for (const auto& s : samples_) has = has || s.device == i;
      if (!has) continue;
      DeviceFinding d;
      d.device = probe_.devices[i].device;
      std::vector<std::string> fired, checked;
      for (const auto& v : verdicts_) {
        if (v.device != d.device) continue;
        (v.fired ? fired : checked).push_back(v.detail + " [" + v.rule + "]");
        d.evidence.add(v.metric + " " + v.rule, v.detail + (v.fired ? " - FAILS" : ""));
      }
      for (const auto& s : samples_)
        if (s.device == i && s.product) {
          d.evidence.add("product", s.product->product, s.product->file);
          break;
        }
      if (auto it = not_judged_.find(i); it != not_judged_.end())
        for (const auto& why : it->second) d.evidence.add("not judged", why);
      if (!fired.empty()) {
        d.status = Status::kFail;
        d.summary = join(fired, "; ");
        ++fired_devices;
        bad.push_back("GPU " + d.device + ": " + d.summary);
      } else if (!checked.empty()) {
        d.status = Status::kPass;
        d.summary = fmt::format("{} check(s) within thresholds", checked.size());
        ++judged_devices;
      } else {
        d.status = Status::kInfo;
        auto it = not_judged_.find(i);
        d.summary = "not judged: " + (it == not_judged_.end() ? std::string("no rule applies") : join(it->second, "; "));
      }
      f.status = worst(f.status, d.status);
      f.devices.push_back(std::move(d));
    }
    for (const auto& v : verdicts_) {
      nlohmann::json j = {{"device", v.device}, {"metric", v.metric}, {"value", v.value}, {"rule", v.rule},
                          {"limit", v.limit}, {"fired", v.fired}, {"detail", v.detail}};
      if (v.extra.is_object()) j.update(v.extra);
      f.details["verdicts"].push_back(j);
    }
    if (fired_devices)
      f.summary = fmt::format("{} GPU(s) below a threshold: {}", fired_devices, join(bad, " | "));
    else if (judged_devices)
      f.summary = fmt::format("{} GPU(s) within thresholds ({} checks)", judged_devices,
                              std::count_if(verdicts_.begin(), verdicts_.end(), [](const Verdict& v) { return !v.fired; }));
    else
      f.summary = "no threshold rule could be applied (no reference, too few peers, no baseline)";
    f.references.push_back("docs/acceptance.md");
    return f;
  }
};

}  // namespace

std::vector<Finding> judge_thresholds(const ThresholdInput& in) {
  std::vector<Finding> out;
  for (const auto& probe : in.findings) {
    bool any = false;
    for (const auto& d : probe.devices)
      for (const auto& m : d.metrics) any = any || find_contract_metric(probe.id, m.name);
    if (any) out.push_back(ProbeJudge(in, probe).run());
  }
  return out;
}

}  // namespace gpucheck::acceptance
