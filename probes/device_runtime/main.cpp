// device.runtime: is there a working CUDA runtime + driver + GPU here? Loads the installed libcudart,
// reports versions, and round-trips a buffer through each visible device. Without a driver: skip with the
// exact CUDA error; never pass without having touched a GPU.
#include <cstring>
#include <vector>

#include "cudart_loader.h"
#include "core/cuda_version.h"
#include "core/driver_requirement.h"
#include "core/text.h"
#include "probe/probe.h"

int main(int argc, char** argv) {
  using namespace gpucheck;
  return probe::run(argc, argv, [](const probe::Context&, Finding& r) {
    probe::Cudart rt;
    if (!probe::load_cudart(rt)) {
      r.evidence["tried"] = join(rt.tried, "\n");
      r.add_fix("install the CUDA runtime (a CUDA toolkit, or pip install nvidia-cuda-runtime-cu12) "
                         "or set GPUCHECK_CUDART=/path/to/libcudart.so");
      return probe::skip(r, "no CUDA runtime library (libcudart) could be loaded");
    }
    r.evidence["cudart"] = rt.path;
    int runtime = 0, driver = 0;
    rt.runtime_version(&runtime);
    r.evidence["runtime_version"] = cuda_int_to_string(runtime);
    int drc = rt.driver_version(&driver);
    r.evidence["driver_cuda_version"] = drc == probe::kCudaSuccess && driver > 0 ? cuda_int_to_string(driver) : "none";

    int count = 0;
    int rc = rt.device_count(&count);
    if (rc != probe::kCudaSuccess) {
      r.evidence["cudaGetDeviceCount"] = rt.describe(rc);
      if (driver == 0) r.add_fix("install the NVIDIA driver (nvidia-smi must work) on a machine with a GPU");
      else if (driver < runtime)
        r.add_fix("the driver supports CUDA " + cuda_int_to_string(driver) + " but the runtime is " +
                           cuda_int_to_string(runtime) + ": upgrade the driver or use a runtime <= the driver's");
      std::string why = "CUDA runtime " + cuda_int_to_string(runtime) + " cannot reach a GPU: " + rt.describe(rc);
      if (rc == probe::kCudaErrorInsufficientDriver) why += " (" + driver_requirement(runtime, driver) + ")";
      return probe::skip(r, why);
    }
    r.add_metric("device_count", count, "count");
    if (count == 0) return probe::skip(r, "CUDA runtime " + cuda_int_to_string(runtime) + " sees no GPU");

    Status overall = Status::kPass;
    for (int d = 0; d < count; ++d) {
      DeviceFinding dev;
      dev.device = std::to_string(d);
      int major = 0, minor = 0, sms = 0;
      rt.device_attribute(&major, probe::kAttrComputeCapabilityMajor, d);
      rt.device_attribute(&minor, probe::kAttrComputeCapabilityMinor, d);
      rt.device_attribute(&sms, probe::kAttrMultiProcessorCount, d);
      dev.evidence["compute_capability"] = std::to_string(major) + "." + std::to_string(minor);
      dev.evidence["multiprocessors"] = std::to_string(sms);
      // A 1 MiB pattern through device memory proves allocation and both copy directions work.
      std::size_t n = 1 << 20;
      std::vector<unsigned char> src(n), back(n, 0);
      for (std::size_t i = 0; i < n; ++i) src[i] = static_cast<unsigned char>((i * 131 + d) & 0xff);
      void* buf = nullptr;
      int e = rt.set_device(d);
      if (e == 0) e = rt.malloc(&buf, n);
      if (e == 0) e = rt.memcpy(buf, src.data(), n, probe::kMemcpyHostToDevice);
      if (e == 0) e = rt.memcpy(back.data(), buf, n, probe::kMemcpyDeviceToHost);
      if (buf) rt.free(buf);
      std::size_t free_b = 0, total_b = 0;
      if (e == 0 && rt.mem_get_info(&free_b, &total_b) == 0)
        dev.metrics.push_back({"memory_total", static_cast<double>(total_b) / (1 << 30), "GiB", ""});
      if (e != 0) {
        dev.status = Status::kFail;
        dev.summary = "device memory round trip failed: " + rt.describe(e);
      } else if (std::memcmp(src.data(), back.data(), n) != 0) {
        dev.status = Status::kFail;
        dev.summary = "device memory round trip returned different bytes";
      } else {
        dev.status = Status::kPass;
        dev.summary = "sm_" + std::to_string(major) + std::to_string(minor) + ", " + std::to_string(sms) +
                      " SMs, 1 MiB round trip verified";
      }
      overall = worst(overall, dev.status);
      r.devices.push_back(dev);
    }
    r.status = overall;
    r.summary = "CUDA runtime " + cuda_int_to_string(runtime) + ", driver CUDA " + cuda_int_to_string(driver) + ", " +
                std::to_string(count) + " GPU(s)" + (overall == Status::kPass ? ", memory round trip verified" : "");
  });
}
