// cublas.gemm: is cuBLAS right on this GPU (exact integer products, random products within the per-type
// bound of gemm_types.h) and how fast (median TFLOP/s per type at sizes up to 16384)?
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/cuda_support.h"
#include "common/device_identity.h"
#include "gemm/cublaslt.h"
#include "gemm/gemm_cuda.h"
#include "gemm/gemm_reference.h"
#include "core/measurement_details.h"
#include "core/text.h"
#include "probe/probe.h"

namespace {

using namespace gpucheck;
using namespace gpucheck::kernels;

constexpr GemmType kTypes[] = {GemmType::kFp32, GemmType::kTf32, GemmType::kFp16, GemmType::kBf16, GemmType::kFp8};
constexpr std::int64_t kCheckM = 256, kCheckN = 256, kCheckK = 1024;

// The cases and CPU references, computed once and run on every GPU.
struct Reference {
  GemmType type;
  GemmCase exact_case, random_case;
  std::vector<std::int64_t> exact;
  std::vector<double> value, abs_sum;
};

std::vector<float> run_case(const CublasLtApi& api, cublasLtHandle_t h, const GemmCase& c, std::string& why) {
  LtMatmul mm(api, h, c.type, c.m, c.n, c.k);
  if (!mm.supported()) {
    why = mm.unsupported_reason();
    return {};
  }
  DeviceBuffer a(c.a.size()), b(c.b.size()), d(sizeof(float) * c.m * c.n);
  a.upload(c.a.data(), c.a.size());
  b.upload(c.b.data(), c.b.size());
  mm.run(a.get(), b.get(), d.as<float>(), nullptr);
  cuda_check(cudaDeviceSynchronize(), "cublasLtMatmul");
  std::vector<float> out(c.m * c.n);
  d.download(out.data(), d.bytes());
  return out;
}

struct Events {
  cudaEvent_t start = nullptr, stop = nullptr;
  Events() {
    cuda_check(cudaEventCreate(&start), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
  }
  ~Events() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
};

// Median TFLOP/s of `reps` timed products of size n (after two untimed ones); 0 with `why` when the type
// has no algorithm here or the matrices do not fit.
double throughput(const CublasLtApi& api, cublasLtHandle_t h, GemmType t, std::int64_t n, int reps, std::string& why) {
  std::size_t free_b = 0, total_b = 0;
  cuda_check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  std::size_t need = 2 * std::size_t(n) * n * input_bytes(t) + std::size_t(n) * n * 4 + (64u << 20);
  if (need > free_b) {
    why = std::to_string(n) + ": needs " + std::to_string(need >> 20) + " MiB, " + std::to_string(free_b >> 20) + " free";
    return 0;
  }
  LtMatmul mm(api, h, t, n, n, n);
  if (!mm.supported()) {
    why = mm.unsupported_reason();
    return 0;
  }
  DeviceBuffer a(std::size_t(n) * n * input_bytes(t)), b(a.bytes()), d(std::size_t(n) * n * 4);
  cuda_check(launch_gemm_fill(t, a.get(), std::size_t(n) * n, 1, nullptr), "fill A");
  cuda_check(launch_gemm_fill(t, b.get(), std::size_t(n) * n, 2, nullptr), "fill B");
  for (int i = 0; i < 2; ++i) mm.run(a.get(), b.get(), d.as<float>(), nullptr);
  Events ev;
  std::vector<double> tflops;
  for (int i = 0; i < reps; ++i) {
    cuda_check(cudaEventRecord(ev.start), "cudaEventRecord");
    mm.run(a.get(), b.get(), d.as<float>(), nullptr);
    cuda_check(cudaEventRecord(ev.stop), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(ev.stop), "cublasLtMatmul (timed)");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, ev.start, ev.stop), "cudaEventElapsedTime");
    tflops.push_back(2.0 * double(n) * n * n / (ms * 1e-3) / 1e12);
  }
  std::sort(tflops.begin(), tflops.end());
  return tflops[tflops.size() / 2];
}

