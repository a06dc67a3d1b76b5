// gpucheck-gpuinfo [nvml] [libcuda]: loads NVML (libnvidia-ml.so.1) and/or the driver library
// (libcuda.so.1) and prints what they say, one JSON object per line. It runs as a child of gpucheck so a
// driver library that crashes, hangs or runs a planted constructor (LD_LIBRARY_PATH) costs only this
// process: gpucheck itself never dlopens them. Lines are flushed as written, so what was read before a
// crash still reaches the parent. Only dlfcn: nothing of gpucheck is linked.
#include <dlfcn.h>
#include <link.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

std::string escape(const char* s) {
  std::string o;
  for (; s && *s; ++s) {
    char c = *s;
    if (c == '"' || c == '\\') o += '\\', o += c;
    else if (static_cast<unsigned char>(c) < 0x20) o += ' ';
    else o += c;
  }
  return o;
}

void emit(const std::string& line) {
  std::fputs((line + "\n").c_str(), stdout);
  std::fflush(stdout);
}

std::string str_field(const char* key, const char* value) { return std::string("\"") + key + "\":\"" + escape(value) + "\""; }
std::string num_field(const char* key, long long value) { return std::string("\"") + key + "\":" + std::to_string(value); }

std::string dl_error(const char* fallback) {
  const char* e = dlerror();
  return e ? e : fallback;
}

// The few NVML declarations needed (nvml.h is not required to build): stable since NVML 10.
using nvmlDevice_t = void*;
struct nvmlPciInfo_t {
  char busIdLegacy[16];
  unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
};
struct nvmlMemory_t {
  unsigned long long total, free, used;
};
constexpr int kClockSm = 1, kClockMem = 2;

