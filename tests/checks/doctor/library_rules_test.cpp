// libs.shadowed_* on real shared objects this test builds (SONAMEs, RUNPATH $ORIGIN): a library stands in
// for another only with the same SONAME, LD_LIBRARY_PATH entries are compared by real path, and cuDNN 9's
// dlopened sub-libraries are resolved with the loader model from the environment's libcudnn.so.9.
#include <gtest/gtest.h>

#ifndef GPUCHECK_ABI_FIXTURES
#define GPUCHECK_ABI_FIXTURES "/tmp"  // shared_fixture_dir is not used here
#endif
#include "checks/abi/fixture.h"
#include "checks/doctor/doctor.h"
#include "platform/elf_object.h"

using namespace gpucheck;
using abitest::build_so;
using abitest::TempDir;

namespace {

const knowledge::KnowledgeBase& kb() {
  static knowledge::KnowledgeBase k = knowledge::KnowledgeBase::load(std::string(GPUCHECK_SOURCE_DIR) + "/data/compat");
  return k;
}

/// An inventory entry for a file on disk; its SONAME read from the file.
inventory::Library library(const std::string& name, const std::string& path, const std::string& version,
                           std::vector<std::string> via, const std::string& package = "") {
  inventory::Library l;
  l.name = name;
  l.path = path;
  l.soname = gpucheck::platform::ElfObject::read_soname(path);
  l.version = version;
  l.found_via = std::move(via);
  l.loader_pick = l.found_via.front() == "LD_LIBRARY_PATH";
  l.package = package;
  l.package_version = package.empty() ? "" : version;
  return l;
}

inventory::Inventory torch_env(const TempDir& t, const std::string& ld_library_path) {
  inventory::Inventory inv;
  inventory::PythonEnv p;
  p.interpreter = t / "venv/bin/python";
  p.found_via = {"--python"};
  p.site_packages = {t / "venv/site"};
  p.torch_installed = true;
  p.torch_version = "2.5.1+cu124";
  p.torch_cuda = "12.4";
  p.torch_cudnn = "91900";  // what a shadowed process reports: never the reference
  inv.pythons = {p};
  if (!ld_library_path.empty()) inv.system.environment["LD_LIBRARY_PATH"] = ld_library_path;
  return inv;
}

std::vector<Finding> with_prefix(const inventory::Inventory& inv, const std::string& prefix) {
  doctor::DoctorContext ctx(inv, kb());
  std::vector<Finding> out;
  for (auto& f : doctor::diagnose(ctx))
    if (f.id.rfind(prefix, 0) == 0) out.push_back(f);
  return out;
}

}  // namespace

TEST(LibraryShadowing, OnlyTheSameSonameStandsIn) {
  TempDir t;
  const std::string own = t / "venv/site/nvidia/cublas/lib/libcublas.so.12";
  build_so(own, "extern \"C\" int cublas_own() { return 12; }", {"-Wl,-soname,libcublas.so.12"});
  build_so(t / "sys/libcublas.so.13", "extern \"C\" int cublas_sys() { return 13; }", {"-Wl,-soname,libcublas.so.13"});
  build_so(t / "old/libcublas.so.12", "extern \"C\" int cublas_old() { return 12; }", {"-Wl,-soname,libcublas.so.12"});
  std::filesystem::create_directory_symlink(t / "old", t / "old-link");

  auto inv = torch_env(t, t / "sys");
  inv.libraries = {library("cublas", own, "12.4.5.8", {"pip:nvidia-cublas-cu12"}, "nvidia-cublas-cu12"),
                   library("cublas", t / "sys/libcublas.so.13", "13.1.0", {"LD_LIBRARY_PATH"})};
  EXPECT_TRUE(with_prefix(inv, "libs.shadowed_").empty()) << "libcublas.so.13 cannot stand in for .so.12";

  // The same SONAME, older, first on LD_LIBRARY_PATH under another name of the same directory.
  inv = torch_env(t, t / "old-link/:/opt/other");
  inv.libraries = {library("cublas", own, "12.4.5.8", {"pip:nvidia-cublas-cu12"}, "nvidia-cublas-cu12"),
                   library("cublas", t / "old/libcublas.so.12", "12.1.0", {"LD_LIBRARY_PATH"})};
  auto f = with_prefix(inv, "libs.shadowed_");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "libs.shadowed_cublas");
  EXPECT_EQ(f[0].status, Status::kWarn);
  EXPECT_EQ(f[0].title, "The loader would give torch libcublas.so.12 12.1.0 from " + t / "old" +
                            " instead of the 12.4.5.8 of nvidia-cublas-cu12");
  ASSERT_EQ(f[0].fixes.size(), 1u);
  EXPECT_EQ(f[0].fixes[0].commands, std::vector<std::string>{"export LD_LIBRARY_PATH=/opt/other"});

  // Only in the ld.so cache: the wheel's copy, found by RUNPATH first, wins; nothing to say.
  inv.libraries[1].found_via = {"ld.so.cache"};
  inv.system.environment.erase("LD_LIBRARY_PATH");
  EXPECT_TRUE(with_prefix(inv, "libs.shadowed_").empty());
}

