// kernels.adam: the fused Adam kernels on GPU 0 vs the double reference, every output buffer checked.
#include <algorithm>
#include <string>
#include <thread>

#include "adam/adam_cuda.h"
#include "adam/adam_reference.h"
#include "adam/adam_windows.h"
#include "common/check_result.h"
#include "common/cuda_support.h"
#include "probe/probe.h"

namespace {

using namespace gpucheck::kernels;

// A device copy of `t` starting `offset` elements into its allocation: the views BMTrain passes (a
// parameter inside a larger storage), which move the vectorised kernel off 16-byte alignment.
struct DeviceView {
  DeviceBuffer buffer;
  std::size_t offset_bytes = 0;
  DeviceView(const HostTensor& t, std::size_t offset)
      : buffer((t.size() + offset) * element_size(t.dtype()) + 1), offset_bytes(offset * element_size(t.dtype())) {
    cuda_check(cudaMemcpy(get(), t.data(), t.bytes(), cudaMemcpyHostToDevice), "upload");
  }
  void* get() const { return static_cast<char*>(buffer.get()) + offset_bytes; }
  template <typename T>
  T* as() const { return static_cast<T*>(get()); }
  void download(HostTensor& t) const {
    cuda_check(cudaMemcpy(t.data(), get(), t.bytes(), cudaMemcpyDeviceToHost), "download");
  }
};

AdamState run_on_gpu(const AdamState& before, const AdamHyper& h, std::size_t offset = 0) {
  AdamState s = before;
  DeviceView p(s.param, offset), g(s.grad, offset), m(s.m, offset), v(s.v, offset), ph(s.param_h, offset);
  const std::size_t n = s.size();
  cudaError_t e = cudaSuccess;
  switch (s.variant) {
    case AdamVariant::kFp16:
      e = launch_adam_fp16(n, p.as<float>(), ph.as<std::uint16_t>(), g.as<std::uint16_t>(), m.as<std::uint16_t>(),
                           v.as<float>(), h, nullptr);
      break;
    case AdamVariant::kBf16:
      e = launch_adam_bf16(n, p.as<float>(), ph.as<std::uint16_t>(), g.as<std::uint16_t>(), m.as<float>(),
                           v.as<float>(), h, nullptr);
      break;
    default:
      e = launch_adam_fp32(n, p.as<float>(), g.as<float>(), m.as<float>(), v.as<float>(), h, nullptr);
      break;
  }
  cuda_check(e, "Adam launch");
  cuda_check(cudaDeviceSynchronize(), "Adam kernel");
  p.download(s.param);
  if (s.param_h.size()) ph.download(s.param_h);
  m.download(s.m);
  v.download(s.v);
  return s;
}

// The whole tensor on the device, for the windowed long case (adam_windows.h): host windows are copied in
// and out at their element offsets; one launch covers all n elements.
class DeviceTensorState : public AdamWindowDevice {
 public:
  DeviceTensorState(AdamVariant v, std::size_t n)
      : v_(v),
        p_(n * 4),
        ph_(v == AdamVariant::kFp32 ? 1 : n * 2),
        g_(n * element_size(adam_half_dtype(v))),
        m_(n * (v == AdamVariant::kFp16 ? 2 : 4)),
        vv_(n * 4) {}
  void upload(std::size_t b, const AdamState& s) override {
    put(p_, b, s.param), put(g_, b, s.grad), put(m_, b, s.m), put(vv_, b, s.v);
  }
  void step(std::size_t n, const AdamHyper& h) override {
    cudaError_t e = cudaSuccess;
    auto* p = static_cast<float*>(p_.get());
    auto* v = static_cast<float*>(vv_.get());
    switch (v_) {
      case AdamVariant::kFp16:
        e = launch_adam_fp16(n, p, static_cast<std::uint16_t*>(ph_.get()), static_cast<const std::uint16_t*>(g_.get()),
                             static_cast<std::uint16_t*>(m_.get()), v, h, nullptr);
        break;
      case AdamVariant::kBf16:
        e = launch_adam_bf16(n, p, static_cast<std::uint16_t*>(ph_.get()), static_cast<const std::uint16_t*>(g_.get()),
                             static_cast<float*>(m_.get()), v, h, nullptr);
        break;
      default:
        e = launch_adam_fp32(n, p, static_cast<const float*>(g_.get()), static_cast<float*>(m_.get()), v, h, nullptr);
    }
    cuda_check(e, "Adam launch");
    cuda_check(cudaDeviceSynchronize(), "Adam kernel");
  }
  void download(std::size_t b, AdamState& s) override {
    get(p_, b, s.param), get(m_, b, s.m), get(vv_, b, s.v);
    if (s.param_h.size()) get(ph_, b, s.param_h);
  }

