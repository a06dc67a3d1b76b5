#include "nccl_loader.h"

#include <dlfcn.h>
#include <nccl.h>

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

#include "core/paths.h"

namespace fs = std::filesystem;

namespace gpucheck::collectives {

namespace {
std::string real_file_of(const void* symbol) {
  Dl_info info{};
  if (!symbol || !dladdr(symbol, &info) || !info.dli_fname) return "";
  std::error_code ec;
  fs::path p = fs::canonical(info.dli_fname, ec);
  return ec ? info.dli_fname : p.string();
}
}  // namespace

#ifndef GPUCHECK_NCCL_DLOPEN

std::string load_nccl() { return ""; }  // linked: the dynamic loader already found it
std::string nccl_library_file() { return real_file_of(reinterpret_cast<const void*>(&ncclGetVersion)); }

}  // namespace gpucheck::collectives

#else

// Every NCCL function the probe calls (nccl_transport.cpp, .h). ncclCommSplit is the newest (NCCL 2.18).
#define GPUCHECK_NCCL_API(X)                                                                              \
  X(ncclGetVersion) X(ncclGetUniqueId) X(ncclCommInitRankConfig) X(ncclCommSplit) X(ncclCommFinalize)      \
  X(ncclCommDestroy) X(ncclCommAbort) X(ncclCommGetAsyncError) X(ncclGetErrorString) X(ncclGetLastError) \
  X(ncclGroupStart) X(ncclGroupEnd) X(ncclAllGather) X(ncclReduceScatter) X(ncclAllReduce) X(ncclBroadcast)

struct Api {
#define GPUCHECK_NCCL_POINTER(name) decltype(&::name) name = nullptr;
  GPUCHECK_NCCL_API(GPUCHECK_NCCL_POINTER)
#undef GPUCHECK_NCCL_POINTER
};
Api api;  // not in the anonymous namespace: the extern "C" definitions below call through it

namespace {
bool loaded = false;

// nvidia/nccl/lib/libnccl.so.2 in PREFIX/lib/python3.*/site-packages (venv, conda env, the prefix gpucheck
// is installed in), sorted so the choice does not depend on directory order.
std::vector<fs::path> wheel_candidates(const fs::path& prefix) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(prefix / "lib", ec)) {
    std::string name = e.path().filename().string();
    if (name.rfind("python3", 0) != 0) continue;
    fs::path so = e.path() / "site-packages/nvidia/nccl/lib/libnccl.so.2";
    if (fs::exists(so, ec)) out.push_back(so);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string resolve(void* h, const std::string& file) {
#define GPUCHECK_NCCL_RESOLVE(name)                                                                  \
  api.name = reinterpret_cast<decltype(&::name)>(dlsym(h, #name));                                 \
  if (!api.name) return file + " has no " #name " (collectives.nccl needs NCCL >= 2.18)";
  GPUCHECK_NCCL_API(GPUCHECK_NCCL_RESOLVE)
#undef GPUCHECK_NCCL_RESOLVE
  loaded = true;
  return "";
}
}  // namespace

std::string load_nccl() {
  if (loaded) return "";
  // 1. The loader path (LD_LIBRARY_PATH, ld.so.cache): what a linked probe would have used.
  if (void* h = dlopen("libnccl.so.2", RTLD_NOW | RTLD_GLOBAL)) return resolve(h, "libnccl.so.2");
  const char* said = dlerror();  // not found, or found and not loadable: the reason says which
  std::string loader_error = said ? said : "dlopen failed";
  // 2. torch's NCCL in the environment being judged: the activated venv or conda env, then the prefix this
  //    probe is installed in (libexec/gpucheck/ -> ../..: the venv pip installed gpucheck into).
  std::vector<fs::path> prefixes;
  for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"})
    if (const char* v = std::getenv(var); v && *v) prefixes.emplace_back(v);
  fs::path self = self_executable();
  if (!self.empty()) prefixes.push_back(self.parent_path().parent_path().parent_path());
  std::string tried;
  std::vector<fs::path> seen;  // the activated venv is often the one gpucheck is installed in
  for (const auto& prefix : prefixes) {
    if (std::find(seen.begin(), seen.end(), prefix.lexically_normal()) != seen.end()) continue;
    seen.push_back(prefix.lexically_normal());
    tried += (tried.empty() ? "" : ", ") + (prefix / "lib/python3.*/site-packages/nvidia/nccl/lib").string();
    for (const auto& so : wheel_candidates(prefix)) {
      if (void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_GLOBAL)) return resolve(h, so.string());
      const char* e = dlerror();
      return so.string() + " does not load: " + (e ? e : "dlopen failed");
    }
  }
  return "no libnccl.so.2 on the loader path (" + loader_error + ") and no nvidia-nccl-cu* wheel (torch's NCCL) in " +
         (tried.empty() ? "any environment (no VIRTUAL_ENV, CONDA_PREFIX or install prefix)" : tried);
}

std::string nccl_library_file() {
  return loaded ? real_file_of(reinterpret_cast<const void*>(api.ncclGetVersion)) : "";
}

}  // namespace gpucheck::collectives

