#include "fixture_corpus.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "core/files.h"

namespace gpucheck::explain::testing {

std::vector<Fixture> load_fixtures(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<Fixture> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    auto j = read_json_file(e.path().string());
    Fixture f;
    f.name = e.path().stem().string();
    f.log_path = (e.path().parent_path() / (f.name + ".log")).string();
    f.source = j.value("source", "");
    f.origin = j.value("origin", "");
    f.set = j.value("set", "tuning");
    for (const auto& id : j.at("expected")) f.expected.insert(id.get<std::string>());
    f.root = j.value("root", "");
    out.push_back(std::move(f));
  }
  std::sort(out.begin(), out.end(), [](const Fixture& a, const Fixture& b) { return a.name < b.name; });
  return out;
}

namespace {

struct Counts {
  int expected = 0, tp = 0, fp = 0, fn = 0;
};

std::string pct(int num, int den) { return den == 0 ? "n/a" : fmt::format("{:.0f}%", 100.0 * num / den); }

std::string table_for(const std::vector<Outcome>& outcomes, const std::string& set) {
  std::map<std::string, Counts> per_id;
  int exact = 0, n = 0, roots = 0, roots_stated = 0;
  for (const auto& o : outcomes) {
    if (o.fixture.set != set) continue;
    ++n;
    auto expected = o.fixture.expected.empty() ? std::set<std::string>{"unknown"} : o.fixture.expected;
    auto found = o.found.empty() ? std::set<std::string>{"unknown"} : o.found;
    if (expected == found) ++exact;
    if (!o.fixture.root.empty()) {
      ++roots_stated;
      if (o.fixture.root == o.found_root) ++roots;
    }
    for (const auto& id : expected) {
      ++per_id[id].expected;
      if (found.count(id)) ++per_id[id].tp;
      else ++per_id[id].fn;
    }
    for (const auto& id : found)
      if (!expected.count(id)) ++per_id[id].fp;
  }
  if (n == 0) return "";
  std::string md = fmt::format("| cause id | fixtures | found | missed | false positives | precision | recall |\n"
                               "|---|---:|---:|---:|---:|---:|---:|\n");
  Counts total;
  for (const auto& [id, c] : per_id) {
    md += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} |\n", id, c.expected, c.tp, c.fn, c.fp,
                      pct(c.tp, c.tp + c.fp), pct(c.tp, c.expected));
    total.expected += c.expected;
    total.tp += c.tp;
    total.fp += c.fp;
    total.fn += c.fn;
  }
  md += fmt::format("| **all** | {} | {} | {} | {} | {} | {} |\n\n", total.expected, total.tp, total.fn, total.fp,
                    pct(total.tp, total.tp + total.fp), pct(total.tp, total.expected));
  md += fmt::format("{} logs; exactly the expected set of causes: {}/{} ({}); root cause as stated: {}/{}.\n", n, exact,
                    n, pct(exact, n), roots, roots_stated);
  return md;
}

}  // namespace

std::string accuracy_markdown(const std::vector<Outcome>& outcomes) {
  std::string md = "### Fixtures used while writing the signatures (`set: tuning`)\n\n" + table_for(outcomes, "tuning");
  std::string held = table_for(outcomes, "heldout");
  if (!held.empty())
    md += "\n### Held-out fixtures, collected after the signatures were frozen (`set: heldout`)\n\n" + held;
  return md;
}

}  // namespace gpucheck::explain::testing
