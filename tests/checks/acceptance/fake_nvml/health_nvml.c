/* A stand-in libnvidia-ml.so.1 for device.health's tests: two H100 SXM GPUs whose health counters are set
 * by the scenario this copy was compiled for (-DSCENARIO_<NAME>, tests/checks/acceptance/CMakeLists.txt).
 * Signatures and values as in nvml.h (CUDA 12.6). It proves the probe's binding and rules, not the
 * behaviour of a real driver. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

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

enum { OK = 0, NOT_SUPPORTED = 3, NO_PERMISSION = 4, TIMEOUT = 10, CORRUPTED_INFOROM = 14 };

static int devices[2] = {0, 1};
static int idx(nvmlDevice_t d) { return *(int*)d; }

#ifndef SCENARIO_NOT_NVML
int nvmlInit_v2(void) { return OK; }
#endif
int nvmlShutdown(void) { return OK; }
const char* nvmlErrorString(int rc) { return rc ? "Stand-in error" : "Success"; }
int nvmlSystemGetDriverVersion(char* buf, unsigned len) { snprintf(buf, len, "550.54.15"); return OK; }
int nvmlDeviceGetCount_v2(unsigned* n) { *n = 2; return OK; }
int nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_t* d) {
  if (i > 1) return 2;
  *d = &devices[i];
  return OK;
}
/* By PCI bus id as CUDA writes it ("0000:18:00.0") or NVML does ("00000000:18:00.0"): the samplers'
 * lookup (kernels/hwmon/nvml_lite.cpp). */
int nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, nvmlDevice_t* d) {
  const char* bus = strchr(bus_id, ':');
  if (!bus) return 2; /* NVML_ERROR_INVALID_ARGUMENT */
  if (strncasecmp(bus, ":18:", 4) == 0) *d = &devices[0];
  else if (strncasecmp(bus, ":1B:", 4) == 0) *d = &devices[1];
  else return 6; /* NVML_ERROR_NOT_FOUND */
  return OK;
}
int nvmlDeviceGetName(nvmlDevice_t d, char* buf, unsigned len) { (void)d; snprintf(buf, len, "NVIDIA H100 80GB HBM3"); return OK; }
int nvmlDeviceGetUUID(nvmlDevice_t d, char* buf, unsigned len) {
  snprintf(buf, len, idx(d) ? "GPU-bbbbbbbb-0000-0000-0000-000000000001" : "GPU-aaaaaaaa-0000-0000-0000-000000000000");
  return OK;
}
int nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t* p) {
  memset(p, 0, sizeof *p);
  p->pciDeviceId = 0x233010DE;
  snprintf(p->busId, sizeof p->busId, "00000000:%02X:00.0", idx(d) ? 0x1B : 0x18);
  return OK;
}

int nvmlDeviceGetEccMode(nvmlDevice_t d, unsigned* cur, unsigned* pend) {
  (void)d;
#ifdef SCENARIO_NOT_SUPPORTED
  return NOT_SUPPORTED;
#endif
  *cur = *pend = 1;
  return OK;
}
int nvmlDeviceGetTotalEccErrors(nvmlDevice_t d, int type, int counter, unsigned long long* n) {
#if defined(SCENARIO_NO_PERMISSION)
  (void)d, (void)type, (void)counter, (void)n;
  return NO_PERMISSION;
#elif defined(SCENARIO_NOT_SUPPORTED)
  (void)d, (void)type, (void)counter, (void)n;
  return NOT_SUPPORTED;
#else
  *n = type == 0 ? 3 : 0; /* a few corrected errors are normal */
#ifdef SCENARIO_UNCORRECTABLE_ECC
  if (idx(d) == 1 && type == 1) *n = counter == 0 ? 2 : 5;
#else
  (void)d, (void)counter;
#endif
  return OK;
#endif
}
int nvmlDeviceGetRetiredPages(nvmlDevice_t d, int cause, unsigned* count, unsigned long long* addrs) {
  (void)d, (void)cause, (void)addrs;
  *count = 0;
  return OK;
}
int nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t d, unsigned* pending) { (void)d; *pending = 0; return OK; }
#ifndef SCENARIO_MISSING_SYMBOLS
int nvmlDeviceGetRemappedRows(nvmlDevice_t d, unsigned* corr, unsigned* unc, unsigned* pending, unsigned* failed) {
  *corr = *unc = *pending = *failed = 0;
#ifdef SCENARIO_PENDING_REMAP
  if (idx(d) == 0) *unc = 1, *pending = 1;
  if (idx(d) == 1) *failed = 1;
#else
  (void)d;
#endif
  return OK;
}
int nvmlDeviceValidateInforom(nvmlDevice_t d) {
#ifdef SCENARIO_CORRUPTED_INFOROM
  return idx(d) == 1 ? CORRUPTED_INFOROM : OK;
#else
  (void)d;
  return OK;
#endif
}
int nvmlDeviceGetGpuMaxPcieLinkGeneration(nvmlDevice_t d, unsigned* v) { (void)d; *v = 5; return OK; }
#endif

static unsigned long long event_reasons(nvmlDevice_t d) {
  (void)d;
#if defined(SCENARIO_THROTTLE)
  if (idx(d) == 0) return 0x40 | 0x4; /* HwThermalSlowdown | SwPowerCap */
#elif defined(SCENARIO_IDLE_LINK)
  return 0x1; /* GpuIdle */
#endif
  return 0;
}
#ifdef SCENARIO_MISSING_SYMBOLS
/* An older driver: only the pre-R535 name of the same call. */
int nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t d, unsigned long long* m) { *m = event_reasons(d); return OK; }
#else
int nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t d, unsigned long long* m) { *m = event_reasons(d); return OK; }
#endif

int nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t d, unsigned* v) {
  *v = 5;
#if defined(SCENARIO_DOWNGRADED_LINK)
  if (idx(d) == 0) *v = 3;
#elif defined(SCENARIO_IDLE_LINK)
  (void)d;
  *v = 1;
#else
  (void)d;
#endif
  return OK;
}
int nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t d, unsigned* v) { (void)d; *v = 5; return OK; }
int nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d, unsigned* v) {
  *v = 16;
#ifdef SCENARIO_DOWNGRADED_LINK
  if (idx(d) == 1) *v = 8;
#else
  (void)d;
#endif
  return OK;
}
int nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t d, unsigned* v) { (void)d; *v = 16; return OK; }
int nvmlDeviceGetPersistenceMode(nvmlDevice_t d, unsigned* m) { (void)d; *m = 1; return OK; }
int nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned* mw) { *mw = idx(d) ? 121500 : 118250; return OK; }
int nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t d, unsigned* mw) { (void)d; *mw = 700000; return OK; }
int nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned* c) { (void)sensor; *c = idx(d) ? 41 : 39; return OK; }

/* Events: SCENARIO_XID delivers one XID 79 on GPU 1, then times out. */
static int event_set;
static int xid_pending;
int nvmlEventSetCreate(nvmlEventSet_t* s) {
  *s = &event_set;
#ifdef SCENARIO_XID
  xid_pending = 1;
#endif
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