TEST(LibraryShadowing, CudnnSubLibrariesFollowLdLibraryPathBeforeRunpath) {
  TempDir t;
  const std::string lib = t / "venv/site/nvidia/cudnn/lib";
  build_so(lib + "/libcudnn.so.9", "extern \"C\" int cudnnGetVersion() { return 90100; }",
           {"-Wl,-soname,libcudnn.so.9", "-Wl,--enable-new-dtags", "-Wl,-rpath,$ORIGIN"});
  build_so(lib + "/libcudnn_graph.so.9", "extern \"C\" int g() { return 1; }", {"-Wl,-soname,libcudnn_graph.so.9"});
  build_so(t / "cuda/lib64/libcudnn_graph.so.9.19.0", "extern \"C\" int g() { return 2; }",
           {"-Wl,-soname,libcudnn_graph.so.9"});
  std::filesystem::create_symlink("libcudnn_graph.so.9.19.0", t / "cuda/lib64/libcudnn_graph.so.9");

  auto inv = torch_env(t, "");
  inv.libraries = {library("cudnn", lib + "/libcudnn.so.9", "9.1.0.70", {"pip:nvidia-cudnn-cu12"}, "nvidia-cudnn-cu12")};
  EXPECT_TRUE(with_prefix(inv, "libs.shadowed_").empty()) << "RUNPATH $ORIGIN finds the wheel's own sub-library";

  inv = torch_env(t, t / "cuda/lib64");
  inv.libraries = {library("cudnn", lib + "/libcudnn.so.9", "9.1.0.70", {"pip:nvidia-cudnn-cu12"}, "nvidia-cudnn-cu12")};
  auto f = with_prefix(inv, "libs.shadowed_");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "libs.shadowed_cudnn_sublibrary");
  EXPECT_EQ(f[0].status, Status::kFail);
  EXPECT_EQ(f[0].title, "libcudnn.so.9 of nvidia-cudnn-cu12 9.1.0.70 would load libcudnn_graph.so.9 9.19.0 from " +
                            t / "cuda/lib64");
  ASSERT_EQ(f[0].fixes.size(), 1u);
  EXPECT_EQ(f[0].fixes[0].commands, std::vector<std::string>{"unset LD_LIBRARY_PATH"});

  // The same release installed twice (here: a toolkit from the same nvidia-cudnn wheel, as this machine's
  // /usr/local/cuda and the torch 2.11 venv): the file found first is byte for byte the wheel's, nothing
  // is mixed, no finding (before: "would load libcudnn_adv.so.9 9 from /usr/local/cuda/lib64").
  std::filesystem::remove(t / "cuda/lib64/libcudnn_graph.so.9.19.0");
  std::filesystem::copy_file(lib + "/libcudnn_graph.so.9", t / "cuda/lib64/libcudnn_graph.so.9.19.0");
  EXPECT_TRUE(with_prefix(inv, "libs.shadowed_").empty());
}
