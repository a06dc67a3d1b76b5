// Parsers of the inventory, fed with real files of this machine where one exists (ld.so.cache, libcudart,
// libstdc++, host_config.h) and cross-checked against an independent tool (ldconfig -p, readelf, nvcc).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "core/files.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "core/errors.h"
#include "inventory/collect.h"
#include "inventory/compilers.h"
#include "platform/dist_info.h"
#include "inventory/driver_info.h"
#include "inventory/model.h"
#include "inventory/version_cache.h"
#include "platform/elf_object.h"
#include "inventory/gpu_info.h"
#include "platform/ld_cache.h"
#include "inventory/loader_cache.h"
#include "inventory/library_scan.h"
#include "inventory/library_version.h"
#include "inventory/system_info.h"
#include "inventory/toolkit_scan.h"
#include "test_support.h"

namespace gpucheck::inventory {
namespace {

TEST(InvToolkitVersionFiles, VersionTxtJsonCudaHNvcc) {
  EXPECT_EQ(parse_version_txt("CUDA Version 11.0.228\n"), "11.0.228");
  EXPECT_EQ(parse_version_txt("garbage"), "");
  EXPECT_EQ(parse_version_json(R"({"cuda":{"name":"CUDA SDK","version":"12.1.1"},"cuda_nvcc":{"version":"12.1.105"}})"),
            "12.1.1");
  EXPECT_EQ(parse_version_json("{not json"), "");
  EXPECT_EQ(parse_cuda_h_version("#define CUDA_VERSION 12010\n"), "12.1");
  EXPECT_EQ(parse_cuda_h_version("#define CUDA_VERSION 11080"), "11.8");
  EXPECT_EQ(parse_nvcc_version("Cuda compilation tools, release 12.1, V12.1.105\n"), "12.1.105");
}

// A toolkit's version files and tools' banners are outside text: megabyte lines are read without
// recursion (std::regex overflowed the stack at about 32,000 characters: SIGSEGV) and without an
// out-of-range number reaching std::stoi.
TEST(InvToolkitVersionFiles, MegabyteLinesAreNoCrash) {
  const std::string digits(1u << 20, '1');
  EXPECT_EQ(parse_version_txt("CUDA Version " + digits), digits);
  EXPECT_EQ(parse_cuda_h_version("#define CUDA_VERSION " + digits + "\n"), "");
  EXPECT_EQ(parse_cuda_h_version("#define CUDA_VERSION 12040\n"), "12.4");
  EXPECT_EQ(parse_nvcc_version("Cuda compilation tools, release 12.4, V" + digits), digits);
  EXPECT_EQ(parse_compiler_version("gcc " + std::string(1u << 20, ' ') + "12.2.0"), "12.2.0");
  EXPECT_EQ(parse_proc_driver_version("NVRM version: NVIDIA UNIX Kernel Module" + std::string(1u << 20, ' ') + "550.54.15"),
            "550.54.15");
}

TEST(InvToolkitVersionFiles, RealCudaHeaderAndNvccAgree) {
  // The same toolkit read two independent ways: the header on disk and the compiler's own banner.
  std::string from_header = parse_cuda_h_version(read_file("/usr/local/cuda/include/cuda.h"));
  auto r = run_subprocess({"/usr/local/cuda/bin/nvcc", "--version"});
  ASSERT_TRUE(r.ok()) << r.describe();
  std::string from_nvcc = parse_nvcc_version(r.out);
  ASSERT_FALSE(from_header.empty());
  EXPECT_EQ(from_nvcc.rfind(from_header + ".", 0), 0u) << from_nvcc << " vs " << from_header;
}

TEST(InvDistInfo, NamesAndVersions) {
  EXPECT_EQ(platform::parse_dist_info_name("nvidia_cuda_nvcc_cu12-12.1.105.dist-info"),
            (std::pair<std::string, std::string>{"nvidia-cuda-nvcc-cu12", "12.1.105"}));
  EXPECT_EQ(platform::parse_dist_info_name("flash_attn-2.5.8.dist-info").first, "flash-attn");
  EXPECT_EQ(platform::parse_dist_info_name("apex-0.1-py3.10.egg-info").second, "0.1");
  EXPECT_EQ(platform::parse_dist_info_name("torch").first, "");
  EXPECT_EQ(platform::normalize_package_name("Flash_Attn"), "flash-attn");
}

TEST(InvLibraryVersion, DecodesEveryEncoding) {
  EXPECT_EQ(decode_version("cudart", {12010}), "12.1");
  EXPECT_EQ(decode_version("cudart", {11080}), "11.8");
  EXPECT_EQ(decode_version("cublas", {12, 1, 3}), "12.1.3");
  EXPECT_EQ(decode_version("cublasLt", {120103}), "12.1.3");
  EXPECT_EQ(decode_version("cudnn", {8902}), "8.9.2");
  EXPECT_EQ(decode_version("cudnn", {91900}), "9.19.0");
  EXPECT_EQ(decode_version("nccl", {2708}), "2.7.8");
  EXPECT_EQ(decode_version("nccl", {21803}), "2.18.3");
  EXPECT_EQ(decode_version("nvrtc", {12, 4}), "12.4");
  EXPECT_EQ(decode_version("cudart", {0}), "");
}

// The helper's stdout is shared with the constructors of the libraries it loads: a line of another shape
// (a field of another type) is skipped; before, nlohmann's value() threw and `gpucheck env` ended in exit 3.
TEST(InvLibraryVersion, HelperLinesOfAnotherShapeAreSkipped) {
  auto r = parse_version_helper_output(
      "{\"path\":7,\"name\":\"cudart\"}\n"
      "{\"path\":\"/x/libcudnn.so.9\",\"name\":\"cudnn\",\"raw\":\"91900\"}\n"
      "not json\n"
      "[1,2]\n"
      "{\"path\":\"/x/libcudart.so.13\",\"name\":\"cudart\",\"raw\":[13000]}\n"
      "{\"path\":\"/x/libnccl.so.2\",\"name\":\"nccl\",\"error\":\"dlopen failed\"}\n");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r.at("/x/libcudart.so.13").version, "13.0");
  EXPECT_EQ(r.at("/x/libcudart.so.13").source, "cudaRuntimeGetVersion via dlopen");
  EXPECT_EQ(r.at("/x/libnccl.so.2").error, "dlopen failed");
}

TEST(InvLibraryNames, KindsAndFileVersions) {
  EXPECT_EQ(library_kind("libcudart.so.12.1.105"), "cudart");
  EXPECT_EQ(library_kind("libcublasLt.so.12"), "cublasLt");
  EXPECT_EQ(library_kind("libcublas.so"), "cublas");
  EXPECT_EQ(library_kind("libnvrtc-builtins.so.13.0"), "");
  EXPECT_EQ(library_kind("libcudnn_ops.so.9"), "");
  EXPECT_EQ(library_kind("libcudart_static.a"), "");
  EXPECT_EQ(version_from_file_name("libcudart.so.12.1.105"), "12.1.105");
  EXPECT_EQ(version_from_file_name("libcudart.so"), "");
}

TEST(InvLdCache, MatchesLdconfigOnThisMachine) {
  auto cache = platform::LdCache::parse(read_file("/etc/ld.so.cache"), "/etc/ld.so.cache");
  const auto& entries = cache.entries();
  ASSERT_FALSE(entries.empty());
  auto r = run_subprocess({"/sbin/ldconfig", "-p"});
  ASSERT_TRUE(r.ok()) << r.describe();
  // Every "soname (...) => path" line of ldconfig -p must be one of our entries, in the same order.
  std::regex line_re(R"(^\s+(\S+) \(([^)]*)\) => (\S+)$)");
  std::vector<std::pair<std::string, std::string>> expected;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, line_re)) expected.emplace_back(m[1].str(), m[3].str());
  }
  ASSERT_EQ(expected.size(), entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    EXPECT_EQ(entries[i].name, expected[i].first);
    EXPECT_EQ(entries[i].path, expected[i].second);
  }
  // The one parser's policy: garbage is an InputError, never a silently empty cache.
  EXPECT_THROW(platform::LdCache::parse("not a cache", "x"), InputError);
}

