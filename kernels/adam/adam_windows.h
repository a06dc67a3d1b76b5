#pragma once
// One Adam step over a tensor too large to hold on the host three times (kernels.adam --level long:
// 2^31 + 17 elements, ~34 GB per copy of the state): the device holds the whole tensor and runs ONE launch
// over all n elements (the point: indices past 2^31), while the host generates, references and checks it
// window by window. Window w's inputs come from make_adam_state(variant, len, seed + w, ...), so they can
// be regenerated for the check instead of kept; host memory stays O(threads x window).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "adam/adam_reference.h"

namespace gpucheck::kernels {

/// What the windowed step needs from the device: a tensor of n elements it owns.
class AdamWindowDevice {
 public:
  virtual ~AdamWindowDevice() = default;
  /// Writes the window's inputs (param, grad, m, v) at element `begin`.
  virtual void upload(std::size_t begin, const AdamState& window) = 0;
  /// One step over all n elements (a single launch).
  virtual void step(std::size_t n, const AdamHyper& h) = 0;
  /// Reads the window's outputs (param, param_h, m, v) at element `begin` into `window`.
  virtual void download(std::size_t begin, AdamState& window) = 0;
};

struct AdamWindowRange {
  std::size_t begin = 0, size = 0;
};
/// The windows [0, n) is cut into, each at most `window` elements (the last one shorter).
std::vector<AdamWindowRange> adam_windows(std::size_t n, std::size_t window);

/// Generates, uploads, steps once, then checks every window against the reference; one CheckReport per
/// output buffer over all n elements (indices global). `threads` workers handle windows concurrently (the
/// device's upload/download must be thread-safe, as cudaMemcpy is): host memory is at most
/// threads x 3 window states. `peak_window_elements` (optional) receives the largest host state generated.
std::vector<CheckReport> adam_windowed_step_check(AdamWindowDevice& dev, AdamVariant variant, std::size_t n,
                                                  std::size_t window, std::uint64_t seed, const AdamHyper& h,
                                                  bool adversarial, unsigned threads = 1,
                                                  std::size_t* peak_window_elements = nullptr);

/// Folds `part` (a check over elements [offset, offset + part.count)) into `total`.
void merge_check(CheckReport& total, const CheckReport& part, std::size_t offset);

}  // namespace gpucheck::kernels
