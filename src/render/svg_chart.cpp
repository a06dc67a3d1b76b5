#include "render/svg_chart.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "render/html_escape.h"

namespace gpucheck::render::svg {
namespace {

constexpr double kWidth = 720;
// Colours that stay apart for the colour-blind (Okabe and Ito), then two greys.
const char* const kPalette[] = {"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#000000", "#999999"};

const char* tone_colour(const std::string& tone) {
  if (tone == "good") return "#2e7d32";
  if (tone == "bad") return "#c62828";
  if (tone == "warn") return "#ef6c00";
  return "#4c78a8";
}

// 1, 2 or 5 times a power of ten, at least `v`: the step of a readable axis.
double nice_step(double v) {
  if (!(v > 0)) return 1;
  double p = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= v) return m * p;
  return 10 * p;
}

std::string open_svg(double height, const std::string& title) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 {} {}\" role=\"img\" "
      "aria-label=\"{}\" font-family=\"sans-serif\" font-size=\"12\">\n<title>{}</title>\n"
      "<text x=\"8\" y=\"20\" font-size=\"15\" font-weight=\"bold\">{}</text>\n",
      kWidth, height, html::escape(title), html::escape(title), html::escape(title));
}

std::string text(double x, double y, const std::string& escaped, const char* anchor = "start", const char* extra = "") {
  return fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"{}\"{}>{}</text>\n", x, y, anchor, extra, escaped);
}

std::string line(double x1, double y1, double x2, double y2, const char* stroke, const char* extra = "") {
  return fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\"{}/>\n", x1, y1, x2,
                     y2, stroke, extra);
}

}  // namespace

std::string number_text(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  double a = std::fabs(v);
  if (a >= 1000) return fmt::format("{:.0f}", v);
  if (a != 0 && a < 0.001) return fmt::format("{:.2e}", v);
  return fmt::format("{:.3g}", v);
}

std::string bytes_text(double bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int k = 0;
  double v = bytes;
  while (std::fabs(v) >= 1024 && k < 5) v /= 1024, ++k;
  if (v == std::floor(v)) return fmt::format("{:.0f} {}", v, units[k]);
  return fmt::format("{:.3g} {}", v, units[k]);
}

std::string line_chart(const LineChart& c) {
  std::vector<Series> drawn;
  for (const auto& s : c.series) {
    Series kept{s.name, {}, s.dashed};
    for (auto [x, y] : s.points)
      if (std::isfinite(x) && std::isfinite(y) && (!c.x_bytes || x > 0)) kept.points.emplace_back(x, y);
    std::sort(kept.points.begin(), kept.points.end());
    if (kept.points.size() >= 2) drawn.push_back(std::move(kept));
  }
  if (drawn.empty()) return "";

  double x_lo = INFINITY, x_hi = -INFINITY, y_hi = 0;
  for (auto& s : drawn)
    for (auto [x, y] : s.points) {
      double xv = c.x_bytes ? std::log2(x) : x;
      x_lo = std::min(x_lo, xv), x_hi = std::max(x_hi, xv), y_hi = std::max(y_hi, y);
    }
  if (c.x_bytes) x_lo = std::floor(x_lo), x_hi = std::ceil(x_hi);
  if (x_hi <= x_lo) x_hi = x_lo + 1;
  const double y_step = nice_step((y_hi > 0 ? y_hi : 1) / 5);
  const double y_top = std::max(y_step, std::ceil(y_hi / y_step) * y_step);

  const double left = 64, right = kWidth - 16, top = 40, bottom = 290;
  const int legend_columns = 3;
  const int legend_rows = static_cast<int>((drawn.size() + legend_columns - 1) / legend_columns);
  const double height = bottom + 52 + 18.0 * legend_rows;
  auto px = [&](double x) { return left + ((c.x_bytes ? std::log2(x) : x) - x_lo) / (x_hi - x_lo) * (right - left); };
  auto py = [&](double y) { return bottom - std::max(0.0, y) / y_top * (bottom - top); };

  std::string out = open_svg(height, c.title);
  // Grid and y ticks.
  for (double y = 0; y <= y_top + y_step / 2; y += y_step) {
    out += line(left, py(y), right, py(y), "#dddddd");
    out += text(left - 6, py(y) + 4, html::escape(number_text(y)), "end");
  }
  // x ticks: powers of two, spaced so at most 9 labels fit.
  if (c.x_bytes) {
    const int span = static_cast<int>(x_hi - x_lo);
    const int every = std::max(1, (span + 7) / 8);
    for (int e = static_cast<int>(x_lo); e <= static_cast<int>(x_hi); ++e) {
      if ((e - static_cast<int>(x_lo)) % every) continue;
      double x = px(std::ldexp(1.0, e));
      out += line(x, bottom, x, bottom + 5, "#666666");
      out += text(x, bottom + 18, html::escape(bytes_text(std::ldexp(1.0, e))), "middle");
    }
  } else {
    const double step = nice_step((x_hi - x_lo) / 8);
    for (double x = std::ceil(x_lo / step) * step; x <= x_hi + step / 2; x += step) {
      out += line(px(x), bottom, px(x), bottom + 5, "#666666");
      out += text(px(x), bottom + 18, html::escape(number_text(x)), "middle");
    }
  }
  out += line(left, bottom, right, bottom, "#666666");
  out += line(left, top, left, bottom, "#666666");
  out += text((left + right) / 2, bottom + 36, html::escape(c.x_label), "middle");
  out += text(14, (top + bottom) / 2, html::escape(c.y_label), "middle",
              fmt::format(" transform=\"rotate(-90 14 {:.1f})\"", (top + bottom) / 2).c_str());

  for (std::size_t i = 0; i < drawn.size(); ++i) {
    const char* colour = kPalette[i % 8];
    const auto& s = drawn[i];
    std::string points;
    for (auto [x, y] : s.points) points += fmt::format("{:.1f},{:.1f} ", px(x), py(y));
    points.pop_back();
    out += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{} points=\"{}\"/>\n", colour,
                       s.dashed ? " stroke-dasharray=\"6 4\"" : "", points);
    for (auto [x, y] : s.points)
      out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\" fill=\"{}\"><title>{}: {} → {} {}</title></circle>\n",
                         px(x), py(y), colour, html::escape(s.name),
                         html::escape(c.x_bytes ? bytes_text(x) : number_text(x)), html::escape(number_text(y)),
                         html::escape(c.y_label));
    const double lx = left + (i % legend_columns) * ((right - left) / legend_columns);
    const double ly = bottom + 56 + 18.0 * (i / legend_columns);
    out += line(lx, ly - 4, lx + 16, ly - 4, colour, s.dashed ? " stroke-width=\"3\" stroke-dasharray=\"5 3\"" : " stroke-width=\"3\"");
    out += text(lx + 20, ly, html::escape_shortened(s.name, 30));
  }
  out += "</svg>\n";
  return out;
}

