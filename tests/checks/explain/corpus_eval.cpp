#include "corpus_eval.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "core/files.h"
#include "sha256.h"

namespace gpucheck::explain::testing {

bool is_heldout_thread(const std::string& thread_url) {
  return std::stoul(sha256_hex(thread_url).substr(0, 8), nullptr, 16) % 100 < 35;
}

std::vector<CorpusCase> load_corpus(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<CorpusCase> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    const std::string name = e.path().filename().string();
    nlohmann::json j;
    try {
      j = read_json_file(e.path().string());
      CorpusCase c;
      c.slug = e.path().stem().string();
      c.log_path = (e.path().parent_path() / (c.slug + ".log")).string();
      c.source = j.at("source").get<std::string>();
      c.thread = j.at("thread").get<std::string>();
      c.cause = j.at("cause").get<std::string>();
      c.fix = j.at("fix").get<std::string>();
      c.fix_confirmed = j.at("fix_confirmed").get<bool>();
      c.family = j.at("family").get<std::string>();
      c.heldout = is_heldout_thread(c.thread);
      c.set = c.heldout ? "held-out" : "written-from";  // the split rule, unless a batch marked the case
      if (j.contains("set")) {
        c.set = j.at("set").get<std::string>();
        if (c.set != "blind" && c.set != "written-from")
          throw std::runtime_error("set must be \"blind\" or \"written-from\", not \"" + c.set + "\"");
      }
      out.push_back(std::move(c));
    } catch (const std::exception& ex) {
      throw std::runtime_error(name + ": " + ex.what());
    }
  }
  std::sort(out.begin(), out.end(), [](const CorpusCase& a, const CorpusCase& b) { return a.slug < b.slug; });
  return out;
}

namespace {

// A case labelled "unknown" (the thread's cause is one explain does not model) is right when explain
// names nothing and wrong when it names any cause.
void add(Score& s, const CaseResult& r) {
  ++s.cases;
  const std::string answer = r.top1.empty() ? "unknown" : r.top1;
  if (answer == r.c.cause) ++s.right;
  else if (r.top1.empty()) ++s.unknown;
  else ++s.wrong;
}

std::string pct(int num, int den) { return den == 0 ? "-" : fmt::format("{:.0f}%", 100.0 * num / den); }

std::string score_row(const std::string& label, const Score& s) {
  return fmt::format("| {} | {} | {} ({}) | {} ({}) | {} ({}) |\n", label, s.cases, pct(s.right, s.cases), s.right,
                     pct(s.wrong, s.cases), s.wrong, pct(s.unknown, s.cases), s.unknown);
}

}  // namespace

std::map<std::string, Score> score_by_family(const std::vector<CaseResult>& results, bool heldout) {
  std::map<std::string, Score> out;
  for (const auto& r : results) {
    if (r.c.heldout != heldout) continue;
    add(out[r.c.family], r);
    add(out["all"], r);
  }
  return out;
}

std::map<std::string, Score> score_by_family(const std::vector<CaseResult>& results, const std::string& set) {
  std::map<std::string, Score> out;
  for (const auto& r : results) {
    if (r.c.set != set) continue;
    add(out[r.c.family], r);
    add(out["all"], r);
  }
  return out;
}

std::string corpus_markdown(const std::vector<CaseResult>& results) {
  std::string md;
  const std::pair<const char*, const char*> sets[] = {
      {"blind", "#### Blind cases (collected after the signatures they are measured by; never used to write one)\n\n"},
      {"held-out", "#### Held-out cases (the split rule's side; seen once while collecting)\n\n"},
      {"written-from", "#### Written-from cases (read while writing signatures)\n\n"}};
  for (const auto& [set, heading] : sets) {
    md += heading;
    md += "| family | cases | top-1 right | wrong cause | unknown |\n|---|---:|---:|---:|---:|\n";
    auto fam = score_by_family(results, std::string(set));
    for (const char* f : {"build", "runtime", "all"})
      if (fam.count(f)) md += score_row(f == std::string("all") ? "**all**" : f, fam[f]);
    md += "\n";
  }
  // Per cause: the cases no signature was written from (held-out and blind) first, the written-from side
  // after them; "named wrongly" counts such logs of another cause for which explain answered this one (what
  // a wrong-cause rate is made of).
  std::map<std::string, Score> held, tune;
  std::map<std::string, int> named_wrongly;
  std::map<std::string, std::string> family;
  for (const auto& r : results) {
    const bool unseen = r.c.set != "written-from";
    add(unseen ? held[r.c.cause] : tune[r.c.cause], r);
    family[r.c.cause] = r.c.family;
    if (unseen && !r.top1.empty() && r.top1 != r.c.cause) ++named_wrongly[r.top1];  // includes "unknown" logs
  }
  md += "#### Per cause\n\n"
        "| cause id | family | held-out + blind | top-1 | wrong | unknown | named wrongly | written-from | written-from top-1 |\n"
        "|---|---|---:|---:|---:|---:|---:|---:|---:|\n";
  std::set<std::string> ids;
  for (const auto& [id, _] : family) ids.insert(id);
  for (const auto& [id, _] : named_wrongly) ids.insert(id);
  for (const auto& id : ids) {
    const Score h = held.count(id) ? held.at(id) : Score{};
    const Score t = tune.count(id) ? tune.at(id) : Score{};
    md += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} | {} | {} |\n", id,
                      family.count(id) ? family.at(id) : "-", h.cases, pct(h.right, h.cases), pct(h.wrong, h.cases),
                      pct(h.unknown, h.cases), named_wrongly.count(id) ? named_wrongly.at(id) : 0, t.cases,
                      pct(t.right, t.cases));
  }
  return md;
}

}  // namespace gpucheck::explain::testing