// The inventory's side of that policy: an unreadable cache under --root is an inventory note and an
// empty cache; an absent one is no note (the loader then searches its default directories only).
TEST(InvLdCache, MalformedCacheIsANoteAbsentCacheIsNothing) {
  testing::TempDir root;
  auto absent = read_loader_cache(platform::RootFs(root.path()));
  EXPECT_TRUE(absent.cache.entries().empty());
  EXPECT_EQ(absent.note, "");
  testing::write_file(root / "etc/ld.so.cache", "glibc-ld.so.cache1.1 but truncated");
  auto bad = read_loader_cache(platform::RootFs(root.path()));
  EXPECT_TRUE(bad.cache.entries().empty());
  EXPECT_EQ(bad.note.rfind("ld.so.cache unreadable: ", 0), 0u) << bad.note;
  EXPECT_NE(bad.note.find("malformed ld.so cache"), std::string::npos) << bad.note;
  // The note reaches the document `gpucheck env --root` writes, and the collection still completes.
  CollectOptions o;
  o.root = root.path();
  o.python = false;
  auto inv = collect(o);
  EXPECT_NE(std::find(inv.notes.begin(), inv.notes.end(), bad.note), inv.notes.end());
  // This machine's real cache reads without a note and finds what the loader finds.
  auto live = read_loader_cache(platform::RootFs("/"));
  EXPECT_EQ(live.note, "");
  EXPECT_TRUE(live.cache.lookup("libc.so.6").has_value());
}

