#include "core/secrets.h"

#include <cctype>
#include <cmath>
#include <cstring>

namespace gpucheck {

namespace {

// Name parts that mark a secret however they are spelled around: NCCL_IB_AUTH_TOKEN, AWS_SECRET_ACCESS_KEY.
// NCCL_* is recorded as a whole prefix, so a plugin's NCCL_COLLNET_PASSPHRASE or NCCL_CERT must be caught
// here (reliability-3 N9).
constexpr const char* kSecretWords[] = {"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "KEY", "CREDENTIAL",
                                        "CERT", "PRIVATE", "LOGIN", "AUTH", "COOKIE", "SIGNATURE"};
// Short marks that count only as a whole `_`-separated part: NCCL_PASS, NCCL_IB_PSK, PYTORCH_HUB_PAT,
// GPUCHECK_SESSION (PATH, which contains PAT, is not one).
constexpr const char* kSecretParts[] = {"PASS", "PSK", "PAT", "SESSION", "PIN", "OTP", "SIG", "BEARER", "JWT"};
// Authorization schemes whose next word is a credential: "Bearer eyJ...", "Basic dXNlcjpw..." (Basic only
// before 8 or more base64 characters, so "basic usage" in a log stays).
constexpr const char* kAuthSchemes[] = {"bearer", "basic"};
// Prefixes of well-known token formats (GitHub, Hugging Face, OpenAI-style, Slack, AWS access keys).
constexpr const char* kTokenPrefixes[] = {"ghp_", "gho_", "ghu_", "ghs_", "github_pat_", "hf_", "sk-", "xoxb-",
                                          "xoxp-", "AKIA", "glpat-"};
// Query parameters whose value is a credential: ...?token=abc&sig=...
constexpr const char* kSecretParams[] = {"token", "access_token", "auth", "key", "apikey", "api_key", "password",
                                         "passwd", "pass", "secret", "sig", "signature", "credential"};

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool is_token_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '+' || c == '=' || c == '.';
}

// Bits per character of `s`: random base64/alphanumeric keys are near 5-6, words and paths far lower.
double entropy(const std::string& s) {
  int counts[256] = {0};
  for (unsigned char c : s) counts[c]++;
  double h = 0;
  for (int n : counts)
    if (n) {
      double p = static_cast<double>(n) / static_cast<double>(s.size());
      h -= p * std::log2(p);
    }
  return h;
}

// A run of token characters that looks generated: a known token prefix, or long, mixing upper case, lower
// case and digits, with high entropy. Version strings, paths and hex build ids do not qualify.
// A token's body is generated: no '.', and digits or both cases. So hf_transfer-0.1.8.dist-info (a
// package) and sk-learn-style names stay, hf_AbCd...09 goes.
bool has_token_prefix(const std::string& run) {
  for (const char* prefix : kTokenPrefixes) {
    const std::size_t n = std::strlen(prefix);
    if (run.size() < n + 16 || run.rfind(prefix, 0) != 0 || run.find('.', n) != std::string::npos) continue;
    bool up = false, low = false, digit = false;
    for (std::size_t i = n; i < run.size(); ++i) {
      const auto c = static_cast<unsigned char>(run[i]);
      up |= std::isupper(c) != 0;
      low |= std::islower(c) != 0;
      digit |= std::isdigit(c) != 0;
    }
    if (digit || (up && low)) return true;
  }
  return false;
}

bool looks_generated(const std::string& run) {
  if (has_token_prefix(run)) return true;
  if (run.size() < 24) return false;
  // Device ids (GPU-8f3c1a2b-..., MIG-...) and other UUIDs and hex digests are identifiers, not secrets.
  std::size_t body = 0;
  while (body < run.size() && std::isalpha(static_cast<unsigned char>(run[body]))) ++body;
  body = body < run.size() && run[body] == '-' ? body + 1 : 0;
  if (run.find_first_not_of("0123456789abcdefABCDEF-", body) == std::string::npos) return false;
  bool up = false, low = false, digit = false;
  for (unsigned char c : run) {
    up |= std::isupper(c) != 0;
    low |= std::islower(c) != 0;
    digit |= std::isdigit(c) != 0;
  }
  return up && low && digit && entropy(run) >= 4.0;
}

// NCCL_COLLNET_PASSPHRASE, AWS_SECRET_ACCESS_KEY: a name spelled like an environment variable (upper
// case, digits, '_') that looks secret. Lower-case words are left to kSecretParams: `tokenizers==0.15`
// in a pip listing is no credential.
bool is_secret_variable_name(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  bool letter = false;
  for (unsigned char c : name) {
    if (std::islower(c) || !(std::isupper(c) || std::isdigit(c) || c == '_')) return false;
    letter |= std::isupper(c) != 0;
  }
  return letter && looks_secret(name);
}

bool is_secret_param(const std::string& name) {
  const std::string n = lower(name);
  for (const char* p : kSecretParams)
    if (n == p) return true;
  return false;
}

}  // namespace

bool looks_secret(const std::string& name) {
  const std::string n = upper(name);
  for (const char* word : kSecretWords)
    if (n.find(word) != std::string::npos) return true;
  std::size_t start = 0;
  while (start <= n.size()) {
    std::size_t end = n.find('_', start);
    if (end == std::string::npos) end = n.size();
    const std::string part = n.substr(start, end - start);
    for (const char* p : kSecretParts)
      if (part == p) return true;
    start = end + 1;
  }
  return false;
}

