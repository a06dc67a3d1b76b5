#pragma once
// What looks like a credential, by name and by value shape, and the text with it replaced by "<redacted>".
// In core because every layer that puts outside text into a report needs it: the environment's recorder
// (platform), explain's evidence (checks) and the one pass over a whole Report before it leaves gpucheck
// (model/scrub.h).
#include <string>

namespace gpucheck {

/// By name: NCCL_IB_AUTH_TOKEN, AWS_SECRET_ACCESS_KEY, NCCL_PASS, NCCL_IB_PSK, PYTORCH_HUB_PAT, GPUCHECK_SESSION.
bool looks_secret(const std::string& name);
/// By value shape, for any variable: URL credentials (https://user:pw@host), credential query parameters
/// (token=, key=, sig=, ...), known token formats (ghp_..., hf_...) and long high-entropy strings become
/// "<redacted>"; the rest of the value (paths, versions) is kept.
std::string redact_value(const std::string& value);
/// For text from anywhere (logs, probe output, host names, titles): URL credentials, credential
/// parameters, `NAME=value` where NAME is an environment-style name that looks secret
/// (NCCL_COLLNET_PASSPHRASE=...), `Bearer <token>`, `Basic <base64>` and known token formats are redacted,
/// but not merely long mixed-case words, which in a log are C++ symbol names and wheel tags, nor hashes and
/// build ids. Redacting twice changes nothing more.
std::string redact_credentials(const std::string& text);
/// What a report may record of variable `name`: "<redacted>" for a secret name, else redact_value(value).
std::string recorded_value(const std::string& name, const std::string& value);

}  // namespace gpucheck
