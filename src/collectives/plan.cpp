#include "collectives/plan.h"

#include <fmt/format.h>

#include "collectives/bandwidth.h"
#include "collectives/pattern.h"

namespace gpucheck::collectives {

std::string format_bytes(std::size_t b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  if (u == 0) return fmt::format("{} B", b);
  return v == static_cast<double>(static_cast<std::size_t>(v)) ? fmt::format("{} {}", static_cast<std::size_t>(v), units[u])
                                                               : fmt::format("{:.2f} {}", v, units[u]);
}

std::size_t CaseSpec::bytes(int world) const {
  if (kind == CaseKind::kLayoutGather || kind == CaseKind::kLayoutReduce) {
    std::size_t b = 0;
    for (auto& l : layouts) b += l.padded_total() * dtype_size(l.dtype);
    return b;
  }
  return algo_bytes(op, count, dtype, world);
}

namespace {

std::string placement(bool in_place) { return in_place ? "in" : "out"; }

CaseSpec simple(CaseKind kind, CollOp op, RedOp redop, DType t, std::size_t count, bool in_place, int world,
                const std::string& prefix) {
  CaseSpec c;
  c.kind = kind;
  c.op = op;
  c.redop = redop;
  c.dtype = t;
  c.count = count;
  c.in_place = in_place;
  std::string red = redop == RedOp::kNone ? "" : std::string(".") + to_string(redop);
  c.key = fmt::format("{}.{}{}.{}.{}.{}", prefix, to_string(op), red, to_string(t), count, placement(in_place));
  c.label = fmt::format("{}{} {} {} ({} elements{}) {}", to_string(op),
                        redop == RedOp::kNone ? "" : std::string(" ") + to_string(redop), to_string(t),
                        format_bytes(c.bytes(world)), count,
                        op == CollOp::kAllGather || op == CollOp::kReduceScatter ? " per rank" : "",
                        in_place ? "in-place" : "out-of-place");
  return c;
}

RedOp sweep_redop(CollOp op) {
  return op == CollOp::kReduceScatter || op == CollOp::kAllReduce ? RedOp::kSum : RedOp::kNone;
}

}  // namespace

std::vector<CaseSpec> make_plan(const Options& o, int world) {
  std::vector<CaseSpec> plan;
  auto sizes = sweep_sizes(o);
  for (DType t : o.dtypes) {
    for (CollOp op : o.ops) {
      std::size_t previous = 0;
      for (std::size_t s : sizes) {
        std::size_t count = s / dtype_size(t);
        if (op == CollOp::kAllGather || op == CollOp::kReduceScatter) count /= static_cast<std::size_t>(world);
        if (count == 0) count = 1;
        if (count == previous) continue;  // sizes below one element per rank collapse to the same case
        previous = count;
        for (bool in_place : {false, true})
          plan.push_back(simple(CaseKind::kSweep, op, sweep_redop(op), t, count, in_place, world, "sweep"));
      }
    }
  }
  if (!o.layout) return plan;

  // BMTrain's other collectives (specs/bmtrain.md 2.2): max and avg all-reduces, the uint8 overflow flag,
  // the one-element fp32 sum (barrier, grad-norm), DistributedParameter shards of odd sizes.
  std::size_t mid = std::min<std::size_t>(o.max_bytes / 4, std::size_t{1} << 20);
  for (DType t : o.dtypes) {
    for (std::size_t n : {std::size_t{1237}, std::max<std::size_t>(1, mid / dtype_size(t) + 3)}) {
      for (bool in_place : {false, true}) {
        plan.push_back(simple(CaseKind::kCheck, CollOp::kAllReduce, RedOp::kMax, t, n, in_place, world, "check"));
        if (avg_is_exact(world))
          plan.push_back(simple(CaseKind::kCheck, CollOp::kAllReduce, RedOp::kAvg, t, n, in_place, world, "check"));
      }
    }
  }
  for (bool none : {false, true}) {
    CaseSpec f = simple(CaseKind::kCheck, CollOp::kAllReduce, RedOp::kMax, DType::kU8, 1, true, world, "flag");
    f.flag = true;
    f.flag_none = none;
    f.key += none ? ".clear" : ".set";
    f.label = none ? "overflow flag: all_reduce max uint8 x1, no rank set" : "overflow flag: all_reduce max uint8 x1, one rank set";
    plan.push_back(f);
  }
  plan.push_back(simple(CaseKind::kCheck, CollOp::kAllReduce, RedOp::kMax, DType::kU8, 1237, false, world, "check"));
  plan.push_back(simple(CaseKind::kCheck, CollOp::kAllReduce, RedOp::kSum, DType::kF32, 1, false, world, "scalar"));
  plan.push_back(simple(CaseKind::kCheck, CollOp::kAllReduce, RedOp::kSum, DType::kF32, 1, true, world, "scalar"));
  for (DType t : o.dtypes) {
    for (std::size_t n : o.layout_sizes) {
      std::size_t s = param_shard(n, world, 0).storage;
      plan.push_back(simple(CaseKind::kCheck, CollOp::kAllGather, RedOp::kNone, t, s, false, world, "shard"));
      plan.push_back(simple(CaseKind::kCheck, CollOp::kReduceScatter, RedOp::kSum, t, s, false, world, "shard"));
    }
    plan.push_back(simple(CaseKind::kCheck, CollOp::kBroadcast, RedOp::kNone, t, 1237, false, world, "root"));
    plan.back().root = world - 1;
    plan.back().key += ".root" + std::to_string(world - 1);
    plan.back().label += " from root " + std::to_string(world - 1);
  }

  // One block's parameters, one flat buffer per dtype group, as CheckpointBlock builds them.
  std::vector<ZeroLayout> groups;
  for (DType t : o.dtypes) groups.push_back(make_zero_layout(t, o.layout_sizes, world));
  std::size_t per_rank = 0;  // a layout case's count: elements each rank stores, all groups together
  for (auto& l : groups) per_rank += l.partition;
  std::string sizes_text;
  for (auto n : o.layout_sizes) sizes_text += (sizes_text.empty() ? "" : ",") + std::to_string(n);
  for (bool in_place : {false, true}) {
    CaseSpec g;
    g.kind = CaseKind::kLayoutGather;
    g.op = CollOp::kAllGather;
    g.in_place = in_place;
    g.layouts = groups;
    g.key = fmt::format("layout.all_gather.grouped.{}", placement(in_place));
    g.label = fmt::format("BMTrain block gather: {} grouped all_gathers of params [{}] (ps per group:", groups.size(),
                          sizes_text);
    for (auto& l : groups) g.label += fmt::format(" {}={}", to_string(l.dtype), l.partition);
    g.label += in_place ? ") in-place" : ") out-of-place";
    g.dtype = groups.front().dtype;
    g.count = per_rank;
    plan.push_back(g);
  }
  CaseSpec r;
  r.kind = CaseKind::kLayoutReduce;
  r.op = CollOp::kReduceScatter;
  r.redop = RedOp::kSum;
  r.layouts = groups;
  r.dtype = groups.front().dtype;
  r.count = per_rank;
  r.key = "layout.reduce_scatter.grouped.accumulate";
  r.label = fmt::format("BMTrain block backward: {} grouped reduce_scatter sums of params [{}], 2 micro-steps "
                        "with the local gradient added before the second",
                        groups.size(), sizes_text);
  plan.push_back(r);
  return plan;
}

}  // namespace gpucheck::collectives
