// `gpucheck abi` on the one model: commands::abi audits and report::abi_report turns each audited target into a Finding in section
// "targets" (id from its first problem, evidence per problem line, the symbol groups' remedies as ranked
// fixes, the per-target audit as details), the exit code follows today's rule through Report.meta, and the
// text is rendered from the Report alone.
#include <gtest/gtest.h>

#include <sstream>

#include "checks/abi/findings.h"
#include "core/errors.h"
#include "fixture.h"
#include "render/render.h"
#include "commands/abi.h"

using namespace abitest;
using gpucheck::Status;
namespace model = gpucheck::model;

namespace {

model::Report audit(const std::vector<std::string>& paths, bool strict = false, const std::string& cuobjdump = "") {
  gpucheck::commands::AbiOptions o;
  o.request.paths = paths;
  o.request.gpus = {"sm_90"};
  o.request.cuobjdump = cuobjdump;
  o.strict = strict;
  return gpucheck::commands::abi(o);
}

std::string text_of(const model::Report& r) {
  std::ostringstream out;
  gpucheck::render::render(r, gpucheck::render::Format::kText, out, {});
  return out.str();
}

class AbiReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    build_so(d / "libund.so",
             "extern \"C\" int nope(); namespace c10 { int gone(); }\n"
             "extern \"C\" int f() { return nope() + c10::gone(); }");
    build_so(d / "libok.so", "extern \"C\" int ok() { return 1; }");
  }
  TempDir d;
};

TEST_F(AbiReportTest, EachTargetIsOneFindingInSectionTargets) {
  model::Report r = audit({d / "libund.so", d / "libok.so"});
  ASSERT_EQ(r.sections.size(), 1u);
  EXPECT_EQ(r.sections[0].name, "targets");
  const auto& f = r.sections[0].findings;
  ASSERT_EQ(f.size(), 2u);

  EXPECT_EQ(f[0].id, "abi.symbols.other");  // its first problem: `nope`, defined nowhere
  EXPECT_EQ(f[0].status, Status::kFail);
  EXPECT_EQ(f[0].title, d / "libund.so");
  EXPECT_EQ(f[0].summary, "1 other: defined by no object in the load closure");
  ASSERT_EQ(f[0].evidence.size(), 2u);
  EXPECT_EQ(f[0].evidence[0].what, "symbols.other");
  EXPECT_EQ(f[0].evidence[1].what, "symbols.torch");
  ASSERT_EQ(f[0].fixes.size(), 2u);
  EXPECT_EQ(f[0].fixes[0].rank, 1);
  EXPECT_EQ(f[0].fixes[1].rank, 2);
  // A rebuild past pip's wheel cache (it may hold the old build) that leaves torch alone.
  EXPECT_NE(f[0].fixes[1].summary.find("rebuild the extension for this torch (pip install --no-build-isolation "
                                       "--no-cache-dir --force-reinstall --no-deps"),
            std::string::npos)
      << f[0].fixes[1].summary;
  EXPECT_EQ(f[0].details["path"], d / "libund.so");
  EXPECT_EQ(f[0].details["symbols"]["missing"], 2);

  EXPECT_EQ(f[1].id, "abi.complete");
  EXPECT_EQ(f[1].status, Status::kPass);
  EXPECT_EQ(f[1].summary.rfind("complete: ", 0), 0u) << f[1].summary;
  EXPECT_TRUE(f[1].fixes.empty());

  EXPECT_TRUE(r.details["seconds"].is_number());
  EXPECT_GE(r.details["objects_parsed"].get<int>(), 2);
  EXPECT_EQ(model::exit_code(r), 1);
}

TEST_F(AbiReportTest, AFilesNewestVersionNeedsAreItsOwnReadelfSays) {
  // getrandom is GLIBC_2.25: newer than anything else this object needs.
  build_so(d / "libneeds.so",
           "#include <sys/random.h>\n#include <stdio.h>\n"
           "extern \"C\" int g(char* b) { printf(\"x\"); return (int)getrandom(b, 4, 0); }");
  model::Report r = audit({d / "libneeds.so"});
  const auto& f = r.sections.at(0).findings.at(0);
  ASSERT_TRUE(f.details.contains("version_needs")) << f.details.dump();
  std::string readelf = run_ok({"/bin/sh", "-c",
                                "readelf -V --wide '" + (d / "libneeds.so") + "' | grep -v 'Flags: WEAK' | "
                                "grep -oE 'Name: GLIBC_[0-9.]+' | sed 's/Name: //' | sort -V | tail -1"});
  readelf.erase(readelf.find_last_not_of("\n") + 1);
  EXPECT_EQ(readelf, "GLIBC_2.25");
  EXPECT_EQ(f.details["version_needs"]["GLIBC"], readelf) << f.details["version_needs"].dump();
  EXPECT_FALSE(f.details["version_needs"].contains("GLIBCXX"));  // C only: no libstdc++ needed
  bool said = false;
  for (const auto& e : f.evidence) said |= e.what == "newest versions needed" && e.value == readelf;
  EXPECT_TRUE(said) << "a clean object's evidence names the newest glibc it needs";
}

