#pragma once
// What a report may record of this process's environment, and the host's name.
#include <map>
#include <string>

#include "core/secrets.h"

namespace gpucheck::platform {

/// Environment variables worth recording (CUDA_*, NCCL_*, LD_LIBRARY_PATH, ...) and never others;
/// values of anything that looks secret are redacted.
std::map<std::string, std::string> allowed_environment(char** envp);
bool is_allowed_variable(const std::string& name);
// The secret rules live in core (core/secrets.h): every layer that puts outside text into a report uses them.
using gpucheck::looks_secret;
using gpucheck::recorded_value;
using gpucheck::redact_credentials;
using gpucheck::redact_value;

/// The value of `key` in an environment map (the environment a collection sees: the process's, or the
/// one a test or --root gives), "" when unset.
std::string env_value(const std::map<std::string, std::string>& env, const std::string& key);

/// gethostname(), with '/', ' ' and control bytes replaced so it is usable in a file name; "unknown-host" when unset.
std::string hostname();

}  // namespace gpucheck::platform