// Very old images: the "ld.so-1.7.0" table alone, string offsets relative to the end of the table.
TEST(InvLdCache, OldFormatAloneIsRead) {
  std::string b = std::string("ld.so-1.7.0") + '\0';
  std::uint32_t n = 1;
  b.append(reinterpret_cast<const char*>(&n), 4);
  std::int32_t flags = platform::host_cache_flags();
  std::uint32_t key = 0, value = 10;  // "libz.so.1\0" then the path
  b.append(reinterpret_cast<const char*>(&flags), 4);
  b.append(reinterpret_cast<const char*>(&key), 4);
  b.append(reinterpret_cast<const char*>(&value), 4);
  b += std::string("libz.so.1") + '\0' + "/lib/libz.so.1" + '\0';
  auto c = platform::LdCache::parse(b, "old");
  ASSERT_EQ(c.entries().size(), 1u);
  EXPECT_EQ(c.lookup("libz.so.1").value_or(""), "/lib/libz.so.1");
  EXPECT_THROW(platform::LdCache::parse(b.substr(0, b.size() - 8), "old"), InputError);  // path runs off the end
}

TEST(InvElf, SonameOfRealLibcudartMatchesReadelf) {
  std::string lib = "/usr/local/cuda/lib64/libcudart.so";
  std::string soname = platform::ElfObject::read_soname(lib);
  ASSERT_FALSE(soname.empty());
  EXPECT_EQ(platform::ElfObject::loadable_mismatch(lib), "");  // this host's class and machine (x86-64 here)
  auto r = run_subprocess({"readelf", "-d", lib});
  ASSERT_TRUE(r.ok());
  EXPECT_NE(r.out.find("Library soname: [" + soname + "]"), std::string::npos) << soname;
  // Never throws for what the inventory may meet: not ELF, missing, a directory.
  EXPECT_EQ(platform::ElfObject::read_soname("/etc/os-release"), "");
  EXPECT_EQ(platform::ElfObject::loadable_mismatch("/etc/os-release"), "not an ELF file");
  EXPECT_EQ(platform::ElfObject::read_soname("/nonexistent"), "");
  EXPECT_NE(platform::ElfObject::loadable_mismatch("/nonexistent"), "");
  EXPECT_EQ(platform::ElfObject::read_soname("/tmp"), "");
}

TEST(InvSystem, NewestGlibcxxOfTheRealLibstdcxx) {
  auto s = read_system(platform::RootFs("/"), {{"CUDA_HOME", "/x"}, {"HOME", "/root"}, {"NCCL_DEBUG", "INFO"}},
                       read_loader_cache(platform::RootFs("/")).cache);
  ASSERT_FALSE(s.libstdcxx_path.empty());
  ASSERT_FALSE(s.glibcxx_max.empty());
  // Cross-check with the symbol versions readelf lists.
  auto r = run_subprocess({"readelf", "-V", s.libstdcxx_path});
  ASSERT_TRUE(r.ok());
  EXPECT_NE(r.out.find("GLIBCXX_" + s.glibcxx_max), std::string::npos);
  EXPECT_EQ(r.out.find("GLIBCXX_" + s.glibcxx_max + "."), std::string::npos) << "a newer patch level exists";
  EXPECT_EQ(s.environment.count("HOME"), 0u);  // not allow-listed
  EXPECT_EQ(s.environment.at("NCCL_DEBUG"), "INFO");
  EXPECT_EQ(s.environment.at("CUDA_HOME"), "/x");
}

TEST(InvDriver, ProcVersionBothKernelModuleFlavours) {
  EXPECT_EQ(parse_proc_driver_version(
                "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024\n"),
            "550.54.15");
  EXPECT_EQ(parse_proc_driver_version("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.86.15  Release Build"),
            "570.86.15");
  EXPECT_EQ(parse_proc_driver_version(""), "");
}

