#include "collectives/pairs.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "collectives/bandwidth.h"
#include "collectives/harness.h"
#include "collectives/merge.h"
#include "collectives/plan.h"
#include "core/errors.h"

namespace gpucheck::collectives {

std::vector<int> assign_nodes(const std::vector<std::string>& keys, std::vector<std::string>* names) {
  std::map<std::string, int> index;
  std::vector<int> out;
  for (auto& k : keys) {
    auto it = index.find(k);
    if (it == index.end()) {
      it = index.emplace(k, static_cast<int>(index.size())).first;
      if (names) names->push_back(k);
    }
    out.push_back(it->second);
  }
  return out;
}

std::vector<NodePair> plan_pairs(int nodes, PairsMode mode) {
  if (mode == PairsMode::kOff) throw InputError("pairs mode is off");
  if (nodes < 2) throw InputError(fmt::format("--pairs needs at least 2 nodes, found {}", nodes));
  std::vector<NodePair> out;
  if (mode == PairsMode::kAll) {
    for (int a = 0; a < nodes; ++a)
      for (int b = a + 1; b < nodes; ++b) out.push_back({a, b});
  } else if (nodes == 2) {
    out.push_back({0, 1});
  } else {
    for (int a = 0; a < nodes; ++a) {
      int b = (a + 1) % nodes;
      out.push_back({std::min(a, b), std::max(a, b)});
    }
  }
  return out;
}

std::vector<std::vector<NodePair>> schedule_rounds(const std::vector<NodePair>& pairs) {
  std::vector<std::vector<NodePair>> rounds;
  std::vector<std::vector<int>> busy;  // nodes used per round
  for (auto& p : pairs) {
    std::size_t r = 0;
    for (; r < rounds.size(); ++r) {
      auto& b = busy[r];
      if (std::find(b.begin(), b.end(), p.a) == b.end() && std::find(b.begin(), b.end(), p.b) == b.end()) break;
    }
    if (r == rounds.size()) {
      rounds.emplace_back();
      busy.emplace_back();
    }
    rounds[r].push_back(p);
    busy[r].push_back(p.a);
    busy[r].push_back(p.b);
  }
  return rounds;
}

void classify_pairs(std::vector<PairOutcome>& outcomes) {
  std::vector<double> bws;
  for (auto& o : outcomes)
    if (o.busbw > 0 && o.error.empty() && o.wrong == 0) bws.push_back(o.busbw);
  double med = median(bws);
  for (auto& o : outcomes) {
    if (!o.error.empty()) {
      o.bad = true;
      o.reason = o.error;
    } else if (o.wrong) {
      o.bad = true;
      o.reason = fmt::format("#wrong {}", o.wrong);
    } else if (o.busbw > 0 && bws.size() >= 2 && o.busbw < 0.8 * med) {
      o.bad = true;
      o.reason = fmt::format("slow: busbw {:.2f} GB/s < 0.8 x median {:.2f} GB/s", o.busbw, med);
    }
  }
}

std::vector<int> suspect_nodes(const std::vector<PairOutcome>& outcomes, int nodes) {
  // Wrong data and errors outrank slowness: when any pair is broken, only broken pairs count, so a pair
  // that was merely slow (a busy machine) does not implicate its nodes.
  bool any_broken = false;
  for (auto& o : outcomes) any_broken = any_broken || (o.bad && (o.wrong || !o.error.empty()));
  auto counts = [&](const PairOutcome& o) { return any_broken ? o.bad && (o.wrong || !o.error.empty()) : o.bad; };
  std::vector<int> bad(static_cast<std::size_t>(nodes), 0), total(static_cast<std::size_t>(nodes), 0);
  bool any = false;
  for (auto& o : outcomes) {
    for (int n : {o.pair.a, o.pair.b}) {
      ++total[static_cast<std::size_t>(n)];
      if (counts(o)) ++bad[static_cast<std::size_t>(n)];
    }
    any = any || counts(o);
  }
  std::vector<int> out;
  if (!any) return out;
  for (int n = 0; n < nodes; ++n)
    if (total[static_cast<std::size_t>(n)] && bad[static_cast<std::size_t>(n)] == total[static_cast<std::size_t>(n)])
      out.push_back(n);
  if (!out.empty()) return out;
  int most = *std::max_element(bad.begin(), bad.end());
  for (int n = 0; n < nodes; ++n)
    if (bad[static_cast<std::size_t>(n)] == most) out.push_back(n);
  return out;
}

void run_pairs(Transport& t, const Options& o, Finding& r) {
  if (t.local_count() != 1) throw InputError("--pairs needs one process per GPU (launch with mpirun or srun)");
  const int me = t.info(0).rank;
  std::string my_key = o.node_key == "rank" ? fmt::format("rank{}", me) : t.info(0).host;
  std::vector<std::string> names;
  std::vector<int> node_of = assign_nodes(t.all_gather_strings(my_key), &names);
  const int nodes = static_cast<int>(names.size());
  auto pairs = plan_pairs(nodes, o.pairs);
  auto rounds = schedule_rounds(pairs);
  const int my_node = node_of[static_cast<std::size_t>(me)];

  // Each pair runs the sweep of the first selected dtype, no BMTrain layout cases: it is a link test.
  Options po = o;
  po.dtypes = {o.dtypes.front()};
  po.layout = false;

  std::vector<PairOutcome> outcomes;
  for (std::size_t ri = 0; ri < rounds.size(); ++ri) {
    int color = -1;
    for (std::size_t pi = 0; pi < rounds[ri].size(); ++pi)
      if (rounds[ri][pi].a == my_node || rounds[ri][pi].b == my_node) color = static_cast<int>(pi);
    std::string mine;
    auto sub = t.split(color, me);
    if (sub) {
      // --corrupt-rank names a world rank; inside the pair this process has a new rank number.
      Options pair_opts = po;
      pair_opts.corrupt_rank.reset();
      if (o.corrupt_rank && *o.corrupt_rank == me) pair_opts.corrupt_rank = sub->info(0).rank;
      pair_opts.hang_rank.reset();
      if (o.hang_rank && *o.hang_rank == me) pair_opts.hang_rank = sub->info(0).rank;
      auto plan = make_plan(pair_opts, sub->world());
      auto reports = run_plan(*sub, plan, pair_opts);
      bool stopped = false;
      for (auto& rep : reports) stopped = stopped || !rep.error.empty();
      if (stopped) sub->abort();
      // A stopped pair cannot gather over its own communicator; each rank reports its own view instead.
      PairOutcome out;
      out.pair = rounds[ri][static_cast<std::size_t>(color)];
      std::vector<RankReport> all;
      if (!stopped) {
        nlohmann::json arr = nlohmann::json::array();
        for (auto& rep : reports) arr.push_back(to_json(rep));
        for (auto& s : sub->gather_to_root(arr.dump()))
          for (auto& j : nlohmann::json::parse(s)) all.push_back(rank_report_from_json(j));
      } else {
        all = reports;
      }
      if (sub->is_root_process() || stopped) {
        auto rows = merge_rows(all, plan, sub->world());
        std::vector<std::pair<std::size_t, double>> pts;
        for (auto& row : rows) {
          out.wrong += row.wrong;
          if (row.spec->kind == CaseKind::kSweep && !row.spec->in_place && row.time_us > 0 &&
              row.spec->op == po.ops.front())
            pts.emplace_back(row.bytes, row.busbw);
        }
        for (auto& rep : all)
          if (!rep.error.empty()) out.error = rep.error;
        if (auto p = plateau_busbw(pts)) out.busbw = *p;
        mine = nlohmann::json{{"a", out.pair.a}, {"b", out.pair.b}, {"wrong", out.wrong}, {"error", out.error},
                              {"busbw", out.busbw}}.dump();
      }
    }
    for (auto& s : t.gather_to_root(mine)) {
      if (s.empty()) continue;
      auto j = nlohmann::json::parse(s);
      PairOutcome p;
      p.pair = {j["a"].get<int>(), j["b"].get<int>()};
      p.wrong = j["wrong"].get<std::size_t>();
      p.error = j["error"].get<std::string>();
      p.busbw = j["busbw"].get<double>();
      // one entry per pair (a stopped pair may report from each of its ranks)
      auto same = std::find_if(outcomes.begin(), outcomes.end(), [&](auto& x) { return x.pair == p.pair; });
      if (same == outcomes.end()) outcomes.push_back(p);
      else if (same->error.empty()) same->error = p.error;
    }
  }
  if (!t.is_root_process()) return;

  classify_pairs(outcomes);
  auto suspects = suspect_nodes(outcomes, nodes);
  nlohmann::json jp = nlohmann::json::array();
  std::size_t bad = 0;
  for (auto& p : outcomes) {
    bad += p.bad ? 1 : 0;
    nlohmann::json j{{"nodes", {names[static_cast<std::size_t>(p.pair.a)], names[static_cast<std::size_t>(p.pair.b)]}},
                     {"status", p.bad ? "fail" : "pass"}, {"wrong", p.wrong}};
    if (p.busbw > 0) j["busbw_gbps"] = p.busbw;
    if (p.bad) j["reason"] = p.reason;
    jp.push_back(j);
    DeviceFinding d;
    d.device = fmt::format("pair {} + {}", names[static_cast<std::size_t>(p.pair.a)], names[static_cast<std::size_t>(p.pair.b)]);
    d.status = p.bad ? Status::kFail : Status::kPass;
    d.summary = p.bad ? p.reason : fmt::format("bit-exact, busbw {:.2f} GB/s", p.busbw);
    if (p.busbw > 0) d.metrics.push_back({"busbw_plateau", p.busbw, "GB/s", "higher"});
    r.devices.push_back(d);
  }
  std::vector<std::string> suspect_names;
  for (int n : suspects) suspect_names.push_back(names[static_cast<std::size_t>(n)]);
  r.details = {{"mode", o.pairs == PairsMode::kAll ? "all" : "neighbour"}, {"node_key", o.node_key},
               {"nodes", names}, {"rounds", rounds.size()}, {"pairs", jp}, {"suspects", suspect_names}};
  r.evidence["nodes"] = std::to_string(nodes);
  r.evidence["pairs"] = std::to_string(outcomes.size());
  r.evidence["rounds"] = std::to_string(rounds.size());
  r.add_metric("bad_pairs", static_cast<double>(bad), "count", "lower");
  if (bad) {
    r.status = Status::kFail;
    std::string list;
    for (auto& s : suspect_names) list += (list.empty() ? "" : ", ") + s;
    r.summary = fmt::format("{} of {} node pairs bad; suspect: {}", bad, outcomes.size(), list);
    r.add_fix("drain the suspect node(s) and rerun --pairs all on the rest; check their NICs "
                       "(ibstat, link flaps) and GPUs (dmesg Xid)");
  } else {
    r.status = Status::kPass;
    r.summary = fmt::format("all {} node pairs bit-exact over {} rounds, no slow pair", outcomes.size(), rounds.size());
  }
}

}  // namespace gpucheck::collectives
