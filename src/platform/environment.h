#pragma once
// What a report may record of this process's environment, and the host's name.
#include <map>
#include <string>

namespace gpucheck::platform {

/// Environment variables worth recording (CUDA_*, NCCL_*, LD_LIBRARY_PATH, ...) and never others;
/// values of anything that looks secret are redacted.
std::map<std::string, std::string> allowed_environment(char** envp);
bool is_allowed_variable(const std::string& name);
/// By name: NCCL_IB_AUTH_TOKEN, AWS_SECRET_ACCESS_KEY, NCCL_PASS, NCCL_IB_PSK, PYTORCH_HUB_PAT, GPUCHECK_SESSION.
bool looks_secret(const std::string& name);
/// By value shape, for any variable: URL credentials (https://user:pw@host), credential query parameters
/// (token=, key=, sig=, ...), known token formats (ghp_..., hf_...) and long high-entropy strings become
/// "<redacted>"; the rest of the value (paths, versions) is kept.
std::string redact_value(const std::string& value);
/// For text read from logs (explain's evidence): URL credentials, credential parameters, `Bearer <token>`
/// and known token formats are redacted, but not merely long mixed-case words, which in a log are C++
/// symbol names and wheel tags that the evidence must keep.
std::string redact_credentials(const std::string& text);
/// What a report may record of variable `name`: "<redacted>" for a secret name, else redact_value(value).
std::string recorded_value(const std::string& name, const std::string& value);

/// The value of `key` in an environment map (the environment a collection sees: the process's, or the
/// one a test or --root gives), "" when unset.
std::string env_value(const std::map<std::string, std::string>& env, const std::string& key);

/// gethostname(), with '/', ' ' and control bytes replaced so it is usable in a file name; "unknown-host" when unset.
std::string hostname();

}  // namespace gpucheck::platform