DeviceFinding test_device(int dev, const CublasLtApi& api, const std::vector<Reference>& refs,
                          const std::vector<std::int64_t>& sizes, int reps, measured::GemmDevice& details) {
  DeviceFinding d;
  set_device_identity(d, dev);
  probe::phase("cudaSetDevice + cublasLtCreate on GPU " + std::to_string(dev), {dev});
  cuda_check(cudaSetDevice(dev), "cudaSetDevice");
  cudaDeviceProp p{};
  cuda_check(cudaGetDeviceProperties(&p, dev), "cudaGetDeviceProperties");
  int cc = p.major * 10 + p.minor;
  d.evidence["device"] = std::string(p.name) + " (sm_" + std::to_string(cc) + ")";
  LtHandle handle(api);
  cublasLtHandle_t h = handle.get();
  std::vector<std::string> wrong;
  int measured = 0;
  for (const Reference& ref : refs) {
    std::string name = to_string(ref.type);
    measured::GemmTypeResult jt{name, nullptr, nullptr, {}};
    if (ref.type == GemmType::kFp8 && cc < 89) {
      d.evidence[name] = "not run: E4M3 tensor cores need compute capability 8.9, this GPU is " +
                         std::to_string(p.major) + "." + std::to_string(p.minor);
      details.types.push_back(jt);
      continue;
    }
    std::string why;
    probe::phase("cublasLtMatmul " + name + " correctness on GPU " + std::to_string(dev), {dev});
    auto got = run_case(api, h, ref.exact_case, why);
    if (got.empty()) {
      d.evidence[name] = "not run: " + why;
      details.types.push_back(jt);
      continue;
    }
    GemmCheck ex = check_exact(ref.exact_case, ref.exact, got);
    got = run_case(api, h, ref.random_case, why);
    GemmCheck rnd = check_tolerance(ref.random_case, ref.value, ref.abs_sum, got, gemm_tolerance(ref.type, kCheckK));
    jt.exact = {{"wrong", ex.wrong}, {"worst_abs_error", ex.worst_excess}, {"first", ex.first}};
    jt.random = {{"wrong", rnd.wrong}, {"worst_error_over_allowed", rnd.worst_excess}, {"first", rnd.first},
                    {"tolerance", gemm_tolerance(ref.type, kCheckK)}};
    if (!ex.ok) wrong.push_back(name + " exact: " + std::to_string(ex.wrong) + " wrong, first " + ex.first);
    if (!rnd.ok) wrong.push_back(name + " random: " + std::to_string(rnd.wrong) + " outside the bound, first " + rnd.first);
    d.evidence[name + " correctness"] = std::string(ex.ok ? "exact" : "NOT exact") + " (integers <= " +
        std::to_string(exact_integer_bound(ref.type, kCheckK)) + ", k " + std::to_string(kCheckK) + "); random " +
        (rnd.ok ? "within" : "OUTSIDE") + " the bound (worst " + std::to_string(rnd.worst_excess).substr(0, 5) + " of it)";
    double at_largest = 0;
    std::vector<std::string> notes;
    for (std::int64_t n : sizes) {
      probe::phase("cublasLtMatmul " + name + " " + std::to_string(n) + "^3 throughput on GPU " + std::to_string(dev), {dev});
      std::string w;
      double tf = throughput(api, h, ref.type, n, reps, w);
      if (tf > 0) jt.throughput.push_back({n, tf});
      else notes.push_back(w);
      if (tf > 0) at_largest = tf;  // the contract's figure: the median at the largest size that ran
    }
    if (at_largest > 0) {
      d.metrics.push_back({"tflops_" + name, at_largest, "TFLOP/s", "higher"});
      ++measured;
    }
    if (!notes.empty()) d.evidence[name + " sizes not timed"] = notes.front();
    details.types.push_back(jt);
  }
  d.status = wrong.empty() ? (measured ? Status::kPass : Status::kSkip) : Status::kFail;
  if (!wrong.empty()) {
    d.summary = wrong.front() + (wrong.size() > 1 ? " (+" + std::to_string(wrong.size() - 1) + " more)" : "");
    for (std::size_t i = 0; i < wrong.size(); ++i) d.evidence["wrong " + std::to_string(i + 1)] = wrong[i];
  } else {
    std::string s;
    for (auto& m : d.metrics) s += (s.empty() ? "" : ", ") + m.name.substr(7) + " " + std::to_string(m.value).substr(0, 6);
    d.summary = measured ? "correct; TFLOP/s " + s : "no type could be measured";
  }
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  return probe::run(argc, argv, [](const probe::Context& ctx, Finding& r) {
    // quick measures one size too, judged against the datasheet like the others: 8192, since at 4096 an H200's
    // fp8 product reached 1126 TFLOP/s (0.57x; 1425 at standard's sizes), a healthy GPU below the 0.6 rule.
    std::vector<std::int64_t> sizes = ctx.level == "quick" ? std::vector<std::int64_t>{8192}
                                                           : std::vector<std::int64_t>{4096, 8192, 16384};
    if (std::string max = ctx.arg("--max-size"); !max.empty()) {
      long long m = std::atoll(max.c_str());
      if (m < 256 || m > 65536) throw std::invalid_argument("--max-size must be in [256, 65536], got '" + max + "'");
      sizes.erase(std::remove_if(sizes.begin(), sizes.end(), [m](std::int64_t n) { return n > m; }), sizes.end());
      if (sizes.empty()) sizes.push_back(m / 16 * 16);
    }
    int reps = ctx.level == "quick" ? 3 : ctx.level == "long" ? 20 : 5;
    if (!require_gpu(r)) return;
    CublasLtApi api;
    if (!load_cublaslt(api)) {
      r.evidence["tried"] = join(api.tried, "\n");
      r.add_fix("make " + cublaslt_soname() + " loadable: install the CUDA toolkit's cuBLAS, or pip install "
                "nvidia-cublas and add its lib directory to LD_LIBRARY_PATH, or set GPUCHECK_CUBLASLT=/path/to/" +
                cublaslt_soname());
      return probe::skip(r, "no usable cuBLASLt: " + cublaslt_soname() + " could not be loaded (" +
                                (api.tried.empty() ? std::string("no candidate") : api.tried.front()) + ")");
    }
    r.evidence["cublasLt"] = api.path + " (version " + std::to_string(api.version) + ")";
    std::vector<Reference> refs;
    for (GemmType t : kTypes) {
      Reference ref{t, make_integer_case(t, kCheckM, kCheckN, kCheckK, exact_integer_bound(t, kCheckK), 17),
                    make_random_case(t, kCheckM, kCheckN, kCheckK, 23), {}, {}, {}};
      ref.exact = exact_product(ref.exact_case);
      reference_product(ref.random_case, ref.value, ref.abs_sum);
      refs.push_back(std::move(ref));
    }
    int count = 0;
    cuda_check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    Status overall = Status::kPass;
    std::vector<measured::GemmDevice> details;
    for (int dev = 0; dev < count; ++dev) {
      measured::GemmDevice per_type;
      DeviceFinding d = test_device(dev, api, refs, sizes, reps, per_type);
      per_type.device = d.device;
      details.push_back(std::move(per_type));
      overall = worst(overall, d.status);
      r.devices.push_back(std::move(d));
    }
    r.details = measured::gemm_details(details, {kCheckM, kCheckN, kCheckK}, sizes, reps);
    r.status = overall;
    r.summary = std::to_string(count) + " GPU(s): " +
                (overall == Status::kFail ? "cuBLAS returned wrong products (see the GPUs)"
                                          : "exact and toleranced products correct; median TFLOP/s per type per GPU");
  });
}
