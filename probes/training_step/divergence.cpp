#include "divergence.h"

#include <cmath>
#include <tuple>

#include <fmt/format.h>

namespace gpucheck::training {

std::string Divergence::sentence() const {
  return fmt::format("step {}, {}, rank {}: {}{} = {:.7g}, reference {:.7g} (allowed +-{:.3g})", step, layer, rank,
                     what, index.empty() ? "" : " " + index, got, want, allowed);
}

void to_json(nlohmann::json& j, const Divergence& d) {
  j = {{"step", d.step},   {"check", d.check},     {"rank", d.rank},   {"layer", d.layer},
       {"what", d.what},   {"element", d.element}, {"index", d.index}, {"allowed", d.allowed}};
  // JSON has no inf/NaN: non-finite values travel as text.
  auto put = [&](const char* k, double v) {
    if (std::isfinite(v)) j[k] = v;
    else j[k] = fmt::format("{}", v);
  };
  put("got", d.got);
  put("want", d.want);
}

void from_json(const nlohmann::json& j, Divergence& d) {
  auto get = [&](const char* k) {
    const auto& v = j.at(k);
    return v.is_number() ? v.get<double>() : std::stod(v.get<std::string>());
  };
  d.step = j.at("step"), d.check = j.at("check"), d.rank = j.at("rank");
  d.layer = j.at("layer"), d.what = j.at("what"), d.element = j.at("element"), d.index = j.at("index");
  d.allowed = j.at("allowed");
  d.got = get("got"), d.want = get("want");
}

bool earlier(const Divergence& a, const Divergence& b) {
  return std::tie(a.step, a.check, a.rank, a.element) < std::tie(b.step, b.check, b.rank, b.element);
}

void to_json(nlohmann::json& j, const ErrorStats& s) {
  j = {{"checked", s.checked}, {"max_abs", s.max_abs}, {"max_rel", s.max_rel}, {"worst_ratio", s.worst_ratio}};
}
void from_json(const nlohmann::json& j, ErrorStats& s) {
  s.checked = j.at("checked"), s.max_abs = j.at("max_abs"), s.max_rel = j.at("max_rel");
  s.worst_ratio = j.at("worst_ratio");
}

void CheckLog::compare(const std::string& kind, const std::string& layer, const std::string& what, std::size_t n,
                       std::size_t cols, const std::function<double(std::size_t)>& got,
                       const std::function<double(std::size_t)>& want,
                       const std::function<double(std::size_t)>& allowed) {
  ErrorStats& st = stats_[kind];
  for (std::size_t i = 0; i < n; ++i) {
    double g = got(i), w = want(i), a = allowed(i);
    bool ok;
    if (std::isnan(w)) ok = std::isnan(g);
    else if (std::isinf(w)) ok = g == w;
    else ok = std::isfinite(g) && std::fabs(g - w) <= a;
    ++st.checked;
    if (std::isfinite(g) && std::isfinite(w)) {
      double e = std::fabs(g - w);
      st.max_abs = std::max(st.max_abs, e);
      if (w != 0) st.max_rel = std::max(st.max_rel, e / std::fabs(w));
      if (a > 0) st.worst_ratio = std::max(st.worst_ratio, e / a);
    }
    if (!ok && !first_) {
      std::string index = cols ? fmt::format("[{},{}]", i / cols, i % cols) : fmt::format("[{}]", i);
      first_ = Divergence{step_, check_, rank_, layer, what, i, index, g, w, a};
    }
  }
  ++check_;
}

void CheckLog::record(const std::string& kind, const std::string& layer, const std::string& what, std::size_t cols,
                      const ErrorStats& s, bool ok, std::size_t element, double got, double want, double allowed) {
  ErrorStats& st = stats_[kind];
  st.checked += s.checked, st.max_abs = std::max(st.max_abs, s.max_abs), st.max_rel = std::max(st.max_rel, s.max_rel);
  st.worst_ratio = std::max(st.worst_ratio, s.worst_ratio);
  if (!ok && !first_) {
    std::string index = cols ? fmt::format("[{},{}]", element / cols, element % cols) : fmt::format("[{}]", element);
    first_ = Divergence{step_, check_, rank_, layer, what, element, index, got, want, allowed};
  }
  ++check_;
}

void CheckLog::expect_equal(const std::string& layer, const std::string& what, double got, double want) {
  bool same = got == want || (std::isnan(got) && std::isnan(want));
  if (!same && !first_) first_ = Divergence{step_, check_, rank_, layer, what, 0, "", got, want, 0};
  ++check_;
}

}  // namespace gpucheck::training
