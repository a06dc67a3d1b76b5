// The secret rules (core/secrets.h) on text from anywhere, and the one pass over a Report
// (model/scrub.h): a credential in any field never leaves, the facts beside it stay.
#include <gtest/gtest.h>

#include <chrono>

#include "core/secrets.h"
#include "model/scrub.h"

namespace gpucheck {
namespace {

TEST(Secrets, NamedVariablesInTextAreRedactedButNotPackagePins) {
  EXPECT_EQ(redact_credentials("export NCCL_COLLNET_PASSPHRASE=hunter2 NCCL_DEBUG=INFO"),
            "export NCCL_COLLNET_PASSPHRASE=<redacted> NCCL_DEBUG=INFO");
  EXPECT_EQ(redact_credentials("AWS_SECRET_ACCESS_KEY=abc\nnext line"), "AWS_SECRET_ACCESS_KEY=<redacted>\nnext line");
  EXPECT_EQ(redact_credentials("NCCL_SIG=x1;NCCL_LOGIN=root"), "NCCL_SIG=<redacted>;NCCL_LOGIN=<redacted>");
  // Lower-case words and `==` pins are no variables: a pip listing keeps its versions.
  EXPECT_EQ(redact_credentials("tokenizers==0.15.0 keyring==24.3.1"), "tokenizers==0.15.0 keyring==24.3.1");
  EXPECT_EQ(redact_credentials("PATH=/usr/bin MAX_JOBS=4"), "PATH=/usr/bin MAX_JOBS=4");
}

TEST(Secrets, TokenFormatsAreRedactedButPackageNamesWithTheSamePrefixStay) {
  EXPECT_EQ(redact_credentials("token hf_AbCdEfGhIjKlMnOpQrStUvWx012345 used"), "token <redacted> used");
  EXPECT_EQ(redact_credentials("ghp_0123456789abcdefghij0123456789abcdef"), "<redacted>");
  EXPECT_EQ(redact_credentials("key AKIAIOSFODNN7EXAMPLE"), "key <redacted>");
  for (const char* kept : {"hf_transfer-0.1.8.dist-info", "sk-learn-preprocessing-tools", "hf_hub_download_with_retries",
                           "GPU-8f3c1a2b-1111-2222-3333-444455556666",
                           "_ZN2at6native18cudaStreamCaptureModeEv", "sha256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU"})
    EXPECT_EQ(redact_credentials(kept), kept);
}

TEST(Secrets, UrlCredentialsAndAuthorizationAreRedactedOnceAndStayRedacted) {
  const std::string once = redact_credentials(
      "pip --index-url https://user:pw@pypi.example/simple -H 'Authorization: Bearer abc.def' x?token=t1&arch=cu121");
  EXPECT_EQ(once, "pip --index-url https://<redacted>@pypi.example/simple -H 'Authorization: Bearer <redacted>' "
                  "x?token=<redacted>&arch=cu121");
  EXPECT_EQ(redact_credentials(once), once);
  EXPECT_EQ(redact_credentials("see https://example.com/a@b"), "see https://example.com/a@b");  // '@' in the path
}

// Each rule's mark alone, with none of the others in the text (redact_credentials skips text that holds
// none of them): an authorization word in any case, a token prefix, a URL, a parameter.
TEST(Secrets, EachMarkAloneStillRedacts) {
  EXPECT_EQ(redact_credentials("Authorization: BASIC dXNlcjpwYXNzd29y"), "Authorization: BASIC <redacted>");
  EXPECT_EQ(redact_credentials("header bEaReR eyJhbGciOiJIUzI1NiJ9"), "header bEaReR <redacted>");
  EXPECT_EQ(redact_credentials("glpat-AbCdEfGh0123456789xyz"), "<redacted>");
  EXPECT_EQ(redact_credentials("git://me:pw@host/repo"), "git://<redacted>@host/repo");
  EXPECT_EQ(redact_credentials("a?sig=abc"), "a?sig=<redacted>");
  for (const char* kept : {"/usr/lib/x86_64-linux-gnu/libcublasLt.so.13", "basic", "Bearer", "libbasic_blas.so"})
    EXPECT_EQ(redact_credentials(kept), kept);
}

TEST(Secrets, ManyUrlsWithoutCredentialsStayLinear) {
  std::string text;
  for (int i = 0; i < 200000; ++i) text += "://x";
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(redact_credentials(text), text);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
}

// Every field a renderer can show, each with a credential of another shape; what is no credential stays.
TEST(ScrubSecrets, EveryFieldOfAReportIsRedacted) {
  model::Report r;
  r.meta.hostname = "node7.example?token=SEKRIT0";
  r.meta.command_line = {"gpucheck", "run", "--index-url=https://u:SEKRIT1@pypi.example/simple"};
  r.meta.environment["NCCL_CERT"] = "SEKRIT2";
  Finding f;
  f.id = "node.node7?token=SEKRIT17";  // fleet's ids name the host
  f.title = "failed with NCCL_COLLNET_PASSPHRASE=SEKRIT3";
  f.summary = "curl -H 'Authorization: Bearer SEKRIT4'";
  f.explanation = "https://files.example/w.whl?X-Amz-Signature=SEKRIT5";
  f.evidence.add("stderr_tail", "line 1\nNCCL_IB_AUTH_TOKEN=SEKRIT6\nline 3", "https://u:SEKRIT7@host/log");
  f.add_fix("retry with token=SEKRIT8", {"pip install torch --extra-index-url https://tok:SEKRIT9@idx.example/"});
  f.references = {"https://u:SEKRIT10@wiki.example/page"};
  DeviceFinding d;
  d.device = "0";
  d.summary = "Basic dXNlcjpTRUtSSVQxMQ==";
  d.evidence.add("env", "NCCL_PRIVATE=SEKRIT12");
  f.devices.push_back(d);
  f.details = {{"log", {"ok", "NCCL_LOGIN=SEKRIT13"}}, {"torch", "2.5.1+cu121"}};
  r.section("probes").findings.push_back(f);
  r.notes = {"read https://u:SEKRIT14@host/x"};
  r.inventory = {{"pythons", {{{"path", "/opt/env/bin/python"}, {"index", "https://u:SEKRIT15@pypi.example"}}}},
                 {"gpus", {{{"uuid", "GPU-8f3c1a2b-1111-2222-3333-444455556666"}}}}};
  r.details = {{"input", "token=SEKRIT16"}};
  model::scrub_secrets(r);
  const std::string all = model::to_json(r).dump();
  EXPECT_EQ(all.find("SEKRIT"), std::string::npos) << all;
  EXPECT_EQ(all.find("dXNlcjpTRUtSSVQxMQ"), std::string::npos) << all;
  for (const char* kept : {"node7.example", "/opt/env/bin/python", "GPU-8f3c1a2b-1111-2222-3333-444455556666", "2.5.1+cu121",
                           "pypi.example", "line 3", "stderr_tail"})
    EXPECT_NE(all.find(kept), std::string::npos) << kept;
  // Twice is once.
  const std::string again = (model::scrub_secrets(r), model::to_json(r).dump());
  EXPECT_EQ(again, all);
}

}  // namespace
}  // namespace gpucheck