void read_nvml() {
  void* h = dlopen("libnvidia-ml.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (!h) return emit("{" + str_field("nvml_error", dl_error("libnvidia-ml.so.1 cannot be loaded").c_str()) + "}");
  auto get = [h](const char* name) { return dlsym(h, name); };
  auto init = reinterpret_cast<int (*)()>(get("nvmlInit_v2"));
  auto count_fn = reinterpret_cast<int (*)(unsigned*)>(get("nvmlDeviceGetCount_v2"));
  auto handle_fn = reinterpret_cast<int (*)(unsigned, nvmlDevice_t*)>(get("nvmlDeviceGetHandleByIndex_v2"));
  auto err_fn = reinterpret_cast<const char* (*)(int)>(get("nvmlErrorString"));
  if (!init || !count_fn || !handle_fn)
    return emit("{" + str_field("nvml_error", "libnvidia-ml.so.1 lacks nvmlInit_v2/nvmlDeviceGetCount_v2") + "}");
  if (int rc = init(); rc != 0) {
    std::string why = std::string("nvmlInit_v2: ") + (err_fn ? err_fn(rc) : std::to_string(rc).c_str());
    return emit("{" + str_field("nvml_error", why.c_str()) + "}");
  }
  char buf[128] = {0};
  if (auto drv = reinterpret_cast<int (*)(char*, unsigned)>(get("nvmlSystemGetDriverVersion")); drv && drv(buf, sizeof buf) == 0)
    emit("{" + str_field("driver_version", buf) + "}");
  unsigned count = 0;
  count_fn(&count);
  auto name_fn = reinterpret_cast<int (*)(nvmlDevice_t, char*, unsigned)>(get("nvmlDeviceGetName"));
  auto uuid_fn = reinterpret_cast<int (*)(nvmlDevice_t, char*, unsigned)>(get("nvmlDeviceGetUUID"));
  auto pci_fn = reinterpret_cast<int (*)(nvmlDevice_t, nvmlPciInfo_t*)>(get("nvmlDeviceGetPciInfo_v3"));
  auto cc_fn = reinterpret_cast<int (*)(nvmlDevice_t, int*, int*)>(get("nvmlDeviceGetCudaComputeCapability"));
  auto mem_fn = reinterpret_cast<int (*)(nvmlDevice_t, nvmlMemory_t*)>(get("nvmlDeviceGetMemoryInfo"));
  auto ecc_fn = reinterpret_cast<int (*)(nvmlDevice_t, int*, int*)>(get("nvmlDeviceGetEccMode"));
  auto pers_fn = reinterpret_cast<int (*)(nvmlDevice_t, int*)>(get("nvmlDeviceGetPersistenceMode"));
  auto clk_fn = reinterpret_cast<int (*)(nvmlDevice_t, int, unsigned*)>(get("nvmlDeviceGetMaxClockInfo"));
  auto gen_cur = reinterpret_cast<int (*)(nvmlDevice_t, unsigned*)>(get("nvmlDeviceGetCurrPcieLinkGeneration"));
  auto gen_max = reinterpret_cast<int (*)(nvmlDevice_t, unsigned*)>(get("nvmlDeviceGetMaxPcieLinkGeneration"));
  auto w_cur = reinterpret_cast<int (*)(nvmlDevice_t, unsigned*)>(get("nvmlDeviceGetCurrPcieLinkWidth"));
  auto w_max = reinterpret_cast<int (*)(nvmlDevice_t, unsigned*)>(get("nvmlDeviceGetMaxPcieLinkWidth"));
  auto mig_fn = reinterpret_cast<int (*)(nvmlDevice_t, unsigned*, unsigned*)>(get("nvmlDeviceGetMigMode"));
  for (unsigned i = 0; i < count; ++i) {
    nvmlDevice_t dev = nullptr;
    if (handle_fn(i, &dev) != 0) continue;
    std::string line = "{\"gpu\":{" + num_field("index", i);
    char s[96] = {0};
    if (name_fn && name_fn(dev, s, sizeof s) == 0) line += "," + str_field("name", s);
    if (uuid_fn && uuid_fn(dev, s, sizeof s) == 0) line += "," + str_field("uuid", s);
    nvmlPciInfo_t pci{};
    if (pci_fn && pci_fn(dev, &pci) == 0) {
      line += "," + str_field("pci_bus_id", pci.busId) + "," + num_field("pci_device_id", pci.pciDeviceId >> 16);
    }
    int major = 0, minor = 0;
    if (cc_fn && cc_fn(dev, &major, &minor) == 0) line += "," + num_field("cc_major", major) + "," + num_field("cc_minor", minor);
    nvmlMemory_t mem{};
    if (mem_fn && mem_fn(dev, &mem) == 0) line += "," + num_field("memory_total_bytes", static_cast<long long>(mem.total));
    int cur = 0, pend = 0;
    // NVML_ERROR_NOT_SUPPORTED (3) is common (ECC on consumer boards): the field is left out then.
    if (ecc_fn && ecc_fn(dev, &cur, &pend) == 0) line += "," + num_field("ecc", cur);
    if (pers_fn && pers_fn(dev, &cur) == 0) line += "," + num_field("persistence", cur);
    unsigned u = 0, v = 0;
    if (clk_fn && clk_fn(dev, kClockSm, &u) == 0) line += "," + num_field("sm_clock_max_mhz", u);
    if (clk_fn && clk_fn(dev, kClockMem, &u) == 0) line += "," + num_field("mem_clock_max_mhz", u);
    if (gen_cur && gen_cur(dev, &u) == 0) line += "," + num_field("pcie_gen_current", u);
    if (gen_max && gen_max(dev, &u) == 0) line += "," + num_field("pcie_gen_max", u);
    if (w_cur && w_cur(dev, &u) == 0) line += "," + num_field("pcie_width_current", u);
    if (w_max && w_max(dev, &u) == 0) line += "," + num_field("pcie_width_max", u);
    if (mig_fn && mig_fn(dev, &u, &v) == 0) line += "," + num_field("mig", u);
    emit(line + "}}");
  }
  if (auto shutdown = reinterpret_cast<int (*)()>(get("nvmlShutdown"))) shutdown();
  emit("{\"nvml_done\":true}");
}

void read_libcuda() {
  void* h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (!h) return emit("{" + str_field("libcuda_error", dl_error("libcuda.so.1: cannot be loaded").c_str()) + "}");
  std::string line = "{\"libcuda\":{";
  link_map* lm = nullptr;
  if (dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name) line += str_field("path", lm->l_name) + ",";
  auto get = reinterpret_cast<int (*)(int*)>(dlsym(h, "cuDriverGetVersion"));
  int v = 0;
  if (get && get(&v) == 0) line += num_field("cuda_version", v);
  else line += str_field("error", get ? "cuDriverGetVersion failed" : "libcuda.so.1 has no cuDriverGetVersion");
  emit(line + "}}");
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "nvml") == 0) read_nvml();
    else if (std::strcmp(argv[i], "libcuda") == 0) read_libcuda();
  }
  return 0;
}