 private:
  static void put(DeviceBuffer& d, std::size_t b, const HostTensor& t) {
    cuda_check(cudaMemcpy(static_cast<char*>(d.get()) + b * element_size(t.dtype()), t.data(), t.bytes(),
                          cudaMemcpyHostToDevice), "upload window");
  }
  static void get(DeviceBuffer& d, std::size_t b, HostTensor& t) {
    cuda_check(cudaMemcpy(t.data(), static_cast<char*>(d.get()) + b * element_size(t.dtype()), t.bytes(),
                          cudaMemcpyDeviceToHost), "download window");
  }
  AdamVariant v_;
  DeviceBuffer p_, ph_, g_, m_, vv_;
};

}  // namespace

int main(int argc, char** argv) {
  using namespace gpucheck;
  return probe::run(argc, argv, [](const probe::Context& ctx, Finding& r) {
    if (!require_gpu(r)) return;
    CheckCollector checks;
    // n = 0 must be a no-op that touches no pointer.
    AdamHyper h0 = adam_with_step(AdamHyper{}, 1);
    cuda_check(launch_adam_fp16(0, nullptr, nullptr, nullptr, nullptr, nullptr, h0, nullptr), "n = 0 launch");
    const std::vector<std::size_t> sizes{1, 255, 257, 1000003};
    const unsigned threads = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
    for (AdamVariant v : {AdamVariant::kFp16, AdamVariant::kBf16, AdamVariant::kFp32}) {
      for (float scale : {1.0f, 32768.0f}) {
        for (std::size_t n : sizes) {
          for (bool adversarial : {false, true}) {
            AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, scale}, 5);
            AdamState before = make_adam_state(v, n, n + adversarial, h, adversarial);
            AdamState want = before;
            adam_reference_step(want, h);
            AdamState got = run_on_gpu(before, h);
            checks.add(std::string(to_string(v)) + " S=" + std::to_string(int(scale)) + " n=" + std::to_string(n) +
                           (adversarial ? " adversarial" : ""),
                       check_adam_step(before, want, got, h));
          }
        }
      }
    }
    // Past 2^24 elements (the float index of a naive kernel stops being exact), at standard: the host side
    // of these 12 cases cost 5 s of one core each; the windowed checker generates, references and checks
    // them in windows of 2^22 on up to 8 threads, as the long case does.
    if (ctx.level != "quick") {
      const std::size_t n = (std::size_t{1} << 24) + 1, window = std::size_t{1} << 22;
      for (AdamVariant v : {AdamVariant::kFp16, AdamVariant::kBf16, AdamVariant::kFp32}) {
        DeviceTensorState dev(v, n);
        for (float scale : {1.0f, 32768.0f})
          for (bool adversarial : {false, true}) {
            AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, scale}, 5);
            checks.add(std::string(to_string(v)) + " S=" + std::to_string(int(scale)) + " n=" + std::to_string(n) +
                           (adversarial ? " adversarial" : "") + " (checked in windows of 2^22)",
                       adam_windowed_step_check(dev, v, n, window, 7 + adversarial, h, adversarial, threads));
          }
      }
    }
    // Views at element offsets 1..3 into their storage (every buffer at the same offset, as BMTrain's
    // parameters are): the vectorised kernel's scalar head, then aligned chunks, then the tail.
    for (AdamVariant v : {AdamVariant::kFp16, AdamVariant::kBf16, AdamVariant::kFp32})
      for (std::size_t offset : {1u, 2u, 3u}) {
        AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1024.0f}, 5);
        AdamState before = make_adam_state(v, 100003, offset, h, true);
        AdamState want = before;
        adam_reference_step(want, h);
        checks.add(std::string(to_string(v)) + " n=100003 at element offset " + std::to_string(offset),
                   check_adam_step(before, want, run_on_gpu(before, h, offset), h));
      }
    // The loss scale doubled (BMTrain's _on_justify_scale): fp16 m overflows to inf for |S·m| > 32752.
    {
      AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 4096.0f}, 7);
      AdamState before = make_adam_state(AdamVariant::kFp16, 4099, 8, h, true);
      for (std::size_t i = 0; i < before.size(); i += 97) before.m.set(i, i % 2 ? 40000.0 : -33000.0);
      rescale_scaled_state(before, 2.0);
      h.scale *= 2;
      AdamState want = before;
      adam_reference_step(want, h);
      checks.add("fp16 n=4099 state rescaled x2 (overflowed m)", check_adam_step(before, want, run_on_gpu(before, h), h));
    }
    if (ctx.level == "long") {
      // Beyond int32 indexing: 2^31 + 17 elements of the bf16 variant, 34 GB on the device in one launch;
      // the host generates, references and checks it in windows of 2^24 elements on up to 8 threads
      // (~0.8 GB host memory per thread, not ~103 GB; ~440 ns of host work per element single-threaded).
      const std::size_t n = (std::size_t{1} << 31) + 17, window = std::size_t{1} << 24;
      AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1.0f}, 2);
      DeviceTensorState dev(AdamVariant::kBf16, n);
      checks.add("bf16 n=2^31+17 (one launch, checked in windows of 2^24)",
                 adam_windowed_step_check(dev, AdamVariant::kBf16, n, window, 99, h, true, threads));
    }
    checks.fill(r, "fused Adam fp16/bf16/fp32 on " + r.evidence["device"]);
  });
}