TEST(InvDriver, AbsentDriverIsAFindingNotAnError) {
  auto d = read_driver(platform::RootFs("/"), read_loader_cache(platform::RootFs("/")).cache);
  std::ifstream proc("/proc/driver/nvidia/version");
  if (proc) GTEST_SKIP() << "this machine has an NVIDIA driver; the absent-driver path is not testable here";
  EXPECT_FALSE(d.present);
  EXPECT_NE(d.error.find("libcuda.so.1"), std::string::npos) << d.error;
}

TEST(InvGpus, VisibleDevicesLikeTheRuntime) {
  std::vector<Gpu> all(3);
  for (int i = 0; i < 3; ++i) all[i].nvml_index = i, all[i].uuid = "GPU-" + std::string(1, char('a' + i)) + "1234";
  auto v = apply_visible_devices(all, "2,0");
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].nvml_index, 2);
  EXPECT_EQ(v[0].index, 0);
  EXPECT_EQ(v[1].nvml_index, 0);
  EXPECT_EQ(apply_visible_devices(all, "1,7,0").size(), 1u);  // stops at the first invalid index
  EXPECT_EQ(apply_visible_devices(all, "GPU-b1").at(0).nvml_index, 1);
  EXPECT_TRUE(apply_visible_devices(all, "").empty());
  EXPECT_TRUE(apply_visible_devices(all, "-1").empty());
}

TEST(InvCompilers, VersionLines) {
  EXPECT_EQ(parse_compiler_version("gcc (Debian 12.2.0-14) 12.2.0\nCopyright"), "12.2.0");
  EXPECT_EQ(parse_compiler_version("Debian clang version 14.0.6\nTarget: x86_64"), "14.0.6");
  EXPECT_EQ(parse_compiler_version("g++ (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0"), "11.4.0");
}

TEST(InvCompilers, RealGccOnThisMachine) {
  auto scan = scan_compilers(platform::RootFs("/"), {{"PATH", "/usr/bin:/bin"}, {"CXX", "ccache g++"}});
  const Compiler* gcc = nullptr;
  const Compiler* cxx = nullptr;
  for (const auto& c : scan.compilers) {
    if (c.name == "gcc") gcc = &c;
    if (c.name == "CXX") cxx = &c;
  }
  ASSERT_NE(gcc, nullptr);
  auto r = run_subprocess({"/usr/bin/gcc", "-dumpfullversion"});
  EXPECT_EQ(gcc->version, trim(r.out));
  ASSERT_NE(cxx, nullptr);
  EXPECT_EQ(cxx->path, "/usr/bin/g++");
  EXPECT_NE(scan.nvcc_host_compiler.find("/usr/bin/gcc"), std::string::npos);
  // clang's version comes from its resource directory: it must match what clang itself prints.
  for (const auto& c : scan.compilers) {
    if (c.name != "clang") continue;
    auto r = run_subprocess({c.path, "--version"});
    EXPECT_EQ(c.version, parse_compiler_version(r.out)) << c.source;
  }
}

