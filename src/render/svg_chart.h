#pragma once
// Inline SVG charts drawn in C++ for the HTML report: no script, no external file, labels escaped. Each
// function returns "" when it has nothing to draw, so a chart without data is left out, never drawn empty.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpucheck::render::svg {

struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y); drawn in x order
  bool dashed = false;                             // a variant of the series before it (in-place)
};

/// y against x, one polyline per series. With `x_bytes` the x axis is log2 and labelled 1 KiB, 1 MiB, ...
struct LineChart {
  std::string title;
  std::string x_label, y_label;
  bool x_bytes = true;
  std::vector<Series> series;
};

/// A series needs 2 points with x > 0 (log axis) and finite values to be drawn.
std::string line_chart(const LineChart& c);

/// One horizontal bar; `reference` draws a marker at that value on the bar's row (a datasheet peak).
struct Bar {
  std::string label;
  double value = 0;
  std::optional<double> reference;
  std::string tone = "neutral";  // neutral, good, bad, warn: a CSS class of the page
};

struct BarChart {
  std::string title;
  std::string unit;                     // after each value: "TFLOP/s", "%", "× copy"
  std::vector<Bar> bars;
  std::optional<double> target;         // a dashed vertical line across all rows (a ceiling, a goal)
  std::string target_label, reference_label;
  bool signed_axis = false;             // zero in the middle: negative bars go left (compare deltas)
};

/// Bars with non-finite values are dropped; "" when none is left.
std::string bar_chart(const BarChart& c);

/// "512 B", "4 KiB", "1 MiB", "16 GiB" for a power-of-two byte count; "1.5 MiB" otherwise.
std::string bytes_text(double bytes);
/// 3 significant digits, no exponent for ordinary magnitudes: "0.932", "45.1", "1230".
std::string number_text(double v);

}  // namespace gpucheck::render::svg
