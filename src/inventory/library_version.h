#pragma once
// Reads a CUDA library's version by calling its own version function (cudaRuntimeGetVersion,
// cublasGetProperty, cublasLtGetVersion, cudnnGetVersion, ncclGetVersion, nvrtcVersion, nvJitLinkVersion).
// Loading a library runs its constructors, so it happens in a child process (`gpucheck-libversion`,
// installed beside the probes) that can crash or hang without taking gpucheck down; one child per
// directory, because libcublas loads the libcublasLt next to it anyway.
#include <map>
#include <string>
#include <vector>

namespace gpucheck::inventory {

struct VersionRequest {
  std::string name;  // cudart cublas cublasLt cudnn nccl nvrtc nvjitlink
  std::string path;  // host path
};

struct VersionReading {
  std::string version;  // "12.1", "8.9.2"
  std::string source;   // "cudaRuntimeGetVersion via dlopen"
  std::string error;    // dlopen/dlsym failure, crash of the child
};

/// The library kinds that have a version function, and its name.
const std::map<std::string, std::string>& version_functions();

/// Turns the raw numbers the helper printed into a version string ("" when they make no sense).
/// cudart: {12010}; cublas: {major, minor, patch}; cublasLt / cudnn / nccl: {encoded}; nvrtc / nvjitlink: {major, minor}.
std::string decode_version(const std::string& name, const std::vector<long long>& raw);

/// Path of the helper executable ("" when it is not installed).
std::string version_helper_path();

/// Path of the helper's LD_AUDIT module (libversion_helper/thp_audit.c); "" when it is not installed.
std::string version_helper_audit_path();

/// The readings in the helper's output: one JSON object a line. Anything else on a line (a library's
/// constructor prints into the same stdout; a field of another type) is skipped, never thrown.
std::map<std::string, VersionReading> parse_version_helper_output(const std::string& out);

/// Runs the helper once for `requests` (all in one directory) and returns one reading per path.
std::map<std::string, VersionReading> read_versions_in_child(const std::vector<VersionRequest>& requests);

}  // namespace gpucheck::inventory
