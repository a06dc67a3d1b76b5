#include "collectives/merge.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "collectives/bandwidth.h"
#include "collectives/table.h"

namespace gpucheck::collectives {

namespace {

std::string sweep_name(const CaseSpec& c) {
  std::string s = to_string(c.op);
  if (c.redop != RedOp::kNone) s += std::string(".") + to_string(c.redop);
  return s + "." + to_string(c.dtype);
}

std::string hex_bits(DType t, std::uint32_t b) {
  return fmt::format("0x{:0{}x}", b, static_cast<int>(dtype_size(t) * 2));
}

}  // namespace

std::vector<Row> merge_rows(const std::vector<RankReport>& ranks, const std::vector<CaseSpec>& plan, int world) {
  std::vector<std::map<std::string, const CaseOutcome*>> by_key(ranks.size());
  for (std::size_t k = 0; k < ranks.size(); ++k)
    for (auto& c : ranks[k].cases) by_key[k][c.key] = &c;
  std::vector<Row> rows;
  for (auto& spec : plan) {
    Row row;
    row.spec = &spec;
    row.bytes = spec.bytes(world);
    double tsum = 0;
    int tn = 0;
    for (std::size_t k = 0; k < ranks.size(); ++k) {
      auto it = by_key[k].find(spec.key);
      if (it == by_key[k].end()) continue;
      const CaseOutcome& o = *it->second;
      ++row.ranks_reported;
      row.checked += o.checked;
      if (o.wrong && (row.first_bad_rank < 0 || ranks[k].info.rank < row.first_bad_rank)) {
        row.first_bad_rank = ranks[k].info.rank;
        row.first_bad_index = o.first_index;
        row.expected_bits = o.expected_bits;
        row.got_bits = o.got_bits;
      }
      row.wrong += o.wrong;
      if (o.wrong) row.wrong_by_rank.push_back({ranks[k].info.rank, o.wrong, o.first_index});
      if (o.time_s >= 0) {
        tsum += o.time_s;
        ++tn;
      }
    }
    std::sort(row.wrong_by_rank.begin(), row.wrong_by_rank.end(), [](auto& a, auto& b) { return a.rank < b.rank; });
    if (tn) {
      double t = tsum / tn;
      row.time_us = t * 1e6;
      row.algbw = algbw_gbps(row.bytes, t);
      row.busbw = row.algbw * bus_factor(spec.op, world);
    }
    rows.push_back(row);
  }
  return rows;
}

namespace {
// With one rank an in-place collective has nothing to move or combine: the output already holds the input
// before the call, so "bit-exact" would pass without NCCL having written a byte. Such cases are reported
// as not exercised and their elements are not counted as verified.
bool not_exercised(const Row& row, int world) { return world == 1 && row.spec->in_place; }
}  // namespace

void merge_into_result(const std::vector<RankReport>& ranks, const std::vector<CaseSpec>& plan, const Options& o,
                       const std::string& transport, int world, Finding& r) {
  std::vector<Row> rows = merge_rows(ranks, plan, world);
  std::set<std::string> hosts;
  for (auto& k : ranks) hosts.insert(k.info.host);

  // Plateau per sweep (op, redop, dtype), out-of-place and in-place separately.
  struct Sweep {
    std::vector<std::pair<std::size_t, double>> oop, ip;
  };
  std::map<std::string, Sweep> sweeps;
  std::vector<std::string> sweep_order;
  for (auto& row : rows) {
    if (row.spec->kind != CaseKind::kSweep || row.time_us < 0) continue;
    std::string n = sweep_name(*row.spec);
    if (!sweeps.count(n)) sweep_order.push_back(n);
    (row.spec->in_place ? sweeps[n].ip : sweeps[n].oop).emplace_back(row.bytes, world > 1 ? row.busbw : row.algbw);
  }

  // One rank has no bus (factor 0): its plateau is reported as algbw, never as a busbw of 0.
  const std::string plateau_metric = world > 1 ? "busbw_plateau." : "algbw_plateau.";
  nlohmann::json details;
  details["transport"] = transport;
  details["world"] = world;
  details["hosts"] = hosts.size();
  details["plateau_rule"] = "median busbw over the largest max(3, ceil(n/4)) sizes of each sweep";
  details["busbw_factor"] = "nccl-tests: all_reduce 2(n-1)/n, all_gather and reduce_scatter (n-1)/n, broadcast 1";
  nlohmann::json jrows = nlohmann::json::array();
  for (auto& row : rows) {
    nlohmann::json j{{"key", row.spec->key},       {"label", row.spec->label},
                     {"op", to_string(row.spec->op)}, {"redop", to_string(row.spec->redop)},
                     {"dtype", to_string(row.spec->dtype)}, {"count", row.spec->count},
                     {"bytes", row.bytes},         {"in_place", row.spec->in_place},
                     {"wrong", row.wrong},         {"checked", row.checked},
                     {"ranks", row.ranks_reported}};
    if (not_exercised(row, world)) j["exercised"] = false;
    if (row.time_us >= 0) {
      j["time_us"] = row.time_us;
      j["algbw_gbps"] = row.algbw;
      j["busbw_gbps"] = row.busbw;
    }
    if (row.first_bad_rank >= 0) {
      j["first_bad_rank"] = row.first_bad_rank;
      j["first_bad_index"] = row.first_bad_index;
      j["expected_bits"] = hex_bits(row.spec->dtype, row.expected_bits);
      j["got_bits"] = hex_bits(row.spec->dtype, row.got_bits);
      nlohmann::json per = nlohmann::json::array();
      for (auto& w : row.wrong_by_rank) per.push_back({{"rank", w.rank}, {"wrong", w.wrong}, {"first_index", w.first_index}});
      j["wrong_by_rank"] = per;
    }
    jrows.push_back(j);
  }
  details["rows"] = jrows;
  details["table"] = render_table(rows);

  // One rank: algbw against the same-run device-to-device copy (rank 0's; one rank is one GPU).
  std::optional<double> copy_gbps;
  if (world == 1 && !ranks.empty() && ranks.front().copy) {
    const CopyBaseline& c = *ranks.front().copy;
    nlohmann::json jc{{"bytes", c.bytes},
                      {"rule", "cudaMemcpyAsync device to device of the largest sweep size on the collectives' "
                               "stream, warm-up then --iters back to back, bytes counted once (as device.copy)"}};
    if (c.time_s > 0) {
      copy_gbps = algbw_gbps(c.bytes, c.time_s);
      jc["time_us"] = c.time_s * 1e6;
      jc["gbps"] = *copy_gbps;
      r.add_metric("copy_d2d", *copy_gbps, "GB/s", "higher");
    } else {
      jc["error"] = c.error.empty() ? "not measured" : c.error;
    }
    details["copy_d2d"] = jc;
  }

  nlohmann::json plateaus = nlohmann::json::array();
  std::vector<std::string> slow;
  for (auto& n : sweep_order) {
    auto& s = sweeps[n];
    auto p_oop = plateau_busbw(s.oop);
    auto p_ip = plateau_busbw(s.ip);
    nlohmann::json j{{"sweep", n}, {"metric", world > 1 ? "busbw" : "algbw"}, {"sizes", s.oop.size()},
                     {"points", plateau_points(s.oop.size())}};
    if (p_oop) {
      j["out_of_place_gbps"] = *p_oop;
      r.add_metric(plateau_metric + n, *p_oop, "GB/s", "higher");
      if (copy_gbps) {
        j["ratio_to_copy"] = *p_oop / *copy_gbps;
        r.add_metric("algbw_ratio_to_copy." + n, *p_oop / *copy_gbps, "ratio", "higher");
      }
      if (o.min_busbw && world > 1 && *p_oop < *o.min_busbw)
        slow.push_back(fmt::format("{} plateau busbw {:.2f} GB/s < --min-busbw {:.2f}", n, *p_oop, *o.min_busbw));
    }
    if (p_ip) j["in_place_gbps"] = *p_ip;
    plateaus.push_back(j);
  }
  details["plateau"] = plateaus;

  // Per-rank devices: the rank's own wrong counts and plateau busbw from its own times.
  std::map<std::string, const CaseSpec*> spec_by_key;
  for (auto& s : plan) spec_by_key[s.key] = &s;
  nlohmann::json jranks = nlohmann::json::array();
  for (auto& k : ranks) {
    DeviceFinding d;
    d.device = fmt::format("rank {} on {}", k.info.rank, k.info.host);
    d.evidence["host"] = k.info.host;
    d.evidence["gpu"] = k.info.device;
    d.evidence["rank"] = std::to_string(k.info.rank);
    std::size_t wrong = 0;
    std::string first_bad;
    std::map<std::string, std::vector<std::pair<std::size_t, double>>> mine;
    for (auto& c : k.cases) {
      auto it = spec_by_key.find(c.key);
      if (it == spec_by_key.end()) continue;
      const CaseSpec& s = *it->second;
      wrong += c.wrong;
      if (c.wrong && first_bad.empty())
        first_bad = fmt::format("{}: {} wrong, first at index {}", s.label, c.wrong, c.first_index);
      if (s.kind == CaseKind::kSweep && !s.in_place && c.time_s > 0)
        mine[sweep_name(s)].emplace_back(s.bytes(world), world > 1 ? busbw_gbps(s.op, s.bytes(world), c.time_s, world)
                                                                   : algbw_gbps(s.bytes(world), c.time_s));
    }
    nlohmann::json jr{{"rank", k.info.rank}, {"host", k.info.host}, {"device", k.info.device}, {"wrong", wrong}};
    for (auto& [n, pts] : mine)
      if (auto p = plateau_busbw(pts)) {
        d.metrics.push_back({plateau_metric + n, *p, "GB/s", "higher"});
        jr[plateau_metric.substr(0, plateau_metric.size() - 1)][n] = *p;
      }
    if (!k.error.empty()) {
      d.status = Status::kFail;
      d.summary = k.error;
    } else if (wrong) {
      d.status = Status::kFail;
      d.summary = fmt::format("#wrong {}: {}", wrong, first_bad);
    } else {
      d.status = Status::kPass;
      d.summary = fmt::format("{} cases, every element bit-exact", k.cases.size());
    }
    jr["status"] = to_string(d.status);
    jranks.push_back(jr);
    r.devices.push_back(d);
  }
  details["ranks"] = jranks;
  r.details = details;

  std::size_t total_wrong = 0, total_checked = 0, bad_cases = 0, unexercised = 0;
  const Row* first_bad = nullptr;
  for (auto& row : rows) {
    total_wrong += row.wrong;
    if (not_exercised(row, world)) ++unexercised;
    else total_checked += row.checked;
    if (row.wrong) {
      ++bad_cases;
      if (!first_bad) first_bad = &row;
    }
  }
  r.add_metric("wrong_elements", static_cast<double>(total_wrong), "count", "lower");
  r.add_metric("checked_elements", static_cast<double>(total_checked), "count");
  r.evidence["transport"] = transport;
  r.evidence["world_size"] = std::to_string(world);
  r.evidence["hosts"] = std::to_string(hosts.size());
  r.evidence["cases"] = std::to_string(plan.size());
  r.evidence["verification"] = "bit-exact: inputs whose every partial sum is exactly representable, every output element compared";
  if (unexercised) r.evidence["not_exercised"] = fmt::format("{} in-place cases: one rank, nothing to move in place", unexercised);

  const RankReport* stopped = nullptr;
  for (auto& k : ranks)
    if (!k.error.empty() && (!stopped || (k.timed_out && !stopped->timed_out))) stopped = &k;

  // The summary quotes the plateau of every collective for the first data type swept: busbw, or with one
  // rank (no bus) algbw over the same-run copy.
  const std::string first_dtype = plan.empty() ? "" : to_string(plan.front().dtype);
  auto first_dtype_plateaus = [&](double divisor) {
    std::string out;
    for (auto& n : sweep_order) {
      if (n.size() < first_dtype.size() || n.compare(n.size() - first_dtype.size(), first_dtype.size(), first_dtype) != 0)
        continue;
      if (auto p = plateau_busbw(sweeps[n].oop))
        out += fmt::format("{}{} {:.2f}", out.empty() ? "" : ", ", n.substr(0, n.size() - first_dtype.size() - 1),
                           *p / divisor);
    }
    return out;
  };
  std::string perf;
  if (!sweep_order.empty() && world == 1) {
    perf = copy_gbps ? fmt::format("; 1 rank, no bus: plateau algbw / same-run D2D copy ({:.0f} GB/s) ({}): {}",
                                   *copy_gbps, first_dtype, first_dtype_plateaus(*copy_gbps))
                     : "; 1 rank: busbw is not meaningful (bus factor 0), the library and buffers were verified";
    if (unexercised) perf += fmt::format("; {} in-place cases not exercised (one rank: nothing to move in place)", unexercised);
  } else if (!sweep_order.empty()) {
    perf = first_dtype_plateaus(1.0);
    if (!perf.empty()) perf = fmt::format("; plateau busbw GB/s ({}): {}", first_dtype, perf);
  }

  if (stopped) {
    r.status = Status::kFail;
    r.summary = fmt::format("rank {}: {}", stopped->info.rank, stopped->error);
    r.add_fix("rerun with NCCL_DEBUG=INFO; across nodes bisect with --pairs all to find the node or link");
  } else if (static_cast<int>(ranks.size()) < world) {
    r.status = Status::kFail;
    r.summary = fmt::format("only {} of {} ranks reported results", ranks.size(), world);
  } else if (total_wrong) {
    r.status = Status::kFail;
    r.summary = fmt::format("#wrong {} in {} of {} cases; first: {} on rank {}, index {} (expected {}, got {})",
                            total_wrong, bad_cases, plan.size(), first_bad->spec->label, first_bad->first_bad_rank,
                            first_bad->first_bad_index, hex_bits(first_bad->spec->dtype, first_bad->expected_bits),
                            hex_bits(first_bad->spec->dtype, first_bad->got_bits));
    r.add_fix("a collective returned wrong data: run with --pairs all to find the node or link, check "
                       "dmesg for Xid errors and `nvidia-smi topo -m`, and try NCCL_PROTO=Simple / NCCL_ALGO=Ring "
                       "to isolate a protocol bug");
  } else if (!slow.empty()) {
    r.status = Status::kFail;
    r.summary = fmt::format("{} ({} elements verified bit-exact)", slow.front(), total_checked);
  } else {
    r.status = Status::kPass;
    r.summary = fmt::format("{} rank(s) on {} host(s) over {}: {} cases, {} elements bit-exact, 0 wrong{}", world,
                            hosts.size(), transport, plan.size(), total_checked, perf);
  }
}

}  // namespace gpucheck::collectives
