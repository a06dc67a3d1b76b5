// Prometheus text exposition for node_exporter's textfile collector: every check's status and duration,
// every metric a probe measured (bandwidths, TFLOP/s, busbw) with its unit and device as labels, the stack
// as an info metric, and when the report was made, so a dashboard can alert on a node that went stale.
#include <cmath>
#include <ctime>
#include <set>
#include <string>

#include <fmt/format.h>

#include "model/verdict.h"
#include "render/render.h"
#include "render/stack_facts.h"
#include "render/terminal_safe.h"

namespace gpucheck::render {
namespace {

std::string label(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", v);
}

// "2026-12-01T12:16:43Z" as seconds since the epoch; nullopt when it is not that shape.
std::optional<long long> epoch_seconds(const std::string& iso) {
  std::tm tm{};
  if (iso.size() != 20 || !strptime(iso.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm)) return std::nullopt;
  return static_cast<long long>(timegm(&tm));
}

// Label names from the stack facts: "CUDA (driver)" -> "cuda_driver".
std::string label_name(const std::string& fact) {
  std::string out;
  for (char c : fact) {
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!out.empty() && out.back() != '_') out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

int rank(Status s) { return static_cast<int>(s); }

}  // namespace

void render_prometheus(const model::Report& unsafe, std::ostream& out, const RenderOptions& o) {
  const model::Report r = terminal_safe_copy(unsafe);
  const model::Verdict s = model::verdict(r, o.program);

  out << "# HELP gpucheck_info The tool and the stack the last report was made on (value always 1).\n"
         "# TYPE gpucheck_info gauge\n";
  std::string labels = fmt::format("command=\"{}\",version=\"{}\",hostname=\"{}\",verdict=\"{}\"", label(r.meta.command),
                                   label(r.meta.tool_version), label(r.meta.hostname), label(s.word));
  for (auto& [name, value] : stack_facts(r)) labels += fmt::format(",{}=\"{}\"", label_name(name), label(value));
  out << "gpucheck_info{" << labels << "} 1\n";

  out << "# HELP gpucheck_exit_code The exit code of the command (0 ok, 1 failed, 3 no verdict).\n"
         "# TYPE gpucheck_exit_code gauge\n"
      << fmt::format("gpucheck_exit_code{{command=\"{}\"}} {}\n", label(r.meta.command), s.exit_code);
  out << "# HELP gpucheck_verdict_info The report's verdict with its counts, and the next step (value always 1).\n"
         "# TYPE gpucheck_verdict_info gauge\n"
      << fmt::format("gpucheck_verdict_info{{command=\"{}\",verdict=\"{}\",line=\"{}\",next_step=\"{}\",next_command=\"{}\"}} 1\n",
                     label(r.meta.command), label(s.word), label(s.line), label(s.next.advice), label(s.next.command));
  out << "# HELP gpucheck_findings How many findings have each status.\n"
         "# TYPE gpucheck_findings gauge\n";
  for (Status st : all_statuses())
    out << fmt::format("gpucheck_findings{{command=\"{}\",status=\"{}\"}} {}\n", label(r.meta.command), to_string(st),
                       s.counts.count(to_string(st)) ? s.counts.at(to_string(st)) : 0);
  out << "# HELP gpucheck_fix_info A fix of a finding that needs attention, one series per command of it (value always 1).\n"
         "# TYPE gpucheck_fix_info gauge\n";
  for (const auto* f : model::attention(r))
    for (const auto& fix : f->fixes) {
      if (fix.commands.empty())
        out << fmt::format("gpucheck_fix_info{{check=\"{}\",rank=\"{}\",fix=\"{}\",step=\"0\",command=\"\"}} 1\n",
                           label(f->id), fix.rank, label(fix.summary));
      for (std::size_t i = 0; i < fix.commands.size(); ++i)
        out << fmt::format("gpucheck_fix_info{{check=\"{}\",rank=\"{}\",fix=\"{}\",step=\"{}\",command=\"{}\"}} 1\n",
                           label(f->id), fix.rank, label(fix.summary), i + 1, label(fix.commands[i]));
    }
  if (auto t = epoch_seconds(r.meta.finished_at.empty() ? r.meta.started_at : r.meta.finished_at))
    out << "# HELP gpucheck_report_timestamp_seconds When the report was finished (Unix time).\n"
           "# TYPE gpucheck_report_timestamp_seconds gauge\n"
        << fmt::format("gpucheck_report_timestamp_seconds{{command=\"{}\"}} {}\n", label(r.meta.command), *t);

  out << "# HELP gpucheck_check_status Outcome of each check: 0 pass, 1 info, 2 skip, 3 warn, 4 fail, 5 error.\n"
         "# TYPE gpucheck_check_status gauge\n";
  std::set<std::string> seen;  // one series per label set: a repeated id keeps its first
  for (auto& section : r.sections)
    for (auto& f : section.findings) {
      std::string key = fmt::format("section=\"{}\",check=\"{}\"", label(section.name), label(f.id));
      if (!seen.insert(key).second) continue;
      out << fmt::format("gpucheck_check_status{{{},status=\"{}\"}} {}\n", key, to_string(f.status), rank(f.status));
    }
  out << "# HELP gpucheck_check_duration_seconds How long each check took.\n"
         "# TYPE gpucheck_check_duration_seconds gauge\n";
  seen.clear();
  for (auto& section : r.sections)
    for (auto& f : section.findings) {
      std::string key = fmt::format("section=\"{}\",check=\"{}\"", label(section.name), label(f.id));
      if (!seen.insert(key).second) continue;
      out << fmt::format("gpucheck_check_duration_seconds{{{}}} {}\n", key, number(f.duration_s));
    }

  out << "# HELP gpucheck_check_metric A value a check measured; its unit is the unit label.\n"
         "# TYPE gpucheck_check_metric gauge\n";
  seen.clear();
  auto metric = [&](const std::string& check, const std::string& device, const Metric& m) {
    std::string key = fmt::format("check=\"{}\",device=\"{}\",metric=\"{}\",unit=\"{}\"", label(check), label(device),
                                  label(m.name), label(m.unit));
    if (seen.insert(key).second) out << fmt::format("gpucheck_check_metric{{{}}} {}\n", key, number(m.value));
  };
  for (const auto* f : r.findings()) {
    for (auto& m : f->metrics) metric(f->id, "", m);
    for (auto& d : f->devices)
      for (auto& m : d.metrics) metric(f->id, d.device, m);
  }
}

}  // namespace gpucheck::render
