#include "step_report.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/text.h"

namespace gpucheck::training {

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// The job's step time: the slowest rank of each step, the median over the steps.
double step_seconds(const std::vector<RankOutcome>& ranks) {
  std::vector<double> per_step;
  for (std::size_t s = 0; s < ranks.front().step_seconds.size(); ++s) {
    double worst = 0;
    for (auto& r : ranks) worst = std::max(worst, r.step_seconds[s]);
    per_step.push_back(worst);
  }
  return median(per_step);
}

}  // namespace

void fill_world_result(const std::vector<DtypeOutcome>& outcomes, int world, const std::string& transport, Finding& r) {
  r.status = Status::kPass;
  std::vector<std::string> parts, failures;
  nlohmann::json details = {{"world", world}, {"transport", transport}, {"dtypes", nlohmann::json::object()}};
  for (auto& o : outcomes) {
    const std::string dt = kernels::to_string(o.config.dtype);
    std::optional<Divergence> first;
    std::map<std::string, ErrorStats> stats;
    for (auto& rank : o.ranks) {
      if (rank.first && (!first || earlier(*rank.first, *first))) first = rank.first;
      for (auto& [kind, s] : rank.stats) {
        ErrorStats& t = stats[kind];
        t.checked += s.checked, t.max_abs = std::max(t.max_abs, s.max_abs), t.max_rel = std::max(t.max_rel, s.max_rel);
        t.worst_ratio = std::max(t.worst_ratio, s.worst_ratio);
      }
    }
    const double secs = step_seconds(o.ranks);
    r.add_metric("step_ms_" + dt, secs * 1e3, "ms", "lower");
    for (auto& [kind, s] : stats) r.add_metric(fmt::format("max_rel_error.{}.{}", kind, dt), s.max_rel, "");
    std::vector<int> want_skipped;
    for (std::size_t s = 0; s < o.reference.skipped.size(); ++s)
      if (o.reference.skipped[s]) want_skipped.push_back(static_cast<int>(s + 1));
    const auto& r0 = o.ranks.front();
    nlohmann::json d = {{"stats", stats},
                        {"loss", nlohmann::json::array()},
                        {"reference_loss", o.reference.loss},
                        {"scale", r0.scale},
                        {"skipped", r0.skipped},
                        {"reference_skipped", want_skipped},
                        {"step_ms", secs * 1e3}};
    for (auto& rank : o.ranks) d["loss"].push_back(rank.loss);
    if (first) {
      d["first_divergence"] = *first;
      failures.push_back(dt + ": first divergence at " + first->sentence());
    } else {
      parts.push_back(fmt::format("{} loss {:.4f} -> {:.4f} (reference {:.4f} -> {:.4f})", dt, r0.loss.front(),
                                  r0.loss.back(), o.reference.loss.front()[0], o.reference.loss.back()[0]));
    }
    details["dtypes"][dt] = d;
    for (auto& rank : o.ranks) {
      DeviceFinding dev;
      dev.device = fmt::format("rank {} {}", rank.rank, dt);
      dev.status = rank.first ? Status::kFail : Status::kPass;
      dev.summary = rank.first ? rank.first->sentence()
                               : fmt::format("loss {:.4f} -> {:.4f}", rank.loss.front(), rank.loss.back());
      dev.evidence["rank"] = std::to_string(rank.rank);
      r.devices.push_back(dev);
    }
  }
  const StepConfig& c = outcomes.front().config;
  r.evidence["world"] = std::to_string(world);
  r.evidence["transport"] = transport;
  r.evidence["model"] = fmt::format("embedding {}x{}, {} linear {}x{}, head {}x{}; {} tokens per rank", c.vocab,
                                    c.hidden, c.linears, c.hidden, c.hidden, c.vocab, c.hidden, c.tokens);
  r.evidence["steps"] = std::to_string(c.steps);
  if (c.overflow_step) r.evidence["planted_overflow_step"] = std::to_string(c.overflow_step);
  if (c.inject != Injection::kNone)
    r.evidence["injected_fault"] = fmt::format("{} at step {}, rank {}", to_string(c.inject), c.inject_step, c.inject_rank);
  r.details = details;
  if (!failures.empty()) {
    r.status = Status::kFail;
    r.summary = fmt::format("ZeRO-3 step at W={} ({}): {}", world, transport, join(failures, "; "));
    r.explanation = "The first divergence is where the step first computed something the double-precision "
                    "reference of the same stage, from the same inputs, does not allow; later differences may "
                    "only be its consequence.";
    return;
  }
  r.summary = fmt::format("ZeRO-3 step at W={} ({}), {} steps{}: every stage within tolerance; {}", world, transport,
                          c.steps, c.overflow_step ? ", the overflow step skipped and the scale halved as BMTrain" : "",
                          join(parts, "; "));
}

void merge_worlds(const std::vector<std::pair<int, Finding>>& worlds, Finding& r) {
  Status status = Status::kPass;
  std::vector<std::string> summaries;
  r.details = {{"worlds", nlohmann::json::object()}};
  for (auto& [w, f] : worlds) {
    status = worst(status, f.status);
    summaries.push_back(f.summary);
    for (auto m : f.metrics) {
      m.name += fmt::format("_np{}", w);
      r.metrics.push_back(m);
    }
    for (auto dev : f.devices) {
      dev.device = fmt::format("np{} {}", w, dev.device);
      r.devices.push_back(dev);
    }
    for (auto& e : f.evidence) r.evidence[fmt::format("np{}.{}", w, e.what)] = e.value;
    r.details["worlds"][std::to_string(w)] = f.details;
    if (!f.explanation.empty()) r.explanation = f.explanation;
    for (auto& fix : f.fixes) r.fixes.push_back(fix);
  }
  r.status = status;
  r.summary = join(summaries, " | ");
}

}  // namespace gpucheck::training
