#include "collectives/table.h"

#include <map>
#include <tuple>

#include <fmt/format.h>

namespace gpucheck::collectives {

std::string render_table(const std::vector<Row>& rows) {
  // Pair out-of-place and in-place rows of the same (op, redop, dtype, count).
  using Key = std::tuple<int, int, int, int, std::size_t, int>;
  std::map<Key, std::pair<const Row*, const Row*>> pairs;
  std::vector<Key> order;
  for (auto& r : rows) {
    const CaseSpec& c = *r.spec;
    if (c.kind != CaseKind::kSweep && c.kind != CaseKind::kCheck) continue;
    Key k{static_cast<int>(c.kind), static_cast<int>(c.op), static_cast<int>(c.redop), static_cast<int>(c.dtype), c.count, c.root};
    if (!pairs.count(k)) order.push_back(k);
    (c.in_place ? pairs[k].second : pairs[k].first) = &r;
  }
  std::string out = fmt::format("{:>14} {:>12} {:>6} {:>6} {:>5} {:>16} |{:>10} {:>8} {:>8} {:>8} |{:>10} {:>8} {:>8} {:>8}\n",
                                "size(B)", "count", "type", "redop", "root", "collective", "time(us)", "algbw",
                                "busbw", "#wrong", "time(us)", "algbw", "busbw", "#wrong");
  auto cell = [](const Row* r) {
    if (!r) return fmt::format("{:>10} {:>8} {:>8} {:>8}", "-", "-", "-", "-");
    if (r->time_us < 0) return fmt::format("{:>10} {:>8} {:>8} {:>8}", "-", "-", "-", r->wrong);
    return fmt::format("{:>10.1f} {:>8.2f} {:>8.2f} {:>8}", r->time_us, r->algbw, r->busbw, r->wrong);
  };
  for (auto& k : order) {
    auto [oop, ip] = pairs[k];
    const Row* any = oop ? oop : ip;
    const CaseSpec& c = *any->spec;
    out += fmt::format("{:>14} {:>12} {:>6} {:>6} {:>5} {:>16} |{} |{}\n", any->bytes, c.count, to_string(c.dtype),
                       to_string(c.redop), c.op == CollOp::kBroadcast ? std::to_string(c.root) : "-", to_string(c.op),
                       cell(oop), cell(ip));
  }
  return out;
}

}  // namespace gpucheck::collectives