// Issue 15 item 17: a wrongly typed field of an inventory document is bad input naming the field, not
// only nlohmann's "type must be number, but is string".
TEST(InventoryDocument, TypeErrorsNameTheField) {
  auto why = [](const std::string& text) -> std::string {
    try {
      inventory_from_document(nlohmann::json::parse(text), "doc.json");
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(why(R"({"schema_version":"2.0","gpus":[{"index":0},{"index":"zero"}]})"),
            "malformed inventory document: gpus[1].index: type must be number, but is string");
  EXPECT_EQ(why(R"({"schema_version":"2.0","driver":{"cuda_version":"x"}})"),
            "malformed inventory document: driver.cuda_version: type must be number, but is string");
  EXPECT_NE(why(R"({"schema_version":"2.0","toolkits":[{"host_compilers":[{"min":3}]}]})")
                .find(": toolkits[0].host_compilers[0].min: type must be string"), std::string::npos);
  EXPECT_NE(why(R"({"schema_version":"2.0","notes":"one"})").find(": notes: "), std::string::npos);
  EXPECT_EQ(why(R"({"schema_version":"2.0","gpus":[{"index":3,"cc_major":9}]})"), "");  // well typed
  // A fraction where the model has a whole number: before, get<unsigned long>() of 8.6e75 (undefined
  // behaviour; UBSan in fuzz.inventory). A whole number of a float's size is still only too large.
  EXPECT_EQ(why(R"({"schema_version":"2.0","gpus":[{"index":0,"memory_total_bytes":8.6e75}]})"),
            "malformed inventory document: gpus[0].memory_total_bytes: must be a whole number");
  EXPECT_EQ(why(R"({"schema_version":"2.0","driver":{"cuda_version":12.4}})"),
            "malformed inventory document: driver.cuda_version: must be a whole number");
  EXPECT_EQ(why(R"({"schema_version":"2.0","pythons":[{"probe_seconds":1}]})"), "");  // an int where a float goes
  // A "kind" that is no string is not a report's: before, value("kind", "") threw a type_error (exit 3).
  for (const char* doc : {R"({"kind":2222222222222222222222222.2})", R"({"kind":{}})", R"({"kind":null})"})
    EXPECT_NO_THROW(why(doc)) << doc;
}

// The library-version cache is a file in the user's cache directory that anyone with that account can edit:
// a field of another type is a corrupt cache, so an empty one, never a type_error out of `gpucheck env`.
TEST(InvVersionCache, FieldsOfAnotherTypeAreACorruptCacheNotAnError) {
  testing::TempDir dir;
  const std::string file = dir / "versions.json";
  for (const char* text : {R"({"format":"1","entries":{}})", R"({"format":1,"entries":[1,2]})",
                           R"({"format":1,"entries":{"/lib/libcudart.so.12":{"version":12,"identity":"a"}}})",
                           R"({"format":1,"entries":{"/lib/libcudart.so.12":{"version":"12.4","identity":{}}}})"}) {
    testing::write_file(file, text);
    VersionReading r;
    EXPECT_NO_THROW({
      VersionCache cache(file);
      EXPECT_FALSE(cache.lookup("/lib/libcudart.so.12", r)) << text;
    }) << text;
  }
}

// Issue 35: the loader's "libcuda.so.1: cannot open shared object file" was doctor's only word on a
// missing driver, twice (NVML and libcuda). Now one note in words; other reasons kept as said.
TEST(DriverNotes, NoDriverLibrariesIsOneNoteInWords) {
  Driver none;
  none.error = "libcuda.so.1: cannot open shared object file: No such file or directory";
  const std::string no_nvml = "libnvidia-ml.so.1: cannot open shared object file: No such file or directory";
  EXPECT_EQ(driver_notes(none, no_nvml),
            std::vector<std::string>{"driver: none installed (the loader finds neither libcuda.so.1 nor libnvidia-ml.so.1)"});
  EXPECT_EQ(driver_notes(none, ""), std::vector<std::string>{"driver: none installed (the loader finds no libcuda.so.1)"});
  Driver broken;
  broken.error = "cuInit: CUDA_ERROR_NO_DEVICE (100)";
  EXPECT_EQ(driver_notes(broken, no_nvml),
            (std::vector<std::string>{"GPUs: no NVML (libnvidia-ml.so.1 is not installed)", "driver: cuInit: CUDA_ERROR_NO_DEVICE (100)"}));
  Driver present;
  present.present = true;
  EXPECT_TRUE(driver_notes(present, "").empty());
  EXPECT_EQ(driver_notes(present, "nvmlInit: NVML_ERROR_DRIVER_NOT_LOADED"),
            std::vector<std::string>{"GPUs: nvmlInit: NVML_ERROR_DRIVER_NOT_LOADED"});
}

// NVML refusing to start because the kernel module and its libraries differ is the driver's failure: kept as the
// driver's error for doctor's driver.library_mismatch, though libcuda answered its version.
TEST(DriverNotes, NvmlsDriverLibraryMismatchBecomesTheDriversError) {
  Driver d;
  d.present = true;
  d.cuda_version = 12040;
  adopt_driver_library_mismatch(d, "nvmlInit_v2: Driver/library version mismatch");
  EXPECT_EQ(d.error, "NVML: nvmlInit_v2: Driver/library version mismatch");
  EXPECT_TRUE(d.present);
  Driver other;
  adopt_driver_library_mismatch(other, "nvmlInit_v2: NVML_ERROR_DRIVER_NOT_LOADED");
  EXPECT_TRUE(other.error.empty()) << "another NVML failure is a note, not this";
  EXPECT_TRUE(says_driver_library_mismatch("NVML_ERROR_LIB_RM_VERSION_MISMATCH"));
  EXPECT_TRUE(says_driver_library_mismatch("CUDA initialization: Unexpected error from cudaGetDeviceCount(). Error 803: "
                                           "system has unsupported display driver / cuda driver combination"));
}

}  // namespace
}  // namespace gpucheck::inventory
