#include "report/fleet_report.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/text.h"
#include "model/fleet_details.h"

namespace gpucheck::report {
namespace {

namespace fs = std::filesystem;

struct Node {
  std::string name;        // hostname, or the file when the report could not be read
  std::string slurm_name;  // SLURMD_NODENAME of the run (what scontrol calls the node), when under Slurm
  std::string file;
  std::string problem;     // why there is no usable report
  model::Report report;
  std::string gpu_model;   // "8 x NVIDIA H200" or "no GPU"
  std::map<std::string, double> metrics;           // "probe metric" -> worst value on the node
  std::map<std::string, std::string> better;       // same key -> "higher" / "lower"
  std::map<std::string, std::string> software;     // "driver" -> "580.65.06", "libcublas.so.13" -> ...
};

std::string gpu_model(const nlohmann::json& inv) {
  std::map<std::string, int> by_name;
  if (auto g = inv.find("gpus"); g != inv.end() && g->is_array())
    for (auto& gpu : *g)
      if (gpu.is_object()) by_name[json_string(gpu, "name")]++;
  std::string out;
  for (auto& [name, n] : by_name) out += (out.empty() ? "" : " + ") + fmt::format("{} x {}", n, name);
  return out.empty() ? "no GPU" : out;
}

// What must be the same on every node of a fleet: driver, toolkits, torch, the libraries it loads.
std::map<std::string, std::string> software_of(const model::Report& r) {
  std::map<std::string, std::string> sw;
  sw["gpucheck"] = r.meta.tool_version;
  const nlohmann::json& inv = r.inventory;
  if (!inv.is_object()) return sw;
  if (auto d = inv.find("driver"); d != inv.end() && d->is_object())
    sw["driver"] = d->value("present", false) ? json_string(*d, "version") : "none";
  if (auto t = inv.find("toolkits"); t != inv.end() && t->is_array()) {
    std::vector<std::string> v;
    for (auto& tk : *t)
      if (tk.is_object()) v.push_back(json_string(tk, "version") + " at " + json_string(tk, "root"));
    std::sort(v.begin(), v.end());
    sw["toolkits"] = join(v, ", ");
  }
  if (auto p = inv.find("pythons"); p != inv.end() && p->is_array() && !p->empty() && (*p)[0].is_object()) {
    const auto& py = (*p)[0];
    std::string torch = json_string(py, "torch_version");
    if (!torch.empty()) sw["torch"] = torch + " (CUDA " + json_string(py, "torch_cuda") + ")";
  }
  if (auto libs = inv.find("libraries"); libs != inv.end() && libs->is_array())
    for (auto& lib : *libs)
      if (lib.is_object() && lib.value("loader_pick", false)) {
        std::string soname = json_string(lib, "soname").empty() ? json_string(lib, "name") : json_string(lib, "soname");
        if (!soname.empty()) sw[soname] = json_string(lib, "version") + " at " + json_string(lib, "path");
      }
  return sw;
}

void collect_metrics(Node& n) {
  auto keep = [&](const std::string& key, const Metric& m) {
    if (m.better != "higher" && m.better != "lower") return;  // informational: no direction to be worse in
    if (!std::isfinite(m.value)) return;
    auto [it, fresh] = n.metrics.emplace(key, m.value);
    n.better[key] = m.better;
    if (!fresh) it->second = m.better == "higher" ? std::min(it->second, m.value) : std::max(it->second, m.value);
  };
  for (const auto* f : n.report.findings()) {
    for (auto& m : f->metrics) keep(f->id + " " + m.name, m);
    for (auto& d : f->devices)
      for (auto& m : d.metrics) keep(f->id + " " + m.name, m);  // the node's worst GPU speaks for it
  }
}

// A host name that is safe inside a printed scontrol command; anything else gets no command.
bool plain_host(const std::string& h) {
  return !h.empty() && h.size() < 256 && h.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_") == std::string::npos;
}

// A drain reason built from report text (probe ids, metric names: read, not trusted) that is safe inside
// single quotes in any POSIX shell: only plain characters survive, the rest become '_', at most 120.
std::string quoted_reason(const std::string& reason) {
  std::string out;
  for (char c : reason) {
    bool plain = std::isalnum(static_cast<unsigned char>(c)) || std::string(" .,:;=<>()%+-_/").find(c) != std::string::npos;
    out += plain ? c : '_';
    if (out.size() >= 120) break;
  }
  return "'" + out + "'";
}

}  // namespace

model::Report fleet_report(model::Report rep, const std::vector<std::string>& inputs, std::vector<FleetFile> files, const FleetOptions& o) {
  std::map<std::string, Node> by_host;
  std::map<std::string, std::vector<std::string>> reports_of;  // host -> every file reporting it
  std::map<std::string, std::string> newest_of;
  std::vector<Node> unreadable;
  std::vector<std::pair<std::string, Finding>> multi_node;  // file, probe result
  for (auto& file : files) {
    Node n;
    n.file = file.path;
    if (file.probe) {
      multi_node.emplace_back(file.path, std::move(*file.probe));
      continue;
    }
    if (!file.report) {
      n.name = fs::path(file.path).filename().string();
      n.problem = file.problem;
      unreadable.push_back(std::move(n));
      continue;
    }
    n.report = std::move(*file.report);
    n.name = n.report.meta.hostname.empty() ? file.path : n.report.meta.hostname;
    if (auto it = n.report.meta.environment.find("SLURMD_NODENAME"); it != n.report.meta.environment.end())
      n.slurm_name = it->second;
    auto it = by_host.find(n.name);
    reports_of[n.name].push_back(file.path);
    if (it == by_host.end() || it->second.report.meta.finished_at < n.report.meta.finished_at) {
      newest_of[n.name] = file.path;
      by_host[n.name] = std::move(n);
    }
  }
  // Two reports of one node: the newer is judged, and the merge says so (a copied report with a later
  // finished_at would otherwise replace the real one without a word).
  for (const auto& [host, files] : reports_of)
    if (files.size() > 1)
      rep.notes.push_back(on_one_line(host + ": " + std::to_string(files.size()) + " reports (" + join(files, ", ") +
                                      "); only the newest by finished_at is judged: " + newest_of[host]));

  std::vector<Node> nodes;
  for (auto& [host, n] : by_host) {
    n.gpu_model = gpu_model(n.report.inventory);
    n.software = software_of(n.report);
    collect_metrics(n);
    nodes.push_back(std::move(n));
  }

  // Reasons per node, filled by each rule.
  std::map<std::string, std::vector<std::string>> reject, incomplete;
  std::vector<Finding> outliers, drift;  // become sections at the end (a reference into sections would dangle)

  for (auto& n : nodes) {
    if (n.report.meta.command != "run") incomplete[n.name].push_back("not a `gpucheck run` report (" + n.report.meta.command + ")");
    for (const auto* f : n.report.findings()) {
      if (f->status == Status::kFail) reject[n.name].push_back(f->id + " failed: " + f->summary);
      if (f->status == Status::kError) incomplete[n.name].push_back(f->id + " has no verdict: " + f->summary);
    }
  }

  // Outliers among the nodes of one GPU model, per metric, on the bad side only.
  std::map<std::string, std::vector<Node*>> by_model;
  for (auto& n : nodes) by_model[n.gpu_model].push_back(&n);
  for (auto& [model, group] : by_model) {
    std::set<std::string> keys;
    for (auto* n : group)
      for (auto& [k, v] : n->metrics) keys.insert(k);
    for (auto& key : keys) {
      std::vector<double> values;
      for (auto* n : group)
        if (n->metrics.count(key)) values.push_back(n->metrics[key]);
      std::string better;
      for (auto* n : group)
        if (n->metrics.count(key)) better = n->better[key];
      PeerJudgement j = judge_peers(values, o.peer, better == "higher");
      if (!j.judged) continue;
      std::size_t i = 0;
      for (auto* n : group) {
        if (!n->metrics.count(key)) continue;
        const std::size_t at = i++;
        if (!j.low[at]) continue;
        double v = n->metrics[key], med = j.median, mad = j.mad, z = j.z[at], rel = j.worse_by[at];
        std::string why = mad > 0 ? fmt::format("{:.0f}% worse, robust z {:.1f} > {}", 100 * rel, z, o.peer.outlier_z)
                                  : fmt::format("{:.1f}% worse, the others agree exactly", 100 * rel);
        Finding f;
        f.id = "fleet.outlier";
        f.status = Status::kFail;
        f.title = n->name + ": " + key + " below its peers";
        f.summary = fmt::format("{} {} = {:.4g} against a median of {:.4g} over {} nodes of {} ({})", n->name, key, v,
                                med, values.size(), model, why);
        f.evidence["node"] = n->name;
        f.evidence["metric"] = key;
        f.evidence["value"] = fmt::format("{:.6g}", v);
        f.evidence["median"] = fmt::format("{:.6g}", med);
        f.evidence["MAD"] = fmt::format("{:.6g}", mad);
        outliers.push_back(f);
        reject[n->name].push_back(key + fmt::format(" {:.4g} vs median {:.4g} ({})", v, med, why));
      }
    }
  }

  // Software drift: a fact whose value on a node differs from what most nodes have.
  if (nodes.size() >= 2) {
    std::set<std::string> facts;
    for (auto& n : nodes)
      for (auto& [k, v] : n.software) facts.insert(k);
    for (auto& fact : facts) {
      std::map<std::string, std::vector<std::string>> hosts_by_value;
      for (auto& n : nodes) {
        auto it = n.software.find(fact);
        hosts_by_value[it == n.software.end() ? "(absent)" : it->second].push_back(n.name);
      }
      if (hosts_by_value.size() < 2) continue;
      auto majority = std::max_element(hosts_by_value.begin(), hosts_by_value.end(),
                                       [](auto& a, auto& b) { return a.second.size() < b.second.size(); });
      bool tie = std::count_if(hosts_by_value.begin(), hosts_by_value.end(), [&](auto& e) {
                   return e.second.size() == majority->second.size();
                 }) > 1;
      for (auto& [value, hosts] : hosts_by_value) {
        if (!tie && value == majority->first) continue;
        Finding f;
        f.id = "fleet.drift";
        f.status = tie ? Status::kWarn : Status::kFail;
        f.title = fact + " differs";
        f.summary = tie ? fmt::format("{}: {} on {} (no majority)", fact, value, join(hosts, ", "))
                        : fmt::format("{}: {} on {}, {} on the other {} nodes", fact, value, join(hosts, ", "),
                                      majority->first, majority->second.size());
        f.evidence["fact"] = fact;
        f.evidence["value"] = value;
        f.evidence["nodes"] = join(hosts, ", ");
        if (!tie) f.evidence["fleet"] = majority->first;
        drift.push_back(f);
        if (!tie)
          for (auto& h : hosts) reject[h].push_back(fact + " is " + value + ", not " + majority->first);
      }
    }
  }

  // Multi-node probes: a failed rank rejects its host, a rank without a verdict leaves it incomplete.
  std::vector<Finding> across;
  for (auto& [file, f] : multi_node) {
    for (const auto& d : f.devices) {
      std::string host;
      for (const auto& e : d.evidence)
        if (e.what == "host") host = e.value;
      if (host.empty()) continue;
      std::string why = f.id + " across the fleet: " + d.device + " " + to_string(d.status) +
                        (d.summary.empty() ? "" : ": " + d.summary);
      if (d.status == Status::kFail) reject[host].push_back(why);
      else if (d.status == Status::kError) incomplete[host].push_back(why);
    }
    f.evidence["file"] = file;
    across.push_back(f);
  }

  // Expected nodes without any report: never accepted by absence.
  for (const auto& want : o.expect) {
    bool found = false;
    for (auto& n : nodes)
      found = found || n.name == want || n.slurm_name == want || n.name.substr(0, n.name.find('.')) == want;
    for (auto& n : unreadable) found = found || n.name == want;
    if (found) continue;
    Node missing;
    missing.name = want;
    missing.problem = "no report from this node in " + join(inputs, ", ") + " (its run did not finish or wrote elsewhere)";
    unreadable.push_back(std::move(missing));
  }

  std::vector<Finding> verdicts;
  std::vector<std::string> rejected;
  std::vector<std::string> drain_commands;
  for (auto& n : nodes) {
    Finding f;
    f.id = "node." + n.name;
    f.title = n.name;
    f.evidence["report"] = n.file;
    f.evidence["GPUs"] = n.gpu_model;
    f.details = {{"node", n.name}, {"gpu_model", n.gpu_model}, {"exit_code", model::exit_code(n.report)}};
    if (!n.slurm_name.empty()) f.evidence["Slurm node"] = n.slurm_name;
    if (reject.count(n.name)) {
      f.status = Status::kFail;
      f.summary = "reject: " + join(reject[n.name], "; ");
      rejected.push_back(n.name);
      const std::string& target = n.slurm_name.empty() ? n.name : n.slurm_name;
      if (plain_host(target))
        drain_commands.push_back("scontrol update NodeName=" + target + " State=DRAIN Reason=" +
                                 quoted_reason("gpucheck: " + reject[n.name].front()));
    } else if (incomplete.count(n.name)) {
      f.status = Status::kError;
      f.summary = "incomplete: " + join(incomplete[n.name], "; ");
    } else {
      f.status = Status::kPass;
      f.summary = "accept";
    }
    verdicts.push_back(f);
  }
  for (auto& n : unreadable) {
    Finding f;
    f.id = "node." + n.name;
    f.title = n.name;
    f.status = Status::kError;
    f.summary = "incomplete: " + n.problem;
    f.evidence["report"] = n.file;
    verdicts.push_back(f);
  }
  rep.section("nodes").findings = std::move(verdicts);
  if (!outliers.empty()) rep.section("outliers").findings = std::move(outliers);
  if (!drift.empty()) rep.section("drift").findings = std::move(drift);
  if (!across.empty()) rep.section("across").findings = std::move(across);
  if (!rejected.empty()) {
    Finding drain;
    drain.id = "fleet.drain";
    drain.status = Status::kInfo;
    drain.title = "drain the rejected nodes";
    drain.summary = fmt::format("{} of {} nodes rejected", rejected.size(), nodes.size() + unreadable.size());
    if (drain_commands.size() < rejected.size())
      drain.evidence["no command for"] = "a node name with characters outside [A-Za-z0-9._-]";
    if (!drain_commands.empty())
      drain.add_fix("drain them until repaired (printed, never run)",
                    drain_commands);
    rep.section("actions").findings.push_back(drain);
  }
  rep.details = model::to_json(model::FleetDetails{nodes.size() + unreadable.size(), rejected.size(), o.peer});
  return rep;
}

}  // namespace gpucheck::report