// The NCCL API the probe links against, forwarded to the library load_nccl opened (signatures: nccl.h).
// The probe calls load_nccl before any of these (make_transport); a call before it is a programming error.
namespace {
template <class F>
F loaded_or_abort(F f, const char* name) {
  if (!f) {
    std::fprintf(stderr, "collectives.nccl: %s called before load_nccl\n", name);
    std::abort();
  }
  return f;
}
}  // namespace
#define GPUCHECK_NCCL_CALL(name, ...) loaded_or_abort(gpucheck::collectives::api.name, #name)(__VA_ARGS__)

extern "C" {
ncclResult_t ncclGetVersion(int* version) { return GPUCHECK_NCCL_CALL(ncclGetVersion, version); }
ncclResult_t ncclGetUniqueId(ncclUniqueId* id) { return GPUCHECK_NCCL_CALL(ncclGetUniqueId, id); }
ncclResult_t ncclCommInitRankConfig(ncclComm_t* comm, int nranks, ncclUniqueId id, int rank, ncclConfig_t* config) {
  return GPUCHECK_NCCL_CALL(ncclCommInitRankConfig, comm, nranks, id, rank, config);
}
ncclResult_t ncclCommSplit(ncclComm_t comm, int color, int key, ncclComm_t* newcomm, ncclConfig_t* config) {
  return GPUCHECK_NCCL_CALL(ncclCommSplit, comm, color, key, newcomm, config);
}
ncclResult_t ncclCommFinalize(ncclComm_t comm) { return GPUCHECK_NCCL_CALL(ncclCommFinalize, comm); }
ncclResult_t ncclCommDestroy(ncclComm_t comm) { return GPUCHECK_NCCL_CALL(ncclCommDestroy, comm); }
ncclResult_t ncclCommAbort(ncclComm_t comm) { return GPUCHECK_NCCL_CALL(ncclCommAbort, comm); }
ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t* e) {
  return GPUCHECK_NCCL_CALL(ncclCommGetAsyncError, comm, e);
}
const char* ncclGetErrorString(ncclResult_t r) { return GPUCHECK_NCCL_CALL(ncclGetErrorString, r); }
const char* ncclGetLastError(ncclComm_t comm) { return GPUCHECK_NCCL_CALL(ncclGetLastError, comm); }
ncclResult_t ncclGroupStart() { return GPUCHECK_NCCL_CALL(ncclGroupStart); }
ncclResult_t ncclGroupEnd() { return GPUCHECK_NCCL_CALL(ncclGroupEnd); }
ncclResult_t ncclAllGather(const void* send, void* recv, size_t count, ncclDataType_t t, ncclComm_t comm,
                           cudaStream_t s) {
  return GPUCHECK_NCCL_CALL(ncclAllGather, send, recv, count, t, comm, s);
}
ncclResult_t ncclReduceScatter(const void* send, void* recv, size_t count, ncclDataType_t t, ncclRedOp_t op,
                               ncclComm_t comm, cudaStream_t s) {
  return GPUCHECK_NCCL_CALL(ncclReduceScatter, send, recv, count, t, op, comm, s);
}
ncclResult_t ncclAllReduce(const void* send, void* recv, size_t count, ncclDataType_t t, ncclRedOp_t op,
                           ncclComm_t comm, cudaStream_t s) {
  return GPUCHECK_NCCL_CALL(ncclAllReduce, send, recv, count, t, op, comm, s);
}
ncclResult_t ncclBroadcast(const void* send, void* recv, size_t count, ncclDataType_t t, int root,
                           ncclComm_t comm, cudaStream_t s) {
  return GPUCHECK_NCCL_CALL(ncclBroadcast, send, recv, count, t, root, comm, s);
}
}

#endif