namespace {

// value[i, i+n) is `lower_word` in any case. Asked at every character of every string a report holds: no
// copy.
bool starts_with_lower(const std::string& value, std::size_t i, const char* lower_word, std::size_t n) {
  for (std::size_t k = 0; k < n; ++k)
    if (std::tolower(static_cast<unsigned char>(value[i + k])) != lower_word[k]) return false;
  return true;
}

// `value` from `i` starts an authorization scheme word followed by blanks and a credential: the credential's
// end, else npos.
std::size_t auth_scheme_credential_end(const std::string& value, std::size_t i, std::size_t& credential_start) {
  if (i > 0 && (std::isalnum(static_cast<unsigned char>(value[i - 1])) || value[i - 1] == '_')) return std::string::npos;
  for (const char* scheme : kAuthSchemes) {
    const std::size_t n = std::strlen(scheme);
    if (value.size() < i + n + 2 || !starts_with_lower(value, i, scheme, n)) continue;
    std::size_t j = i + n;
    if (value[j] != ' ' && value[j] != '\t') continue;
    while (j < value.size() && (value[j] == ' ' || value[j] == '\t')) ++j;
    std::size_t end = j;
    while (end < value.size() && (is_token_char(value[end]) || value[end] == '/' || value[end] == '~')) ++end;
    if (end == j) continue;
    if (scheme[1] == 'a' && (end - j < 8 || value.find_first_not_of(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=", j) < end))
      continue;
    credential_start = j;
    return end;
  }
  return std::string::npos;
}

std::string redact(const std::string& value, bool generated_runs) {
  std::string out;
  out.reserve(value.size());
  std::size_t i = 0;
  while (i < value.size()) {
    // URL credentials: scheme://user:password@host (or a token as the user) -> scheme://<redacted>@host
    if (value.compare(i, 3, "://") == 0) {
      // The first '@' before the host part ends (one scan: a text of many URLs stays linear).
      const std::size_t at = value.find_first_of("@/?# ;,\"'\t\r\n", i + 3);
      if (at != std::string::npos && value[at] == '@') {
        out += "://<redacted>@";
        i = at + 1;
        continue;
      }
      out += "://";
      i += 3;
      continue;
    }
    // name=value where the name is a credential parameter (?token=..., &key=...) or a secret variable
    // (NCCL_COLLNET_PASSPHRASE=..., in a log or a probe's output); not `name==version`
    if (value[i] == '=' && i > 0 && value.compare(i, 2, "==") != 0) {
      std::size_t name_start = i;
      while (name_start > 0 && (std::isalnum(static_cast<unsigned char>(value[name_start - 1])) ||
                                value[name_start - 1] == '_'))
        --name_start;
      const std::string name = value.substr(name_start, i - name_start);
      if (name_start < i && (is_secret_param(name) || is_secret_variable_name(name))) {
        std::size_t end = value.find_first_of("&;, :\"'\t\r\n", i + 1);
        if (end == std::string::npos) end = value.size();
        out += "=<redacted>";
        i = end;
        continue;
      }
    }
    // Authorization: Bearer <token>, Basic <base64>, token <t>
    std::size_t cred = 0;
    if (std::size_t end = auth_scheme_credential_end(value, i, cred); end != std::string::npos) {
      out += value.substr(i, cred - i) + "<redacted>";
      i = end;
      continue;
    }
    if (is_token_char(value[i])) {
      std::size_t end = i;
      while (end < value.size() && is_token_char(value[end]) && value.compare(end, 3, "://") != 0 &&
             value[end] != '=')
        ++end;
      if (end == i) end = i + 1;  // '=' handled above; keep it
      std::string run = value.substr(i, end - i);
      out += (generated_runs ? looks_generated(run) : has_token_prefix(run)) ? "<redacted>" : run;
      i = end;
      continue;
    }
    out += value[i++];
  }
  return out;
}

}  // namespace

std::string redact_value(const std::string& value) { return redact(value, /*generated_runs=*/true); }

namespace {

// Whether redact(text, false) could change anything: each of its rules needs one of these marks (a URL's
// "://", a parameter's '=', an authorization scheme's word, a token format's prefix). Most text a report
// holds (paths, symbol names, versions) has none: one scan instead of a rebuilt copy of every string.
bool may_hold_credentials(const std::string& text) {
  if (text.find("://") != std::string::npos || text.find('=') != std::string::npos) return true;
  for (const char* prefix : kTokenPrefixes)
    if (text.find(prefix) != std::string::npos) return true;
  for (std::size_t b = text.find_first_of("bB"); b != std::string::npos; b = text.find_first_of("bB", b + 1))
    for (const char* scheme : kAuthSchemes)
      if (text.size() - b > std::strlen(scheme) && starts_with_lower(text, b, scheme, std::strlen(scheme))) return true;
  return false;
}

}  // namespace

std::string redact_credentials(const std::string& text) {
  return may_hold_credentials(text) ? redact(text, /*generated_runs=*/false) : text;
}

std::string recorded_value(const std::string& name, const std::string& value) {
  return looks_secret(name) ? "<redacted>" : redact_value(value);
}

}  // namespace gpucheck