std::string bar_chart(const BarChart& c) {
  std::vector<Bar> bars;
  for (const auto& b : c.bars)
    if (std::isfinite(b.value)) bars.push_back(b);
  if (bars.empty()) return "";

  double hi = 0;
  for (auto& b : bars) {
    hi = std::max(hi, std::fabs(b.value));
    if (b.reference && std::isfinite(*b.reference)) hi = std::max(hi, std::fabs(*b.reference));
  }
  if (c.target && std::isfinite(*c.target)) hi = std::max(hi, std::fabs(*c.target));
  if (!(hi > 0)) hi = 1;
  hi *= 1.05;

  const double label_w = 250, value_w = 110, row = 24, top = 40;
  const double left = label_w, right = kWidth - value_w;
  const bool legend = c.target || std::any_of(bars.begin(), bars.end(), [](const Bar& b) { return b.reference.has_value(); });
  const double bottom = top + row * bars.size();
  const double height = bottom + 30 + (legend ? 20 : 0);
  const double lo = c.signed_axis ? -hi : 0;
  auto px = [&](double v) { return left + (v - lo) / (hi - lo) * (right - left); };

  std::string out = open_svg(height, c.title);
  const double zero = px(0);
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    const double y = top + row * i;
    const double x0 = std::min(zero, px(b.value)), x1 = std::max(zero, px(b.value));
    std::string value = (c.signed_axis && b.value > 0 ? "+" : "") + number_text(b.value) + (c.unit.empty() ? "" : " " + c.unit);
    out += text(label_w - 8, y + 16, html::escape_shortened(b.label, 36), "end");
    out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\"><title>{}: {}</title></rect>\n",
                       x0, y + 4, std::max(1.0, x1 - x0), row - 8, tone_colour(b.tone), html::escape(b.label),
                       html::escape(value));
    if (b.reference && std::isfinite(*b.reference))
      out += line(px(*b.reference), y + 1, px(*b.reference), y + row - 1, "#000000", " stroke-width=\"3\"");
    out += text(right + 6, y + 16, html::escape(value));
  }
  out += line(zero, top - 4, zero, bottom + 4, "#666666");
  out += text(px(lo), bottom + 18, html::escape(number_text(lo)), "start");
  out += text(px(hi / 1.05), bottom + 18, html::escape(number_text(hi / 1.05)), "end");
  if (c.target && std::isfinite(*c.target))
    out += line(px(*c.target), top - 4, px(*c.target), bottom + 4, "#333333", " stroke-dasharray=\"5 4\"");
  if (legend) {
    std::string what;
    if (c.target) what += "dashed line: " + c.target_label;
    if (std::any_of(bars.begin(), bars.end(), [](const Bar& b) { return b.reference.has_value(); }))
      what += (what.empty() ? "" : "; ") + std::string("black mark: ") + c.reference_label;
    out += text(left, bottom + 40, html::escape(what));
  }
  out += "</svg>\n";
  return out;
}

}  // namespace gpucheck::render::svg
