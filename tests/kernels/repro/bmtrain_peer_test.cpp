// Peer check against the real thing: BMTrain 1.0.1's prebuilt wheel installed (without torch, --no-deps)
// into a temporary venv; its CPU offload Adam launcher runs on our inputs and must be within our policy
// of the double reference, like our own offload Adam; its bf16 copy must be truncated as the spec says.
#include <gtest/gtest.h>

#include "support/report_json.h"

#include <stdlib.h>

#include <cstring>
#include <filesystem>

#include "adam/adam_offload.h"
#include "bmtrain_installed/bmtrain_peer.h"
#include "core/subprocess.h"

#include <nlohmann/json.hpp>

using namespace gpucheck;
using namespace gpucheck::kernels;

namespace {
struct Venv {
  std::string dir, python, skip_reason;
};
Venv make_venv() {
  Venv v;
  char tmpl[] = "/tmp/gpucheck-bmt-venv-XXXXXX";
  if (!mkdtemp(tmpl)) return v.skip_reason = "mkdtemp failed", v;
  v.dir = tmpl;
  SubprocessOptions o;
  o.timeout = std::chrono::minutes(3);
  auto r = run_subprocess({"python3", "-m", "venv", v.dir}, o);
  if (!r.ok()) return v.skip_reason = "python3 -m venv failed: " + r.describe() + " " + r.err, v;
  v.python = v.dir + "/bin/python";
  r = run_subprocess({v.python, "-m", "pip", "install", "-q", "--no-deps", "--only-binary", ":all:", "bmtrain==1.0.1"}, o);
  if (!r.ok()) v.skip_reason = "pip could not install bmtrain 1.0.1 (registry unreachable?): " + r.describe() + " " + r.err;
  return v;
}
}  // namespace

TEST(BmtrainPeer, CpuOffloadAdamOfBmtrain101AgreesWithOurs) {
  Venv venv = make_venv();
  if (!venv.skip_reason.empty()) {
    if (!venv.dir.empty()) std::filesystem::remove_all(venv.dir);
    GTEST_SKIP() << venv.skip_reason;
  }
  bmtrain::Install in = bmtrain::locate(venv.python);
  ASSERT_TRUE(in.python_ok) << in.python_error;
  ASSERT_TRUE(in.found);
  EXPECT_EQ(in.version, "1.0.1");
  ASSERT_FALSE(in.native_modules.empty());
  EXPECT_FALSE(in.import_ok) << "torch is not installed in the venv, so `import bmtrain` should fail";
  std::string embed_error, load_error;
  auto native = bmtrain::NativeModule::load(in, in.native_modules.front(), embed_error, load_error);
  ASSERT_TRUE(native) << "embed: " << embed_error << " load: " << load_error;
  for (AdamVariant v : {AdamVariant::kOffloadFp16, AdamVariant::kOffloadBf16}) {
    for (std::size_t n : {1u, 17u, 4099u, (1u << 20) + 3u}) {
      AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1024.0f}, 4);
      AdamState before = make_adam_state(v, n, n, h, true);
      bmtrain::PeerRun peer = bmtrain::run_cpu_adam(*native, before, h);
      ASSERT_TRUE(peer.ran) << peer.error;
      // The same launcher in a child interpreter (same thread count): the same bytes.
      if (n <= 4099) {
        bmtrain::PeerRun child = bmtrain::run_cpu_adam_in_child(in.python, in.native_modules.front(), before, h);
        ASSERT_TRUE(child.ran) << child.error;
        for (auto [a, b] : {std::pair{&peer.result.param, &child.result.param}, {&peer.result.param_h, &child.result.param_h},
                            {&peer.result.m, &child.result.m}, {&peer.result.v, &child.result.v}})
          EXPECT_EQ(0, std::memcmp(a->data(), b->data(), a->bytes())) << to_string(v) << " n=" << n;
      }
      AdamState want = before;
      adam_reference_step(want, h);
      auto reports = check_adam_step(before, want, peer.result, h);
      EXPECT_TRUE(all_ok(reports)) << to_string(v) << " n=" << n << ": " << summarize(reports);
      AdamState ours = before;
      OffloadAdamBuffers b{n, ours.param.f32(), ours.param_h.u16(), ours.grad.u16(), ours.m.f32(), ours.v.f32(),
                           v == AdamVariant::kOffloadBf16};
      adam_offload_step(b, h, best_cpu_isa(), 4);
      EXPECT_TRUE(all_ok(check_adam_step(before, want, ours, h)));
      double max_diff = 0;
      for (std::size_t i = 0; i < n; ++i)
        if (std::isfinite(ours.param.get(i)))
          max_diff = std::max(max_diff, std::fabs(ours.param.get(i) - peer.result.param.get(i)));
      std::cout << to_string(v) << " n=" << n << ": max |ours - bmtrain| master weight " << max_diff << "\n";
      if (v == AdamVariant::kOffloadBf16 && n > 1000) {
        EXPECT_GT(bmtrain::bf16_truncated_fraction(peer.result), 0.99);  // BMTrain truncates bf16
        EXPECT_LT(bmtrain::bf16_truncated_fraction(ours), 0.01);         // we round to nearest even
      }
    }
  }
  std::filesystem::remove_all(venv.dir);
}

// The probe on the real wheel: module linkage complete, embedded, CPU launchers within policy, `import
// bmtrain` failing for want of torch reported as a warning.
TEST(BmtrainPeer, ProbeOnTheRealWheel) {
  Venv venv = make_venv();
  if (!venv.skip_reason.empty()) {
    if (!venv.dir.empty()) std::filesystem::remove_all(venv.dir);
    GTEST_SKIP() << venv.skip_reason;
  }
  SubprocessOptions o;
  o.result_fd = 3;
  o.timeout = std::chrono::minutes(3);
  auto r = run_subprocess({std::string(GPUCHECK_STAGE_PROBES) + "/bmtrain.installed", "--result-fd", "3", "--level",
                           "quick", "--python", venv.python}, o);
  ASSERT_TRUE(r.ok()) << r.describe() << r.err;
  auto j = nlohmann::json::parse(r.result);
  // The venv has bmtrain without torch on purpose: its native module is still audited and its launchers
  // checked, but an installed bmtrain that cannot be imported is broken as installed (issue 13): fail.
  EXPECT_EQ(j["status"], "fail") << j.dump(1);
  EXPECT_NE(j["summary"].get<std::string>().find("No module named 'torch'"), std::string::npos);
  EXPECT_EQ(gpucheck::testing::evidence_of(j, "bmtrain_version"), "1.0.1");
  EXPECT_EQ(gpucheck::testing::evidence_of(j, "linkage").rfind("complete: ", 0), 0u) << j.dump(1);
  EXPECT_EQ(gpucheck::testing::evidence_of(j, "interpreter").rfind("embedded", 0), 0u);
  EXPECT_EQ(gpucheck::testing::evidence_of(j, "bf16_param_copy"), "truncated (as BMTrain 1.0.x documents), not rounded");
  EXPECT_EQ(j["details"]["cases"].size(), 4u);
  for (const auto& c : j["details"]["cases"])
    for (const auto& check : c["checks"]) EXPECT_TRUE(check["ok"].get<bool>()) << c.dump();
  std::filesystem::remove_all(venv.dir);
}
