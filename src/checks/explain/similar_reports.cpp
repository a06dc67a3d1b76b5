#include "checks/explain/similar_reports.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/errors.h"

namespace gpucheck::explain {
namespace {

constexpr const char* kCauseToken = "cause:";

bool word_char(unsigned char c) { return std::isalnum(c) || c == '_' || c == '+' || c == '.' || c == '-'; }

}  // namespace

std::vector<std::string> similarity_tokens(const std::string& line) {
  std::vector<std::string> out;
  std::string w;
  auto flush = [&] {
    while (!w.empty() && (w.back() == '.' || w.back() == '-' || w.back() == '+')) w.pop_back();
    std::size_t start = 0;
    while (start < w.size() && (w[start] == '.' || w[start] == '-' || w[start] == '+')) ++start;
    w.erase(0, start);
    bool letter = std::any_of(w.begin(), w.end(), [](char c) { return c >= 'a' && c <= 'z'; });
    if (w.size() > 2 && w[0] == '0' && w[1] == 'x' &&
        std::all_of(w.begin() + 2, w.end(), [](char c) { return c == '0' || (c >= 'a' && c <= 'f'); }))
      letter = false;  // an address
    if (letter && w.size() >= 3 && w.size() <= 40) out.push_back(w);
    w.clear();
  };
  for (char ch : line) {
    auto c = static_cast<unsigned char>(ch);
    if (c < 128 && word_char(c)) {
      if (c >= 'A' && c <= 'Z') c = static_cast<unsigned char>(c - 'A' + 'a');
      if (c >= '0' && c <= '9') c = '0';
      w.push_back(static_cast<char>(c));
    } else {
      flush();
    }
  }
  flush();
  return out;
}

SimilarIndex::SimilarIndex(const nlohmann::json& doc) {
  if (!doc.is_object() || !doc.contains("cases") || !doc.at("cases").is_array())
    throw InputError("not a similar-reports index (no \"cases\" array)");
  try {
    for (const auto& j : doc.at("cases")) {
      SimilarCase c;
      c.name = j.at("name").get<std::string>();
      c.url = j.at("url").get<std::string>();
      c.causes = j.value("causes", std::vector<std::string>{});
      c.fix = j.value("fix", "");
      c.family = j.value("family", "");
      c.fix_confirmed = j.value("fix_confirmed", false);
      c.lines = j.at("lines").get<std::vector<std::string>>();
      cases_.push_back(std::move(c));
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("similar-reports index: ") + e.what());
  }
  // Document frequency over the cases (each token once per case), smoothed IDF.
  std::map<std::string, int> df;
  std::vector<std::map<std::string, double>> tf(cases_.size());
  for (std::size_t i = 0; i < cases_.size(); ++i) {
    for (const auto& l : cases_[i].lines)
      for (auto& t : similarity_tokens(l)) tf[i][t] += 1.0;
    for (const auto& cause : cases_[i].causes) tf[i][kCauseToken + cause] += 1.0;
    for (const auto& [t, n] : tf[i]) ++df[t];
  }
  const double n = static_cast<double>(cases_.size());
  for (const auto& [t, d] : df) idf_[t] = std::log((1.0 + n) / (1.0 + d)) + 1.0;
  for (auto& v : tf) {
    double norm = 0;
    for (auto& [t, x] : v) {
      x = (1.0 + std::log(x)) * idf_[t];
      norm += x * x;
    }
    norm = std::sqrt(norm);
    for (auto& [t, x] : v) x /= norm > 0 ? norm : 1.0;
    vectors_.push_back(std::move(v));
  }
}

std::map<std::string, double> SimilarIndex::vectorize(const std::vector<std::string>& lines,
                                                      const std::string& cause) const {
  std::map<std::string, double> v;
  for (const auto& l : lines)
    for (auto& t : similarity_tokens(l)) v[t] += 1.0;
  if (!cause.empty()) v[kCauseToken + cause] += 1.0;
  double norm = 0;
  for (auto it = v.begin(); it != v.end();) {
    auto idf = idf_.find(it->first);
    if (idf == idf_.end()) {  // a token no case has cannot make two logs similar
      it = v.erase(it);
      continue;
    }
    it->second = (1.0 + std::log(it->second)) * idf->second;
    norm += it->second * it->second;
    ++it;
  }
  norm = std::sqrt(norm);
  for (auto& [t, x] : v) x /= norm > 0 ? norm : 1.0;
  return v;
}

std::vector<SimilarHit> SimilarIndex::rank(const std::vector<std::string>& lines, const std::string& cause,
                                           std::size_t k, double min_score) const {
  auto q = vectorize(lines, cause);
  std::vector<SimilarHit> hits;
  if (q.empty()) return hits;
  for (std::size_t i = 0; i < cases_.size(); ++i) {
    double dot = 0;
    const auto& v = vectors_[i];
    // Walk the smaller map, look up in the larger.
    const auto& small = q.size() < v.size() ? q : v;
    const auto& large = q.size() < v.size() ? v : q;
    for (const auto& [t, x] : small) {
      auto it = large.find(t);
      if (it != large.end()) dot += x * it->second;
    }
    if (dot + 1e-12 >= min_score) hits.push_back({&cases_[i], std::min(1.0, dot)});
  }
  std::sort(hits.begin(), hits.end(), [](const SimilarHit& a, const SimilarHit& b) {
    if (std::abs(a.score - b.score) > 1e-9) return a.score > b.score;
    return a.c->name < b.c->name;
  });
  // One case per thread: the same URL twice (a corpus case and an older fixture) is one report to read.
  std::vector<SimilarHit> out;
  for (const auto& h : hits) {
    if (out.size() >= k) break;
    if (std::none_of(out.begin(), out.end(), [&](const SimilarHit& o) { return o.c->url == h.c->url; })) out.push_back(h);
  }
  return out;
}

// The case's cause as shown next to a finding: the finding's own when the case has it among its causes.
std::string shown_cause(const SimilarCase& c, const std::string& finding_cause) {
  if (c.causes.empty()) return "unknown";
  if (std::find(c.causes.begin(), c.causes.end(), finding_cause) != c.causes.end()) return finding_cause;
  return c.causes.front();
}

void add_similar_reports(Explanation& ex, const SimilarIndex& index, std::size_t k) {
  std::vector<std::string> error_lines;
  for (const auto& e : ex.unknown.evidence) error_lines.push_back(e.value);
  auto attach = [&](Finding& f, std::vector<std::string> lines, const std::string& cause) {
    auto arr = nlohmann::json::array();
    for (const auto& h : index.rank(lines, cause, k))
      arr.push_back({{"case", h.c->name},
                     {"url", h.c->url},
                     {"cause", shown_cause(*h.c, cause)},
                     {"fix", h.c->fix},
                     {"fix_confirmed", h.c->fix_confirmed},
                     {"score", std::round(h.score * 100.0) / 100.0}});
    if (!f.details.is_object()) f.details = nlohmann::json::object();
    f.details["similar"] = arr;
  };
  for (auto& f : ex.causes) {
    std::vector<std::string> lines;
    for (const auto& e : f.evidence) lines.push_back(e.value);
    lines.insert(lines.end(), error_lines.begin(), error_lines.end());
    attach(f, lines, f.id);
  }
  attach(ex.unknown, error_lines, "");
}

nlohmann::json similar_case_json(const SimilarCase& c) {
  return {{"name", c.name},   {"url", c.url},     {"causes", c.causes},
          {"fix", c.fix},     {"family", c.family}, {"fix_confirmed", c.fix_confirmed},
          {"lines", c.lines}};
}

nlohmann::json similar_index_json(std::vector<SimilarCase> cases) {
  std::sort(cases.begin(), cases.end(), [](const SimilarCase& a, const SimilarCase& b) { return a.name < b.name; });
  auto arr = nlohmann::json::array();
  for (const auto& c : cases) arr.push_back(similar_case_json(c));
  return {{"version", 1},
          {"comment", "generated by explain_similar_index from tests/data/corpus and tests/data/logs; do not edit"},
          {"cases", arr}};
}

}  // namespace gpucheck::explain
