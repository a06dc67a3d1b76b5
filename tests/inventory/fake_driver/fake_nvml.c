/* A stand-in libnvidia-ml.so.1 with two H100-like GPUs, for testing gpucheck's dlopen binding (symbol names,
 * struct layouts as documented at https://docs.nvidia.com/deploy/nvml-api/, CUDA_VISIBLE_DEVICES handling)
 * on a machine without a driver. It proves the plumbing, not the behaviour of a real driver. */
#include <stdio.h>
#include <string.h>

typedef struct {
  char busIdLegacy[16];
  unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
} nvmlPciInfo_t;
typedef struct {
  unsigned long long total, free, used;
} nvmlMemory_t;
typedef void* nvmlDevice_t;

static int devices[2] = {0, 1};

int nvmlInit_v2(void) { return 0; }
int nvmlShutdown(void) { return 0; }
const char* nvmlErrorString(int rc) { return rc ? "Fake error" : "Success"; }
int nvmlSystemGetDriverVersion(char* buf, unsigned len) { return snprintf(buf, len, "550.54.15") < 0; }
int nvmlDeviceGetCount_v2(unsigned* n) { *n = 2; return 0; }
int nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_t* d) {
  if (i > 1) return 2;
  *d = &devices[i];
  return 0;
}
static int idx(nvmlDevice_t d) { return *(int*)d; }
int nvmlDeviceGetName(nvmlDevice_t d, char* buf, unsigned len) { snprintf(buf, len, "NVIDIA H100 80GB HBM3"); (void)d; return 0; }
int nvmlDeviceGetUUID(nvmlDevice_t d, char* buf, unsigned len) {
  snprintf(buf, len, idx(d) ? "GPU-bbbbbbbb-0000-0000-0000-000000000001" : "GPU-aaaaaaaa-0000-0000-0000-000000000000");
  return 0;
}
int nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t* p) {
  memset(p, 0, sizeof *p);
  p->pciDeviceId = 0x233010DE;
  snprintf(p->busId, sizeof p->busId, "00000000:%02X:00.0", idx(d) ? 0x1B : 0x18);
  return 0;
}
int nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int* ma, int* mi) { *ma = 9; *mi = 0; (void)d; return 0; }
int nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t* m) { m->total = 85520809984ull; m->free = m->used = 0; (void)d; return 0; }
int nvmlDeviceGetEccMode(nvmlDevice_t d, int* cur, int* pend) { *cur = *pend = 1; (void)d; return 0; }
int nvmlDeviceGetPersistenceMode(nvmlDevice_t d, int* m) { *m = idx(d) ? 0 : 1; return 0; }
int nvmlDeviceGetMaxClockInfo(nvmlDevice_t d, int type, unsigned* mhz) { *mhz = type == 1 ? 1980 : 2619; (void)d; return 0; }
int nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t d, unsigned* v) { *v = idx(d) ? 4 : 5; return 0; }
int nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t d, unsigned* v) { *v = 5; (void)d; return 0; }
int nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d, unsigned* v) { *v = idx(d) ? 8 : 16; return 0; }
int nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t d, unsigned* v) { *v = 16; (void)d; return 0; }
int nvmlDeviceGetMigMode(nvmlDevice_t d, unsigned* cur, unsigned* pend) { (void)d; (void)cur; (void)pend; return 3; /* NOT_SUPPORTED */ }
