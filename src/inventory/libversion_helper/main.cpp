// gpucheck-libversion NAME=PATH ...: dlopens each CUDA library and prints one JSON line per library with the
// raw numbers its own version function returns. Runs as a child of `gpucheck env` so a library whose
// constructor crashes or hangs costs only this process. Output is flushed per line, so what was read
// before a crash still reaches the parent.
#include <dlfcn.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += c;
    else if (static_cast<unsigned char>(c) < 0x20) o += ' ';
    else o += c;
  }
  return o;
}

void emit(const std::string& name, const std::string& path, const std::vector<long long>& raw, const std::string& err) {
  std::string line = "{\"name\":\"" + escape(name) + "\",\"path\":\"" + escape(path) + "\"";
  if (!err.empty()) {
    line += ",\"error\":\"" + escape(err) + "\"";
  } else {
    line += ",\"raw\":[";
    for (std::size_t i = 0; i < raw.size(); ++i) line += (i ? "," : "") + std::to_string(raw[i]);
    line += "]";
  }
  line += "}\n";
  std::fputs(line.c_str(), stdout);
  std::fflush(stdout);
}

// Returns the raw numbers, or fills err.
std::vector<long long> read_one(void* h, const std::string& name, std::string& err) {
  auto sym = [&](const char* s) {
    void* p = dlsym(h, s);
    if (!p) {
      const char* e = dlerror();
      err = std::string("dlsym ") + s + ": " + (e ? e : "not found");
    }
    return p;
  };
  int rc = 0;
  if (name == "cudart") {
    // CUDA <= 11 answers cudaErrorInsufficientDriver (35) here when no driver is installed; 12+ does not.
    auto f = reinterpret_cast<int (*)(int*)>(sym("cudaRuntimeGetVersion"));
    int v = 0;
    if (f && (rc = f(&v)) == 0) return {v};
  } else if (name == "cublas") {
    auto f = reinterpret_cast<int (*)(int, int*)>(sym("cublasGetProperty"));
    int a = 0, b = 0, c = 0;  // MAJOR_VERSION = 0, MINOR_VERSION = 1, PATCH_LEVEL = 2
    if (f && (rc = f(0, &a)) == 0 && (rc = f(1, &b)) == 0 && (rc = f(2, &c)) == 0) return {a, b, c};
  } else if (name == "cublasLt" || name == "cudnn") {
    auto f = reinterpret_cast<std::size_t (*)()>(sym(name == "cudnn" ? "cudnnGetVersion" : "cublasLtGetVersion"));
    if (f) return {static_cast<long long>(f())};
  } else if (name == "nccl") {
    auto f = reinterpret_cast<int (*)(int*)>(sym("ncclGetVersion"));
    int v = 0;
    if (f && (rc = f(&v)) == 0) return {v};
  } else if (name == "nvrtc") {
    auto f = reinterpret_cast<int (*)(int*, int*)>(sym("nvrtcVersion"));
    int a = 0, b = 0;
    if (f && (rc = f(&a, &b)) == 0) return {a, b};
  } else if (name == "nvjitlink") {
    auto f = reinterpret_cast<int (*)(unsigned*, unsigned*)>(sym("nvJitLinkVersion"));
    unsigned a = 0, b = 0;
    if (f && (rc = f(&a, &b)) == 0) return {a, b};
  } else {
    err = "unknown library kind " + name;
    return {};
  }
  if (err.empty()) err = "version function returned error code " + std::to_string(rc);
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto eq = arg.find('=');
    if (eq == std::string::npos) continue;
    std::string name = arg.substr(0, eq), path = arg.substr(eq + 1);
    // RTLD_LAZY: resolve only what we call; nothing else of the library runs beyond its constructors.
    void* h = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (!h) {
      const char* e = dlerror();
      emit(name, path, {}, std::string("dlopen: ") + (e ? e : "failed"));
      continue;
    }
    std::string err;
    auto raw = read_one(h, name, err);
    emit(name, path, raw, raw.empty() ? err : "");
  }
  return 0;
}