TEST_F(AbiReportTest, TheTextComesFromTheReportAlone) {
  model::Report r = audit({d / "libund.so", d / "libok.so"});
  std::string text = text_of(r);
  EXPECT_NE(text.find("fail  " + d / "libund.so\n"), std::string::npos) << text;
  EXPECT_NE(text.find("      fix: find the library that defines it"), std::string::npos) << text;
  EXPECT_NE(text.find("pass  " + d / "libok.so\n"), std::string::npos) << text;
  EXPECT_NE(text.find("2 object(s), 1 with problems, "), std::string::npos) << text;
  // A report read back from its JSON document renders the same text.
  EXPECT_EQ(text_of(model::report_from_json(model::to_json(r))), text);
}

TEST_F(AbiReportTest, StrictTurnsAWarningIntoFailure) {
  // A cuobjdump that lists other device code than the parser finds: the target warns.
  run_ok({"objcopy", "--add-section",
          ".nv_fatbin=" + std::string(GPUCHECK_SOURCE_DIR) + "/tests/checks/abi/fuzz/corpus/fatbin/nvcc_sm90_compute90_compressed.bin",
          d / "libok.so", d / "libfat.so"});
  write_file(d / "cuobjdump", "#!/bin/sh\necho 'ELF file    1: x.1.sm_80.cubin'\n");
  fs::permissions(d / "cuobjdump", fs::perms::owner_all);
  model::Report lax = audit({d / "libfat.so"}, false, d / "cuobjdump");
  ASSERT_EQ(lax.sections[0].findings.size(), 1u);
  EXPECT_EQ(lax.sections[0].findings[0].status, Status::kWarn);
  EXPECT_EQ(lax.sections[0].findings[0].id, "abi.cuobjdump_disagrees");
  EXPECT_EQ(model::exit_code(lax), 0);
  model::Report strict = audit({d / "libfat.so"}, true, d / "cuobjdump");
  EXPECT_TRUE(strict.meta.exit.warn_fails);
  EXPECT_EQ(model::exit_code(strict), 1);
}

TEST_F(AbiReportTest, AnUnusableObjectIsAProblemFoundOrBadInput) {
  write_file(d / "tree/libtrunc.so", read_bytes(d / "libok.so").substr(0, 500));
  fs::copy_file(d / "libok.so", d / "tree/libok.so");
  model::Report r = audit({d / "tree"});
  ASSERT_EQ(r.sections[0].findings.size(), 2u);
  const gpucheck::Finding* bad = nullptr;
  for (const auto& f : r.sections[0].findings)
    if (f.status == Status::kError) bad = &f;
  ASSERT_NE(bad, nullptr);
  EXPECT_EQ(bad->id, "abi.unusable_object");
  EXPECT_EQ(model::exit_code(r), 1);  // met in a directory: a problem found, not "no verdict"
  // Named alone on the command line: bad input.
  EXPECT_THROW(audit({d / "tree/libtrunc.so"}), gpucheck::InputError);
}

TEST_F(AbiReportTest, GpusAndDriverFromAnInventoryDocumentAreEmbedded) {
  nlohmann::json env = {{"schema_version", "1"},
                        {"driver", {{"present", true}, {"version", "550.54.15"}, {"cuda_version", 12040}}},
                        {"gpus", {{{"index", 0}, {"name", "NVIDIA H100"}, {"cc_major", 9}, {"cc_minor", 0}},
                                  {{"index", 1}, {"name", "Tesla T4"}, {"cc_major", 7}, {"cc_minor", 5}}}}};
  write_file(d / "env.json", env.dump());
  gpucheck::commands::AbiOptions o;
  o.request.paths = {d / "libok.so"};
  o.inventory.from = d / "env.json";
  model::Report r = gpucheck::commands::abi(o);
  ASSERT_FALSE(r.inventory.is_null());
  EXPECT_EQ(r.inventory["gpus"].size(), 2u);
  EXPECT_EQ(r.sections[0].findings[0].status, Status::kPass);  // no device code: nothing to judge
  EXPECT_TRUE(r.notes.empty()) << r.notes.front();             // GPUs were known: no "no GPU known" note
}

TEST(AbiFindings, RemediesAreRankedAndEachGivenOnce) {
  gpucheck::abi::TargetReport t;
  t.path = "/x/libx.so";
  t.status = Status::kFail;
  t.problems = {"1 other: a", "1 other: b"};
  t.problem_kinds = {"symbols.other", "symbols.other"};
  gpucheck::Fix same{1, "link it", {"ld -lx"}, ""};
  t.groups.resize(2);
  t.groups[0].remedy = {same};
  t.groups[1].remedy = {same, gpucheck::Fix{1, "preload it", {}, ""}};
  gpucheck::Finding f = gpucheck::abi::to_finding(t);
  ASSERT_EQ(f.fixes.size(), 2u);
  EXPECT_EQ(f.fixes[0].summary, "link it");
  EXPECT_EQ(f.fixes[0].commands, std::vector<std::string>{"ld -lx"});
  EXPECT_EQ(f.fixes[1].summary, "preload it");
  EXPECT_EQ(f.fixes[1].rank, 2);
}

}  // namespace
