/* A stand-in libnvidia-ml.so.1 for gpucheck selftest (docs/acceptance.md "Selftest"): two H100 SXM GPUs
 * whose counters are healthy, or carry the one fault named in GPUCHECK_FAKE_NVML_FAULT at run time:
 *   ecc_uncorrected  2 volatile uncorrected ECC errors on GPU 1
 *   ecc_lifetime     5 aggregate uncorrected ECC errors on GPU 1, none since the driver loaded
 *   retired_pending  pages pending retirement on GPU 0
 *   remap_pending    a row remapping pending on GPU 0
 *   remap_failed     a failed row remapping on GPU 1
 *   inforom          a corrupted infoROM on GPU 1
 *   pcie_width       GPU 1's link at x8 of x16
 *   pcie_gen         GPU 0's link at gen 3 of gen 5 while not idle
 *   gpu_lost         every query on GPU 1 answers NVML_ERROR_GPU_IS_LOST
 *   throttle         GPU 0 in hardware thermal slowdown and at its power cap
 *   xid              Xid 79 on GPU 1 while the probe watches events
 * Signatures and values as in nvml.h (CUDA 12.6). No real GPU is touched: this library is all there is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char busIdLegacy[16];
  unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
} nvmlPciInfo_t;
typedef void* nvmlDevice_t;
typedef void* nvmlEventSet_t;
typedef struct {
  nvmlDevice_t device;
  unsigned long long eventType, eventData;
  unsigned gpuInstanceId, computeInstanceId;
} nvmlEventData_t;

enum { OK = 0, TIMEOUT = 10, CORRUPTED_INFOROM = 14, GPU_IS_LOST = 15 };

static int devices[2] = {0, 1};
static int idx(nvmlDevice_t d) { return *(int*)d; }
static int fault(const char* name) {
  const char* f = getenv("GPUCHECK_FAKE_NVML_FAULT");
  return f && strcmp(f, name) == 0;
}
#define LOST(d) \
  if (fault("gpu_lost") && idx(d) == 1) return GPU_IS_LOST

int nvmlInit_v2(void) { return OK; }
int nvmlShutdown(void) { return OK; }
const char* nvmlErrorString(int rc) { return rc ? "Stand-in error" : "Success"; }
int nvmlSystemGetDriverVersion(char* buf, unsigned len) { snprintf(buf, len, "550.54.15"); return OK; }
int nvmlDeviceGetCount_v2(unsigned* n) { *n = 2; return OK; }
int nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_t* d) {
  if (i > 1) return 2;
  *d = &devices[i];
  return OK;
}
int nvmlDeviceGetName(nvmlDevice_t d, char* buf, unsigned len) { (void)d; snprintf(buf, len, "NVIDIA H100 80GB HBM3"); return OK; }
int nvmlDeviceGetUUID(nvmlDevice_t d, char* buf, unsigned len) {
  snprintf(buf, len, idx(d) ? "GPU-5e1f7e57-0000-0000-0000-000000000001" : "GPU-5e1f7e57-0000-0000-0000-000000000000");
  return OK;
}
int nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t* p) {
  memset(p, 0, sizeof *p);
  p->pciDeviceId = 0x233010DE;
  snprintf(p->busId, sizeof p->busId, "00000000:%02X:00.0", idx(d) ? 0x1B : 0x18);
  return OK;
}
int nvmlDeviceGetEccMode(nvmlDevice_t d, unsigned* cur, unsigned* pend) {
  LOST(d);
  *cur = *pend = 1;
  return OK;
}
int nvmlDeviceGetTotalEccErrors(nvmlDevice_t d, int type, int counter, unsigned long long* n) {
  LOST(d);
  *n = type == 0 ? 3 : 0; /* a few corrected errors are normal */
  if (type == 1 && idx(d) == 1 && fault("ecc_uncorrected")) *n = counter == 0 ? 2 : 5;
  if (type == 1 && idx(d) == 1 && fault("ecc_lifetime")) *n = counter == 0 ? 0 : 5;
  return OK;
}
int nvmlDeviceGetRetiredPages(nvmlDevice_t d, int cause, unsigned* count, unsigned long long* addrs) {
  (void)cause, (void)addrs;
  LOST(d);
  *count = 0;
  return OK;
}
int nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t d, unsigned* pending) {
  LOST(d);
  *pending = fault("retired_pending") && idx(d) == 0;
  return OK;
}
int nvmlDeviceGetRemappedRows(nvmlDevice_t d, unsigned* corr, unsigned* unc, unsigned* pending, unsigned* failed) {
  LOST(d);
  *corr = *unc = *pending = *failed = 0;
  if (fault("remap_pending") && idx(d) == 0) *unc = 1, *pending = 1;
  if (fault("remap_failed") && idx(d) == 1) *failed = 1;
  return OK;
}
int nvmlDeviceValidateInforom(nvmlDevice_t d) {
  LOST(d);
  return fault("inforom") && idx(d) == 1 ? CORRUPTED_INFOROM : OK;
}
int nvmlDeviceGetGpuMaxPcieLinkGeneration(nvmlDevice_t d, unsigned* v) { LOST(d); *v = 5; return OK; }
int nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t d, unsigned long long* m) {
  LOST(d);
  *m = fault("throttle") && idx(d) == 0 ? 0x40 | 0x4 : 0; /* HwThermalSlowdown | SwPowerCap */
  return OK;
}
int nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t d, unsigned* v) {
  LOST(d);
  *v = fault("pcie_gen") && idx(d) == 0 ? 3 : 5;
  return OK;
}
int nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t d, unsigned* v) { LOST(d); *v = 5; return OK; }
int nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d, unsigned* v) {
  LOST(d);
  *v = fault("pcie_width") && idx(d) == 1 ? 8 : 16;
  return OK;
}
int nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t d, unsigned* v) { LOST(d); *v = 16; return OK; }
int nvmlDeviceGetPersistenceMode(nvmlDevice_t d, unsigned* m) { LOST(d); *m = 1; return OK; }
int nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned* mw) { LOST(d); *mw = idx(d) ? 121500 : 118250; return OK; }
int nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t d, unsigned* mw) { LOST(d); *mw = 700000; return OK; }
int nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned* c) { (void)sensor; LOST(d); *c = idx(d) ? 41 : 39; return OK; }

static int event_set;
static int xid_pending;
int nvmlEventSetCreate(nvmlEventSet_t* s) {
  *s = &event_set;
  xid_pending = fault("xid");
  return OK;
}
int nvmlDeviceRegisterEvents(nvmlDevice_t d, unsigned long long types, nvmlEventSet_t s) { (void)d, (void)types, (void)s; return OK; }
int nvmlEventSetWait_v2(nvmlEventSet_t s, nvmlEventData_t* e, unsigned ms) {
  (void)s, (void)ms;
  if (!xid_pending) return TIMEOUT;
  xid_pending = 0;
  memset(e, 0, sizeof *e);
  e->device = &devices[1];
  e->eventType = 0x8;
  e->eventData = 79;
  return OK;
}
int nvmlEventSetFree(nvmlEventSet_t s) { (void)s; return OK; }
